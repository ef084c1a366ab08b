package definition

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// segment is one part of a dot path: a key or an array index.
var segment = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// checkPath reports a malformed dot path ("" is the whole value).
func checkPath(path string) error {
	if path == "" {
		return nil
	}
	for _, s := range strings.Split(path, ".") {
		if !segment.MatchString(s) {
			return fmt.Errorf("path %q: segments are letters, digits, _ or -, separated by single dots", path)
		}
	}
	return nil
}

// Lookup returns the value at a dot path in a JSON-shaped value (maps with
// string keys, slices of any); numeric segments index arrays. ok is false
// when the path does not exist.
func Lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, s := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[s]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonValue turns any marshalable Go value into its JSON shape (maps,
// slices, float64, string, bool, nil), so lookups and comparisons see one
// representation whatever the caller passed in.
func jsonValue(v any) (any, error) {
	switch v.(type) {
	case nil, string, bool, float64:
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// truthy is JavaScript's truthiness on JSON values: null, false, 0 and ""
// are false; everything else (including empty arrays and objects) is true.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	}
	return true
}

// nonEmpty is "has content": arrays and objects with elements, strings with
// non-blank text, any other truthy value.
func nonEmpty(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case string:
		return strings.TrimSpace(x) != ""
	}
	return truthy(v)
}

// text renders a value for a prompt or a hook: strings as they are, null as
// "", anything else as indented JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
