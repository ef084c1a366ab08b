package definition

import (
	"fmt"
	"slices"
	"strings"
)

// MappingScope is what the references of an input mapping resolve against.
type MappingScope struct {
	// Result is the parent's result so far: an object output plus the keys
	// of earlier batches, any other output as it is.
	Result any
	// User is the member's data (Invoker's MemberData).
	User any
	// Extras are the invoke's extras.
	Extras any
	// ParentInput is the input the parent agent received: the user message
	// it was sent (the invoked agent) or its mapped input (a sub-agent).
	ParentInput any
	// Now is the current date and time, formatted for a model.
	Now string
}

// reference roots of input mappings.
var refRoots = []string{"result", "user", "extras", "parentInput", "now"}

// parseRef splits "$root.a.b" into root and path; ok is false for literals.
// A "$$" prefix escapes a literal dollar.
func parseRef(s string) (root, path string, ok bool, err error) {
	if !strings.HasPrefix(s, "$") || strings.HasPrefix(s, "$$") {
		return "", "", false, nil
	}
	root, path, _ = strings.Cut(s[1:], ".")
	if !slices.Contains(refRoots, root) {
		return "", "", true, fmt.Errorf("unknown reference %q: use $result, $user, $extras, $parentInput or $now (write $$ for a literal $)", s)
	}
	if root == "now" && path != "" {
		return "", "", true, fmt.Errorf("reference %q: $now has no fields", s)
	}
	if strings.HasSuffix(s, ".") {
		return "", "", true, fmt.Errorf("reference %q ends with a dot", s)
	}
	if err := checkPath(path); err != nil {
		return "", "", true, fmt.Errorf("reference %q: %w", s, err)
	}
	return root, path, true, nil
}

// ResolveInput resolves an input mapping (nil means "$result"): reference
// strings are replaced by what they point to, other values are literals,
// objects and arrays are resolved element by element. References whose path
// does not exist resolve to null and are listed in missing.
func ResolveInput(mapping any, s MappingScope) (value any, missing []string, err error) {
	if mapping == nil {
		mapping = "$result"
	}
	m, err := jsonValue(mapping)
	if err != nil {
		return nil, nil, fmt.Errorf("input mapping: %w", err)
	}
	v, err := resolve(m, s, &missing)
	slices.Sort(missing)
	return v, missing, err
}

func resolve(m any, s MappingScope, missing *[]string) (any, error) {
	switch x := m.(type) {
	case string:
		root, path, ok, err := parseRef(x)
		if err != nil {
			return nil, err
		}
		if !ok {
			return strings.TrimPrefix(x, "$"), nil
		}
		var base any
		switch root {
		case "result":
			base = s.Result
		case "user":
			base = s.User
		case "extras":
			base = s.Extras
		case "parentInput":
			base = s.ParentInput
		case "now":
			return s.Now, nil
		}
		v, found := Lookup(base, path)
		if !found {
			*missing = append(*missing, x)
			return nil, nil
		}
		return v, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			v, err := resolve(e, s, missing)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = v
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			v, err := resolve(e, s, missing)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = v
		}
		return out, nil
	}
	return m, nil
}

// checkMapping reports malformed references in a mapping, for saving.
func checkMapping(mapping any) error {
	_, _, err := ResolveInput(mapping, MappingScope{})
	return err
}
