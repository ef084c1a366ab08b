// Package text is the one gate for text entering Hearth: names typed on the
// kiosk, notes, answers, imported titles, transcripts and model output.
//
// Why it exists: a carriage return in stored text reached the live SSE
// stream unchanged, and the Datastar client treats a lone "\r" as a line end,
// so a meal name could forge a stream event that runs script on every open
// screen. Control characters have no business in a household's text, so they
// are refused where a person typed them and dropped (and counted) where a
// file or a model produced them.
//
// Two modes:
//   - Line (names, titles, ids): every control character is refused.
//   - Multi (notes, answers, prompts): "\r\n" and a lone "\r" become "\n"
//     (browsers send textareas with CRLF); "\n" and "\t" stay; every other
//     C0 and C1 control character and DEL is refused.
//
// Invalid UTF-8 is refused by Check and replaced by Clean. U+2028 and U+2029
// are ordinary text.
package text

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Mode says which characters a field may hold.
type Mode int

const (
	// Line is a single-line field: no control characters at all.
	Line Mode = iota
	// Multi is a multi-line field: newlines (normalised) and tabs allowed.
	Multi
)

// Error says why text was refused; its message reads after a field name
// ("name contains a control character (U+001B)").
type Error struct {
	// Rune is the offending character; utf8.RuneError for invalid UTF-8.
	Rune rune
	// Offset is the byte offset of the problem in the input.
	Offset int
}

func (e *Error) Error() string {
	if e.Rune == utf8.RuneError {
		return "is not valid UTF-8 text"
	}
	if e.Rune == '\n' || e.Rune == '\r' {
		return "must be a single line"
	}
	return fmt.Sprintf("contains a control character (U+%04X)", e.Rune)
}

// control reports whether r is a C0 or C1 control character or DEL.
func control(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

// allowed reports whether a control character may stay in mode m (after
// "\r" has been normalised).
func allowed(m Mode, r rune) bool {
	return m == Multi && (r == '\n' || r == '\t')
}

// Check validates s for mode m and returns it normalised (for Multi, CRLF and
// lone CR become LF). It does not trim: callers decide about surrounding
// space. The error is an *Error.
func Check(m Mode, s string) (string, error) {
	if m == Multi {
		s = normaliseNewlines(s)
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return "", &Error{Rune: utf8.RuneError, Offset: i}
			}
		}
		if control(r) && !allowed(m, r) {
			return "", &Error{Rune: r, Offset: i}
		}
	}
	return s, nil
}

// Clean makes s fit mode m by dropping what it cannot use: control
// characters (for Line, newlines and tabs become a space so words stay
// apart) and invalid UTF-8 bytes. It returns the cleaned text and how many
// characters it dropped or replaced, for import reports.
func Clean(m Mode, s string) (string, int) {
	if m == Multi {
		s = normaliseNewlines(s)
	}
	if clean(m, s) {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	dropped := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			dropped++
		case control(r) && !allowed(m, r):
			dropped++
			if m == Line && (r == '\n' || r == '\r' || r == '\t') {
				b.WriteByte(' ')
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), dropped
}

// clean is the fast path: true when s needs no change for mode m.
func clean(m Mode, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c < 0x80 {
			if !allowed(m, rune(c)) {
				return false
			}
			continue
		}
		// Non-ASCII: decode the rune (C1 controls are U+0080–U+009F).
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || control(r) {
			return false
		}
		i += size - 1
	}
	return true
}

// normaliseNewlines turns "\r\n" and lone "\r" into "\n".
func normaliseNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// Field validates an optional form or JSON field: it trims surrounding
// space, checks it for mode m and caps its length in runes. On a problem it
// records a message in errs under field and returns "".
func Field(errs map[string]string, field string, m Mode, s string, maxRunes int) string {
	out, err := Check(m, strings.TrimSpace(s))
	if err != nil {
		setErr(errs, field, err.Error())
		return ""
	}
	if maxRunes > 0 && utf8.RuneCountInString(out) > maxRunes {
		setErr(errs, field, fmt.Sprintf("must be at most %d characters", maxRunes))
		return ""
	}
	return out
}

// Required is Field for a field that must not be empty.
func Required(errs map[string]string, field string, m Mode, s string, maxRunes int) string {
	out := Field(errs, field, m, s, maxRunes)
	if out == "" {
		setErr(errs, field, "is required")
	}
	return out
}

func setErr(errs map[string]string, field, msg string) {
	if _, dup := errs[field]; !dup {
		errs[field] = msg
	}
}

// WithoutCR returns b with every "\r" removed: the SSE writer's last line
// of defence (see package doc). b itself is returned when it has none;
// otherwise a copy, so a Write's caller keeps its buffer unchanged.
func WithoutCR(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != '\r' {
			out = append(out, c)
		}
	}
	return out
}
