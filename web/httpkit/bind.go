package httpkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
)

// MaxJSONBody is the size limit for JSON request bodies.
const MaxJSONBody = 1 << 20

// BindJSON decodes a size-limited JSON object into v, rejecting unknown
// fields, wrong types and trailing data with a message that names the problem.
func BindJSON(c echo.Context, v any) error {
	r := c.Request()
	if ct := r.Header.Get(echo.HeaderContentType); ct != "" && !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return apperr.Invalidf("content type must be application/json")
	}
	body := http.MaxBytesReader(c.Response(), r.Body, MaxJSONBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return JSONError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return JSONError(err)
		}
		return apperr.Invalidf("malformed JSON: unexpected data after the object")
	}
	return nil
}

// JSONError names what is wrong with a JSON body a decoder refused.
func JSONError(err error) error {
	var mbe *http.MaxBytesError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return apperr.New(apperr.TooLarge, "request body too large (limit %d bytes)", mbe.Limit)
	case errors.Is(err, io.EOF):
		return apperr.Invalidf("malformed JSON: empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.Invalidf("malformed JSON: unexpected end of input")
	case errors.As(err, &se):
		return apperr.Invalidf("malformed JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return apperr.Invalidf("malformed JSON: expected an object")
		}
		return apperr.FieldErrors(map[string]string{field: fmt.Sprintf("must be a %s", jsonKind(te.Type.Kind().String()))})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return apperr.Invalidf("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return apperr.Invalidf("malformed JSON")
}

func jsonKind(k string) string {
	switch k {
	case "float64", "float32", "int", "int64", "int32":
		return "number"
	case "ptr":
		return "value of the right type"
	}
	return k
}

// OptTime parses an optional RFC 3339 field; absent or "" means now (the
// zero time). An explicit zero time (0001-01-01T00:00:00Z) or a year before
// 1900 is refused, not taken for "now".
func OptTime(s *string, field string, errs map[string]string) time.Time {
	if s == nil || *s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, *s)
	switch {
	case err != nil:
		errs[field] = "must be an RFC 3339 time like 2026-02-14T07:30:00Z"
	case t.Year() < 1900:
		errs[field] = "must be a real time (the year is before 1900)"
		t = time.Time{}
	}
	return t
}
