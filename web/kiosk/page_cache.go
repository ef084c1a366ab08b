package kiosk

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
	"hearth/views/kioskview"
	"hearth/web/httpkit"
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

// maxCopies bounds the per-token copies kept of one rendering (spliced,
// and gzip-compressed): one per client token, a household has a few
// screens; past it copies are made per request and not kept.
const maxCopies = 32

// renderedPage is one rendered dashboard split around the CSRF placeholder.
type renderedPage struct {
	once  sync.Once
	parts [][]byte
	size  int    // bytes of the page with a token spliced in
	tag   string // content hash, the ETag's first half
	err   error

	mu    sync.Mutex
	plain map[string][]byte // by token
	gz    map[string][]byte // by token
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

func (p *renderedPage) appendWith(out []byte, token string) []byte {
	for i, part := range p.parts {
		if i > 0 {
			out = append(out, token...)
		}
		out = append(out, part...)
	}
	return out
}

// writeTo writes the bytes with token spliced in as one Write: part by
// part, a 37 KB page went out in ~10 system calls through net/http's 4 KB
// buffer; in one piece it takes two (measured: BENCHMARKS.md). Past the
// copies kept per token the join uses a pooled buffer: 1,000 screens must
// not allocate 1,000 copies per change.
func (p *renderedPage) writeTo(w io.Writer, token string) error {
	if b, ok := p.kept(token); ok {
		_, err := w.Write(b)
		return err
	}
	buf := joinBufs.Get().(*[]byte)
	*buf = p.appendWith((*buf)[:0], token)
	_, err := w.Write(*buf)
	if cap(*buf) <= 256<<10 {
		joinBufs.Put(buf)
	}
	return err
}

var joinBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// kept is the spliced copy for token, made and kept while under maxCopies.
func (p *renderedPage) kept(token string) ([]byte, bool) {
	if len(p.parts) == 1 {
		return p.parts[0], true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b, ok := p.plain[token]; ok {
		return b, true
	}
	if len(p.plain) >= maxCopies {
		return nil, false
	}
	if p.plain == nil {
		p.plain = map[string][]byte{}
	}
	b := p.appendWith(make([]byte, 0, p.size), token)
	p.plain[token] = b
	return b, true
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
	if b, ok := p.kept(token); ok {
		_, _ = zw.Write(b)
	} else {
		_, _ = zw.Write(p.appendWith(nil, token))
	}
	_ = zw.Close()
	gzipWriters.Put(zw)
	b = buf.Bytes()
	p.mu.Lock()
	if p.gz == nil {
		p.gz = map[string][]byte{}
	}
	if len(p.gz) < maxCopies {
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
func (s *dashboardModels) serveCachedDashboard(c echo.Context) (ok bool, err error) {
	ctx := c.Request().Context()
	e, err := s.sharedEntry(ctx, c.Param("member"))
	if err != nil || e == nil {
		return false, err
	}
	ch := chooseScreen(c)
	scr, err := s.resolveScreen(ctx, c, ch)
	if err != nil {
		return true, err
	}
	locked := s.locks.locked(ensureScreen(c), e.d.Member.Private, scr.Layout.HouseholdOnly, e.d.Member.ID)
	page := e.page(fmt.Sprint(scr.Key(), "|", ch.inQuery, "|", locked))
	err = page.build(func() ([]byte, error) {
		d := withCSRF(e.d, pagePlaceholder)
		if locked {
			d = lockedModel(d)
		}
		d = s.dashboardPage(c, d, pagePlaceholder, scr, ch)
		// The page names the full patch set it already shows (for its lock
		// state): the stream's first request skips re-sending it while it
		// is current.
		all, err := e.patches(c.Request().Context(), wAll, locked, s.patchRenders)
		if err != nil {
			return nil, err
		}
		d.Page.StreamVersion = all.tag
		var buf bytes.Buffer
		buf.Grow(32 << 10)
		if err := kioskview.MemberDashboard(d).Render(context.WithoutCancel(c.Request().Context()), &buf); err != nil {
			return nil, fmt.Errorf("render dashboard: %w", err)
		}
		return buf.Bytes(), nil
	})
	if err != nil {
		return true, err
	}
	token := httpkit.CSRFToken(c)
	h := c.Response().Header()
	th := fnv.New32a()
	_, _ = th.Write([]byte(token))
	etag := `"` + page.tag + "-" + strconv.FormatUint(uint64(th.Sum32()), 36)
	h.Set(echo.HeaderCacheControl, "private, no-cache")
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if httpkit.Accepts(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip") {
		etag += `-gzip"`
		h.Set("ETag", etag)
		if httpkit.ETagMatch(c.Request().Header.Get("If-None-Match"), etag) {
			return true, c.NoContent(http.StatusNotModified)
		}
		h.Set(echo.HeaderContentEncoding, "gzip")
		return true, c.Blob(http.StatusOK, echo.MIMETextHTMLCharsetUTF8, page.gzipped(token))
	}
	etag += `"`
	h.Set("ETag", etag)
	if httpkit.ETagMatch(c.Request().Header.Get("If-None-Match"), etag) {
		return true, c.NoContent(http.StatusNotModified)
	}
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set(echo.HeaderContentLength, strconv.Itoa(page.size-(len(pagePlaceholder)-len(token))*(len(page.parts)-1)))
	c.Response().WriteHeader(http.StatusOK)
	// A failed write means the client went; there is nothing to answer.
	_ = page.writeTo(c.Response(), token)
	return true, nil
}

// page is the entry's rendered page for one screen layout and lock state
// (key).
func (e *modelEntry) page(key string) *renderedPage {
	e.pmu.Lock()
	defer e.pmu.Unlock()
	if e.pages == nil {
		e.pages = map[string]*renderedPage{}
	}
	p := e.pages[key]
	if p == nil {
		p = &renderedPage{}
		e.pages[key] = p
	}
	return p
}

// patchKey is one shared set of stream patches: the widgets, as a screen
// that has the member locked or not sees them.
type patchKey struct {
	set    widgets
	locked bool
}

// patches returns the Datastar events that patch the widgets in set, encoded
// once for this model and lock state and shared by every stream showing the
// member; renders (if not nil) counts the sets encoded. Only ctx's static
// file mapping goes into the encoding (views.AssetsFrom), so the patches
// link the content-hashed URLs the page links (a plain /static/ URL in a
// patch was a second download of the coach's avatar after every full patch).
func (e *modelEntry) patches(ctx context.Context, set widgets, locked bool, renders *atomic.Int64) (*renderedPage, error) {
	e.pmu.Lock()
	if e.sets == nil {
		e.sets = map[patchKey]*renderedPage{}
	}
	p := e.sets[patchKey{set, locked}]
	if p == nil {
		p = &renderedPage{}
		e.sets[patchKey{set, locked}] = p
	}
	e.pmu.Unlock()
	err := p.build(func() ([]byte, error) {
		var buf eventBuffer
		// Shared by every stream: no one client's request goes into it.
		req := patchRequest
		if f := views.AssetsFrom(ctx); f != nil {
			req = patchRequest.WithContext(views.WithAssets(context.Background(), f))
		}
		sse := datastar.NewSSE(&buf, req)
		if renders != nil {
			renders.Add(1)
		}
		d := withCSRF(e.d, pagePlaceholder)
		if locked {
			d = lockedModel(d)
		}
		if err := writePatches(sse, d, pagePlaceholder, set); err != nil {
			return nil, fmt.Errorf("render patches: %w", err)
		}
		return buf.b.Bytes(), nil
	})
	return p, err
}

// patchRequest is the request datastar-go reads (protocol, context,
// Accept-Encoding) while shared patches are encoded: uncompressed, never
// cancelled.
var patchRequest = &http.Request{ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}}

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
