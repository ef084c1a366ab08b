package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/idempotency"
	"hearth/web/httpkit"
)

// Requests records client request ids so a repeated POST is answered, not
// done twice (see package idempotency).
type Requests interface {
	Begin(ctx context.Context, k idempotency.Key, hash string) (idempotency.State, idempotency.Response, error)
	Finish(ctx context.Context, k idempotency.Key, r idempotency.Response) error
	Abandon(ctx context.Context, k idempotency.Key) error
}

const (
	// ridField is the hidden form field hearth.js fills with a fresh random
	// id before a form is submitted, and clears once its answer arrived.
	ridField = "_rid"
	// idempotencyHeader carries the same for scripts and for uploads.
	idempotencyHeader = "Idempotency-Key"
	// maxRecorded caps a response kept for replay.
	maxRecorded = 1 << 20
)

var ridPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// idempotent makes a creating request idempotent when it carries a request id (a
// form's _rid field or an Idempotency-Key header): the first request's
// response is recorded and a repeat with the same id gets it again. An id is
// unique on its own (package idempotency): the same id with another path
// (another member, resource or route) or body is 422 key_reused and runs
// nothing. A request without an id runs as usual.
// It is route middleware, after authentication, so a replay never reaches
// someone who could not have made the request.
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost || s.deps.Requests == nil {
			return next(c)
		}
		key := r.Header.Get(idempotencyHeader)
		form := strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEApplicationForm)
		if key == "" && form {
			key = r.PostFormValue(ridField)
		}
		if key == "" {
			return next(c)
		}
		if !ridPattern.MatchString(key) {
			return apperr.Invalidf("the request id must be 16 to 128 letters, digits, - or _")
		}
		hash, err := requestHash(r, form)
		if err != nil {
			return err
		}
		k := idempotency.Key{Member: c.Param("member"), Kind: r.Method + " " + c.Path(), Key: key}
		ctx := r.Context()
		state, prev, err := s.deps.Requests.Begin(ctx, k, hash)
		if err != nil {
			return err
		}
		switch state {
		case idempotency.Done:
			return replay(c, prev)
		case idempotency.Mismatch:
			return apperr.New(apperr.KeyReused, "this request id was already used for a different request (another %s, or another body): send it with a new id", resourceOf(c))
		case idempotency.Interrupted:
			return apperr.New(apperr.Conflict, "an earlier attempt of this request was interrupted by a restart; check whether it was saved before trying again")
		}
		rec := &recorder{ResponseWriter: c.Response().Writer}
		c.Response().Writer = rec
		err = next(c)
		c.Response().Writer = rec.ResponseWriter
		if status := c.Response().Status; err != nil || !c.Response().Committed || status >= 400 && status < 500 {
			// Nothing was answered yet (the error handler will), or the
			// request was refused (4xx: a refused request changes nothing,
			// TestBadInputSweep holds every route to that): a repeat may run
			// again, and a refusal's page (it can show the member's data) is
			// not kept.
			if aerr := s.deps.Requests.Abandon(ctx, k); aerr != nil {
				s.log.Error("idempotency: abandon", "err", aerr)
			}
			return err
		}
		h := c.Response().Header()
		resp := idempotency.Response{Status: c.Response().Status, ContentType: h.Get(echo.HeaderContentType),
			Location: h.Get(echo.HeaderLocation), Body: rec.body.Bytes()}
		if rec.overflow {
			resp.Body = nil
		}
		// Attributed to whose data the handler acted on (httpkit.Owner), so
		// erasing them deletes it whatever the route's shape.
		k.Member = httpkit.OwnerOf(c)
		if ferr := s.deps.Requests.Finish(ctx, k, resp); ferr != nil {
			s.log.Error("idempotency: record response", "err", ferr)
		}
		return nil
	}
}

// requestHash fingerprints what the request asks for: the concrete path
// (so the same id on another thread, run or entry is a different request,
// never a replay of the first) and the form's fields (sorted, without the
// CSRF token and the id itself) or the raw JSON body. A multipart body is
// not hashed: its boundary differs on every send.
func requestHash(r *http.Request, form bool) (string, error) {
	h := sha256.New()
	h.Write([]byte(r.URL.Path))
	h.Write([]byte{0})
	ct := r.Header.Get(echo.HeaderContentType)
	switch {
	case form:
		keys := make([]string, 0, len(r.PostForm))
		for k := range r.PostForm {
			if k != ridField && k != csrfField {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			for _, v := range r.PostForm[k] {
				h.Write([]byte(k))
				h.Write([]byte{0})
				h.Write([]byte(v))
				h.Write([]byte{0})
			}
		}
	case strings.HasPrefix(ct, echo.MIMEMultipartForm):
	default:
		if r.Body != nil && r.Body != http.NoBody {
			raw, err := io.ReadAll(r.Body)
			if err != nil {
				return "", bodyReadError(err)
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
			h.Write(raw)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// resourceOf names what a route's path parameters pick ("thread, member"),
// for the message about a reused id.
func resourceOf(c echo.Context) string {
	names := c.ParamNames()
	if len(names) == 0 {
		return "resource"
	}
	return strings.Join(names, ", ")
}

func replay(c echo.Context, r idempotency.Response) error {
	h := c.Response().Header()
	if r.ContentType != "" {
		h.Set(echo.HeaderContentType, r.ContentType)
	}
	if r.Location != "" {
		h.Set(echo.HeaderLocation, r.Location)
	}
	h.Set("Idempotent-Replayed", "true")
	c.Response().WriteHeader(r.Status)
	_, err := c.Response().Write(r.Body)
	return err
}

// recorder keeps a copy of what the handler writes (streams included: it
// passes flushes on).
type recorder struct {
	http.ResponseWriter
	body     bytes.Buffer
	overflow bool
}

func (w *recorder) Write(b []byte) (int, error) {
	if !w.overflow {
		if w.body.Len()+len(b) > maxRecorded {
			w.overflow = true
			w.body.Reset()
		} else {
			w.body.Write(b)
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and SetWriteDeadline.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
