package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"hearth/internal/apperr"
)

// File is a catalog file: the unit of import.
//
// Format (JSON, UTF-8, at most MaxFileSize bytes; unknown fields are errors):
//
//	{
//	  "items": [
//	    {
//	      "id": "local:ember-core-01",       // required: "local:<name>" or "plex:<ratingKey>", unique, ≤ 100 chars, no spaces
//	      "title": "Core Ignite",            // required, ≤ 200 chars
//	      "program": "ember-core-30",        // optional program id ([a-z0-9-], ≤ 64)
//	      "day": 1,                          // optional episode/day number within the program, ≥ 0
//	      "duration": 20,                    // required minutes, 1..600
//	      "kind": "core",                    // required, one of Kinds()
//	      "thumbnail": "/static/thumbs/core.svg", // optional: /path or http(s) URL
//	      "play_url": "/content/local:ember-core-01", // optional: /path or http(s) URL
//	      "tags": ["abs", "no-equipment"],   // optional, ≤ 20 tags of ≤ 40 chars
//	      "summary": "…"                     // optional, ≤ 2000 chars
//	    }
//	  ],
//	  "programs": [
//	    {
//	      "id": "ember-core-30",             // required [a-z0-9-], ≤ 64, unique
//	      "title": "Ember Core 30",          // required
//	      "description": "…",                // optional
//	      "days": [                          // required: days numbered 1..N, each exactly once
//	        {"day": 1, "content_id": "local:ember-core-01", "note": "Easy start"},
//	        {"day": 2, "rest": true}         // a rest day has no content_id
//	      ]
//	    }
//	  ]
//	}
//
// A training day's content_id must name an item in the same file or already
// in the catalog. "source" may appear but is overwritten by the importer.
// Import is all-or-nothing and upserts by id, so importing a file twice
// changes nothing the second time.
type File struct {
	Items    []Item    `json:"items"`
	Programs []Program `json:"programs"`
	// charsDropped counts what validation cleaned out of the text.
	charsDropped int
}

// MaxFileSize bounds a catalog file (8 MiB).
const MaxFileSize = 8 << 20

// maxProblems caps how many problems one error lists.
const maxProblems = 20

// ParseCatalog decodes and validates a catalog file on its own (syntax,
// unknown fields, ids, kinds, durations, schedules). Strings are trimmed and
// kinds lower-cased. Program days may name items outside the file; see
// ExternalRefs. Errors are apperr.Invalid naming the JSON position or the
// offending item index.
func ParseCatalog(data []byte) (File, error) {
	var f File
	if len(data) > MaxFileSize {
		return f, apperr.New(apperr.TooLarge, "catalog file is larger than %d MiB", MaxFileSize>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return File{}, decodeError(data, dec, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		line, col := position(data, int(dec.InputOffset()))
		return File{}, apperr.Invalidf("catalog file: unexpected data after the catalog object at line %d, column %d", line, col)
	}
	if err := f.validate(); err != nil {
		return File{}, err
	}
	return f, nil
}

func decodeError(data []byte, dec *json.Decoder, err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syn):
		line, col := position(data, int(syn.Offset)-1) // Offset is just past the bad byte
		return &apperr.Error{Code: apperr.Invalid, Err: err, Message: fmt.Sprintf(
			"catalog file is not valid JSON at line %d, column %d (offset %d): %s", line, col, syn.Offset, syn.Error())}
	case errors.As(err, &typ):
		line, col := position(data, int(typ.Offset)-1)
		field := typ.Field
		if field == "" {
			field = "the top level (want an object with \"items\" and \"programs\")"
		}
		return &apperr.Error{Code: apperr.Invalid, Err: err, Message: fmt.Sprintf(
			"catalog file: wrong type at line %d, column %d (offset %d): %s has a JSON %s, want %s",
			line, col, typ.Offset, field, typ.Value, typeName(typ.Type.Kind().String()))}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &apperr.Error{Code: apperr.Invalid, Err: err, Message: "catalog file is empty or ends early"}
	default:
		off := int(dec.InputOffset())
		line, col := position(data, off)
		msg := strings.TrimPrefix(err.Error(), "json: ")
		return &apperr.Error{Code: apperr.Invalid, Err: err, Message: fmt.Sprintf(
			"catalog file: %s near line %d, column %d (offset %d)", msg, line, col, off)}
	}
}

func typeName(kind string) string {
	switch kind {
	case "int", "int64":
		return "a whole number"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return "a " + kind
}

// position converts a byte offset to a 1-based line and column.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = off - bytes.LastIndexByte(before, '\n')
	return line, col
}

// ExternalRefs lists content ids that program days name but the file's items
// do not define, in first-use order without repeats.
func (f File) ExternalRefs() []string {
	own := make(map[string]bool, len(f.Items))
	for _, it := range f.Items {
		own[it.ID] = true
	}
	var refs []string
	seen := map[string]bool{}
	for _, p := range f.Programs {
		for _, d := range p.Days {
			if d.ContentID != "" && !own[d.ContentID] && !seen[d.ContentID] {
				seen[d.ContentID] = true
				refs = append(refs, d.ContentID)
			}
		}
	}
	return refs
}
