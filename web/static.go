package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"

	"hearth/web/httpkit"
)

// assets serves the embedded static files from memory, each under two URLs:
// its plain name (/static/hearth.css: revalidated with its ETag) and a
// content-hashed name (/static/hearth.1a2b3c4d5e.css: cached for a year as
// immutable, so a kiosk that reloads fetches nothing). Pages link the hashed
// name (views.AssetURL). Text files are sent brotli- or gzip-compressed when
// the client accepts it, compressed once on first request: compressing at
// start would delay the first served request.
type assets struct {
	files map[string]*asset // by plain name, "thumbs/x.svg"
}

type asset struct {
	name, ctype, hash string // hash: first 10 hex digits of SHA-256
	raw               []byte
	compressible      bool

	gzOnce, brOnce sync.Once
	gz, br         []byte // nil when compression does not pay
	etagBase       string
}

// hashLen is the hex digits of the content hash in a URL: 40 bits make a
// collision between two versions of one file vanishingly unlikely.
const hashLen = 10

func newAssets(fsys fs.FS) (*assets, error) {
	a := &assets{files: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ext := path.Ext(p)
		ct := mime.TypeByExtension(ext)
		if ext == ".map" {
			ct = "application/json"
		}
		if ct == "" {
			ct = http.DetectContentType(b)
		}
		h := hex.EncodeToString(sum[:])[:hashLen]
		a.files[p] = &asset{name: p, ctype: ct, hash: h, raw: b, etagBase: `"` + h + `"`,
			compressible: strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") || strings.Contains(ct, "json") || strings.Contains(ct, "svg")}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static assets: %w", err)
	}
	return a, nil
}

// URL is the content-hashed URL of a static file; unknown names keep their
// plain URL (a missing file answers 404 there, as before).
func (a *assets) URL(name string) string {
	f := a.files[name]
	if f == nil {
		return "/static/" + name
	}
	ext := path.Ext(name)
	return "/static/" + strings.TrimSuffix(name, ext) + "." + f.hash + ext
}

// lookup finds the file a request path names; hashed reports whether the
// URL carried the file's current hash (only then may it be cached forever).
// An old hash (a page rendered before an upgrade) still gets today's file,
// revalidated, rather than a 404 that breaks the page.
func (a *assets) lookup(name string) (f *asset, hashed bool) {
	if f := a.files[name]; f != nil {
		return f, false
	}
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	i := strings.LastIndexByte(stem, '.')
	if i < 0 || len(stem)-i-1 != hashLen || !isHex(stem[i+1:]) {
		return nil, false
	}
	f = a.files[stem[:i]+ext]
	if f == nil {
		return nil, false
	}
	return f, f.hash == stem[i+1:]
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// gzipped and brotli make each compressed copy once, when a client first
// accepts that coding (brotli at its best level takes tens of ms for
// datastar.js: no client should wait for a coding it did not ask for). A
// copy that saves less than a tenth is dropped (nil: identity is sent).
func (f *asset) gzipped() []byte {
	f.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(f.raw)
		_ = zw.Close()
		f.gz = worthIt(b.Bytes(), len(f.raw))
	})
	return f.gz
}

func (f *asset) brotli() []byte {
	f.brOnce.Do(func() {
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
		_, _ = bw.Write(f.raw)
		_ = bw.Close()
		f.br = worthIt(b.Bytes(), len(f.raw))
	})
	return f.br
}

func worthIt(c []byte, raw int) []byte {
	if len(c) < raw*9/10 {
		return c
	}
	return nil
}

func (a *assets) serve(c echo.Context) error {
	f, hashed := a.lookup(c.Param("*"))
	if f == nil {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, f.ctype)
	if hashed {
		h.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		h.Set(echo.HeaderCacheControl, "no-cache")
	}
	body, enc := f.raw, ""
	if f.compressible && len(f.raw) >= 512 {
		h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		body, enc = f.pick(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	}
	// One ETag per representation: a cache must not answer a gzip request
	// with brotli bytes it revalidated.
	etag := f.etagBase
	if enc != "" {
		etag = etag[:len(etag)-1] + "-" + enc + `"`
		h.Set(echo.HeaderContentEncoding, enc)
	}
	h.Set("ETag", etag)
	if httpkit.ETagMatch(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if c.Request().Method == http.MethodHead {
		h.Set(echo.HeaderContentLength, fmt.Sprint(len(body)))
		return c.NoContent(http.StatusOK)
	}
	return c.Blob(http.StatusOK, f.ctype, body)
}

// pick chooses brotli, then gzip, then identity, by what the client
// accepts (a q=0 refuses a coding) and which copies pay.
func (f *asset) pick(accept string) ([]byte, string) {
	if httpkit.Accepts(accept, "br") {
		if b := f.brotli(); b != nil {
			return b, "br"
		}
	}
	if httpkit.Accepts(accept, "gzip") {
		if b := f.gzipped(); b != nil {
			return b, "gzip"
		}
	}
	return f.raw, ""
}
