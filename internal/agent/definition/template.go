package definition

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var (
	placeholder = regexp.MustCompile(`\{\{(.*?)\}\}`)
	varName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*$`)
)

// TemplateVariables lists the distinct {{variable}} names of a template in
// order of first use; a placeholder that is not a (dotted) name is an error.
func TemplateVariables(tmpl string) ([]string, error) {
	var out, bad []string
	for _, m := range placeholder.FindAllStringSubmatch(tmpl, -1) {
		name := strings.TrimSpace(m[1])
		if !varName.MatchString(name) {
			bad = append(bad, m[0])
			continue
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("malformed placeholder %s: use {{name}} or {{name.path}}", strings.Join(bad, ", "))
	}
	return out, nil
}

// MissingVariablesError lists template variables that had no value.
type MissingVariablesError struct {
	Names []string
}

// Error lists the missing variables as placeholders.
func (e *MissingVariablesError) Error() string {
	return "template: no value for " + strings.Join(wrapVars(e.Names), ", ")
}

func wrapVars(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "{{" + n + "}}"
	}
	return out
}

// RenderTemplate replaces each {{name}} (or {{name.path}}) with its value
// from vars (see Lookup; strings as they are, other values as JSON). Every
// variable without a value is reported in a *MissingVariablesError; the
// text is rendered anyway, with those placeholders left empty.
func RenderTemplate(tmpl string, vars map[string]any) (string, error) {
	if _, err := TemplateVariables(tmpl); err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	var missing []string
	out := placeholder.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := strings.TrimSpace(m[2 : len(m)-2])
		v, ok := Lookup(map[string]any(vars), name)
		if !ok {
			if !slices.Contains(missing, name) {
				missing = append(missing, name)
			}
			return ""
		}
		return text(v)
	})
	if len(missing) > 0 {
		return out, &MissingVariablesError{Names: missing}
	}
	return out, nil
}
