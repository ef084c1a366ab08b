// Package apperr carries the kind of a failure across layers so the web layer
// can map it to a status once, without services importing HTTP.
package apperr

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Code classifies an error for callers; the zero value is Internal.
type Code string

// Error codes, mapped to HTTP statuses in package web.
const (
	Internal     Code = "internal"
	Invalid      Code = "invalid"
	NotFound     Code = "not_found"
	Conflict     Code = "conflict"
	Unauthorized Code = "unauthorized"
	TooLarge     Code = "too_large"
	// Unavailable: a part Hearth depends on (the coach's run) could not do
	// it now; trying again later may work. The message is shown.
	Unavailable Code = "unavailable"
	// NoSpace: the disk is full; nothing was saved.
	NoSpace Code = "no_space"
	// TooMany: the client sent too much too fast (failed logins, open
	// streams, uploads over a quota); it may try again later.
	TooMany Code = "too_many"
	// Implausible: a figure far from what is plausible (a weight far from
	// the member's trend, a 6,000 kcal meal); sent again with a
	// confirmation it is stored. The message says what looks wrong.
	Implausible Code = "implausible"
	// KeyReused: a request id (Idempotency-Key) sent again with another
	// request, for another resource or with another body; never replayed
	// (422, as the IETF Idempotency-Key draft answers a reused key).
	KeyReused Code = "key_reused"
)

// Error is an application error with a user-safe message and optional
// per-field messages for forms and JSON bodies.
type Error struct {
	Code    Code
	Message string
	Fields  map[string]string
	Err     error // underlying cause, never shown to users
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Sentence is e as one line for a page that shows it above a form: an
// Invalid error's field messages ("reason is required; to must be …", by
// field name), else the message, capitalised and ending with a period.
func (e *Error) Sentence() string {
	msg := e.Message
	if e.Code == Invalid && len(e.Fields) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
			parts = append(parts, k+" "+e.Fields[k])
		}
		msg = strings.Join(parts, "; ")
	}
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + strings.TrimSuffix(msg[1:], ".") + "."
}

// New returns an error of the given code with a user-safe message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns an Invalid error.
func Invalidf(format string, args ...any) *Error { return New(Invalid, format, args...) }

// NotFoundf returns a NotFound error.
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Fields returns an Invalid error listing per-field problems.
func FieldErrors(fields map[string]string) *Error {
	return &Error{Code: Invalid, Message: "invalid input", Fields: fields}
}

// A Translator recognises a lower layer's errors (SQLite's "disk full",
// "database is busy") and says what they mean to a user; nil when it does
// not know err.
type Translator func(err error) *Error

var translators []Translator

// RegisterTranslator adds t to the translators As consults. Packages that
// own a kind of error register one from init (internal/store does), so the
// layers above map it without importing the package that produced it.
func RegisterTranslator(t Translator) { translators = append(translators, t) }

// As returns err's application error: the *Error it wraps, else what a
// registered translator makes of it, else nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	for _, t := range translators {
		if e := t(err); e != nil {
			return e
		}
	}
	return nil
}

// CodeOf reports the code of err, Internal when it carries none.
func CodeOf(err error) Code {
	if e := As(err); e != nil {
		return e.Code
	}
	return Internal
}

// Is reports whether err carries the given code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }
