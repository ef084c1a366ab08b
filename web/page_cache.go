package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/views"
)

// A member's dashboard page is rendered once per change of its model and
// then served as bytes: profiling showed templ rendering the 21 KB page was
// most of a page request once the model itself was shared. The client's
// CSRF token, the one per-client part, is rendered as a random placeholder
// and spliced in per request; it is 32 hex digits (isToken), which need no
// escaping wherever the placeholder stood (attributes, JSON, text).
var pagePlaceholder = func() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// patchRenders counts stream patch sets encoded (tests check sharing).
var patchRenders atomic.Int64

// maxGzipCopies bounds the compressed copies kept per rendered page: one per
// client token (a household has a few screens); more are compressed per
// request and not kept.
const maxGzipCopies = 32

// renderedPage is one rendered dashboard split around the CSRF placeholder.
type renderedPage struct {
	once  sync.Once
	parts [][]byte
	size  int    // bytes of the page with a token spliced in
	tag   string // content hash, the ETag's first half
	err   error

	mu sync.Mutex
	gz map[string][]byte // by token
}

func (p *renderedPage) build(render func() ([]byte, error)) error {
	p.once.Do(func() {
		b, err := render()
		if err != nil {
			p.err = err
			return
		}
		h := fnv.New64a()
		_, _ = h.Write(b)
		p.tag = strconv.FormatUint(h.Sum64(), 36)
		p.parts = bytes.Split(b, []byte(pagePlaceholder))
		p.size = len(b)
	})
	return p.err
}

func (p *renderedPage) with(token string) []byte {
	out := make([]byte, 0, p.size)
	for i, part := range p.parts {
		if i > 0 {
			out = append(out, token...)
		}
		out = append(out, part...)
	}
	return out
}

// writeTo writes the bytes with token spliced in, part by part (no copy).
func (p *renderedPage) writeTo(w io.Writer, token string) error {
	for i, part := range p.parts {
		if i > 0 {
			if _, err := io.WriteString(w, token); err != nil {
				return err
			}
		}
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// gzipped is the page with token spliced in, gzip-compressed, kept for the
// life of this rendering (until the member's next change).
func (p *renderedPage) gzipped(token string) []byte {
	p.mu.Lock()
	b, ok := p.gz[token]
	p.mu.Unlock()
	if ok {
		return b
	}
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&buf)
	_, _ = zw.Write(p.with(token))
	_ = zw.Close()
	gzipWriters.Put(zw)
	b = buf.Bytes()
	p.mu.Lock()
	if p.gz == nil {
		p.gz = map[string][]byte{}
	}
	if len(p.gz) < maxGzipCopies {
		p.gz[token] = b
	}
	p.mu.Unlock()
	return b
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return zw
}}

// serveCachedDashboard answers GET /m/:member from the member's rendered
// page: 304 when the client holds this version (the ETag covers the content
// and the client's token), gzip when accepted. ok is false when nothing can
// be shared (a hub without generations); the caller renders as before.
func (s *Server) serveCachedDashboard(c echo.Context) (ok bool, err error) {
	e, err := s.sharedEntry(c.Request().Context(), c.Param("member"))
	if err != nil || e == nil {
		return false, err
	}
	err = e.page.build(func() ([]byte, error) {
		d := withCSRF(e.d, pagePlaceholder)
		d.Page = s.kioskPage(c, d.Member.Name, "/live/m/"+d.Member.ID, true)
		d.Page.CSRF = pagePlaceholder
		d.Page.Private = d.Member.Private
		var buf bytes.Buffer
		buf.Grow(32 << 10)
		if err := views.MemberDashboard(d).Render(context.WithoutCancel(c.Request().Context()), &buf); err != nil {
			return nil, fmt.Errorf("render dashboard: %w", err)
		}
		return buf.Bytes(), nil
	})
	if err != nil {
		return true, err
	}
	token := csrfToken(c)
	h := c.Response().Header()
	th := fnv.New32a()
	_, _ = th.Write([]byte(token))
	etag := `"` + e.page.tag + "-" + strconv.FormatUint(uint64(th.Sum32()), 36)
	h.Set(echo.HeaderCacheControl, "private, no-cache")
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if accepts(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip") {
		etag += `-gzip"`
		h.Set("ETag", etag)
		if etagMatch(c.Request().Header.Get("If-None-Match"), etag) {
			return true, c.NoContent(http.StatusNotModified)
		}
		h.Set(echo.HeaderContentEncoding, "gzip")
		return true, c.Blob(http.StatusOK, echo.MIMETextHTMLCharsetUTF8, e.page.gzipped(token))
	}
	etag += `"`
	h.Set("ETag", etag)
	if etagMatch(c.Request().Header.Get("If-None-Match"), etag) {
		return true, c.NoContent(http.StatusNotModified)
	}
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set(echo.HeaderContentLength, strconv.Itoa(e.page.size-(len(pagePlaceholder)-len(token))*(len(e.page.parts)-1)))
	c.Response().WriteHeader(http.StatusOK)
	// The parts go out as they are: no per-request copy of the page. A
	// failed write means the client went; there is nothing to answer.
	_ = e.page.writeTo(c.Response(), token)
	return true, nil
}

// patches returns the Datastar events that patch the widgets in set, encoded
// once for this model and shared by every stream showing the member.
func (e *modelEntry) patches(r *http.Request, set widgets) (*renderedPage, error) {
	e.pmu.Lock()
	if e.sets == nil {
		e.sets = map[widgets]*renderedPage{}
	}
	p := e.sets[set]
	if p == nil {
		p = &renderedPage{}
		e.sets[set] = p
	}
	e.pmu.Unlock()
	err := p.build(func() ([]byte, error) {
		var buf eventBuffer
		// Shared by other streams: this client leaving must not cut it short.
		sse := datastar.NewSSE(&buf, r.WithContext(context.WithoutCancel(r.Context())))
		patchRenders.Add(1)
		if err := writePatches(sse, withCSRF(e.d, pagePlaceholder), pagePlaceholder, set); err != nil {
			return nil, fmt.Errorf("render patches: %w", err)
		}
		return buf.b.Bytes(), nil
	})
	return p, err
}

// eventBuffer is the response writer Datastar encodes shared events into.
type eventBuffer struct {
	b bytes.Buffer
	h http.Header
}

func (w *eventBuffer) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}
func (w *eventBuffer) Write(p []byte) (int, error) { return w.b.Write(p) }
func (w *eventBuffer) WriteHeader(int)             {}
func (w *eventBuffer) Flush()                      {}
