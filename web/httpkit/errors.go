package httpkit

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
)

var codeStatus = map[apperr.Code]int{
	apperr.Invalid:      http.StatusBadRequest,
	apperr.NotFound:     http.StatusNotFound,
	apperr.Conflict:     http.StatusConflict,
	apperr.Unauthorized: http.StatusUnauthorized,
	apperr.TooLarge:     http.StatusRequestEntityTooLarge,
	apperr.Unavailable:  http.StatusServiceUnavailable,
	apperr.NoSpace:      http.StatusInsufficientStorage,
	apperr.TooMany:      http.StatusTooManyRequests,
	apperr.Implausible:  http.StatusUnprocessableEntity,
	apperr.KeyReused:    http.StatusUnprocessableEntity,
	apperr.Internal:     http.StatusInternalServerError,
}

// ErrorBody is the JSON shape of every API error.
type ErrorBody struct {
	Error string `json:"error"`
	// Code is the apperr code of the failure ("implausible": send again
	// with "confirm": true to store it anyway).
	Code     string            `json:"code,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
	Fallback string            `json:"fallback,omitempty"`
}

// Classify turns any error into a status and a user-safe body; internal
// details never reach the client.
func Classify(err error) (int, ErrorBody) {
	var he *echo.HTTPError
	ae := apperr.As(err) // SQLite's disk-full and busy errors arrive translated
	switch {
	case ae != nil:
		code := codeStatus[ae.Code]
		if code == 0 || code == http.StatusInternalServerError {
			return 500, ErrorBody{Error: "internal error", Code: string(apperr.Internal)}
		}
		return code, ErrorBody{Error: ae.Message, Code: string(ae.Code), Fields: ae.Fields}
	case errors.As(err, &he):
		msg := http.StatusText(he.Code)
		if m, ok := he.Message.(string); ok && he.Code < 500 {
			msg = m
		}
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = "request body too large"
		}
		return he.Code, ErrorBody{Error: msg}
	}
	return 500, ErrorBody{Error: "internal error", Code: string(apperr.Internal)}
}

// FieldList is a field-error map as one line ("weight must be …; when …").
func FieldList(fields map[string]string) string {
	var b strings.Builder
	for k, v := range fields {
		fmt.Fprintf(&b, "%s %s; ", k, v)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// Status is the HTTP status of an apperr code (0 for an unknown code).
func Status(code apperr.Code) int { return codeStatus[code] }
