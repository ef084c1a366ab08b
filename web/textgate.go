package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/text"
)

// textGate is the floor under every route: before any handler reads the
// request it refuses invalid UTF-8 and control characters other than tab
// and newlines in query values, urlencoded form fields and JSON strings
// (keys included), with a 400 naming the field. Per-field rules (one line,
// length caps, CRLF normalisation) belong to the services, through package
// text; this gate makes sure a field nobody thought of still cannot carry
// a control character into storage or onto the live stream. Multipart
// bodies are left to their handlers, which check their few small fields.
func (s *Server) textGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if err := checkValues(r.URL.Query()); err != nil {
			return err
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		ct := r.Header.Get(echo.HeaderContentType)
		switch {
		case strings.HasPrefix(ct, echo.MIMEApplicationForm):
			if err := r.ParseForm(); err != nil {
				return bodyReadError(err)
			}
			if err := checkValues(r.PostForm); err != nil {
				return err
			}
		case strings.HasPrefix(ct, echo.MIMEApplicationJSON):
			if err := checkJSONBody(r); err != nil {
				return err
			}
		}
		return next(c)
	}
}

// floor checks v against the mode every request field must meet: Multi
// keeps tab and newlines (a textarea's CRLF is normalised by the field's
// own check).
func floor(v string) error {
	_, err := text.Check(text.Multi, v)
	return err
}

func fieldErr(field string, err error) error {
	return apperr.FieldErrors(map[string]string{field: err.Error()})
}

func checkValues(vs url.Values) error {
	for k, list := range vs {
		if err := floor(k); err != nil {
			return apperr.Invalidf("a field name %v", err)
		}
		for _, v := range list {
			if err := floor(v); err != nil {
				return fieldErr(k, err)
			}
		}
	}
	return nil
}

// checkJSONBody reads the (size-limited) body, refuses invalid UTF-8 (Go's
// decoder would silently turn it into U+FFFD) and control characters in any
// string, then puts the body back for the handler. Malformed JSON passes
// through: the handler's decoder names the problem better.
func checkJSONBody(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyReadError(err)
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	if !json.Valid(raw) {
		return nil
	}
	if floor(string(raw)) != nil {
		// Raw control characters cannot appear inside valid JSON strings,
		// so what remains here is invalid UTF-8.
		return apperr.Invalidf("the request body is not valid UTF-8 text")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return walkJSON("", v)
}

func walkJSON(path string, v any) error {
	switch x := v.(type) {
	case string:
		if err := floor(x); err != nil {
			return fieldErr(strings.TrimPrefix(path, "."), err)
		}
	case map[string]any:
		for k, e := range x {
			if err := floor(k); err != nil {
				return apperr.Invalidf("a field name %v", err)
			}
			if err := walkJSON(path+"."+k, e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := walkJSON(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// bodyReadError maps a failed body read: over the route's limit is 413
// (a chunked body has no Content-Length to refuse up front).
func bodyReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apperr.New(apperr.TooLarge, "request body too large (limit %d bytes)", mbe.Limit)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return echo.NewHTTPError(http.StatusRequestTimeout, "the request body arrived too slowly")
	}
	return apperr.Invalidf("the request body could not be read")
}
