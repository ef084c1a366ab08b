package definition

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"

	"hearth/internal/agent"
)

// Check reports whether the rule is well formed: a known op, a valid path,
// a value for equals (any JSON) and length (a whole number ≥ 0), and no
// value for the other ops.
func (r Rule) Check() error {
	if err := checkPath(r.Path); err != nil {
		return err
	}
	has := len(r.Value) > 0
	switch r.Op {
	case OpEquals:
		if !has {
			return fmt.Errorf("equals on %q needs a value", r.Path)
		}
		if !json.Valid(r.Value) {
			return fmt.Errorf("equals on %q: the value is not JSON", r.Path)
		}
	case OpLength:
		if _, err := r.wantLength(); err != nil {
			return err
		}
	case OpTruthy, OpNonEmpty, OpAllNonEmpty:
		if has {
			return fmt.Errorf("%s on %q takes no value", r.Op, r.Path)
		}
	case "":
		return fmt.Errorf("rule on %q has no op (equals, truthy, nonEmpty, allNonEmpty or length)", r.Path)
	default:
		return fmt.Errorf("unknown op %q (equals, truthy, nonEmpty, allNonEmpty or length)", r.Op)
	}
	return nil
}

func (r Rule) wantLength() (int, error) {
	var n float64
	if len(r.Value) == 0 || json.Unmarshal(r.Value, &n) != nil || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
		return 0, fmt.Errorf("length on %q needs a whole number ≥ 0 as its value", r.Path)
	}
	return int(n), nil
}

// Passes evaluates the rule on a JSON-shaped result (see Lookup). A path
// that does not exist is null: it fails every op but equals null.
func (r Rule) Passes(result any) bool {
	v, _ := Lookup(result, r.Path)
	switch r.Op {
	case OpEquals:
		var want any
		if err := json.Unmarshal(r.Value, &want); err != nil {
			return false
		}
		return reflect.DeepEqual(v, want)
	case OpTruthy:
		return truthy(v)
	case OpNonEmpty:
		return nonEmpty(v)
	case OpAllNonEmpty:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if !nonEmpty(e) {
				return false
			}
		}
		return true
	case OpLength:
		n, err := r.wantLength()
		if err != nil {
			return false
		}
		switch x := v.(type) {
		case []any:
			return len(x) == n
		case string:
			return utf8.RuneCountInString(x) == n
		}
	}
	return false
}

// Failure is the rule's message, or a generated one.
func (r Rule) Failure() string {
	if strings.TrimSpace(r.Message) != "" {
		return r.Message
	}
	what := fmt.Sprintf("%q", r.Path)
	if r.Path == "" {
		what = "the result"
	}
	switch r.Op {
	case OpEquals:
		return fmt.Sprintf("%s must equal %s", what, r.Value)
	case OpTruthy:
		return what + " must be set"
	case OpNonEmpty:
		return what + " must not be empty"
	case OpAllNonEmpty:
		return "every element of " + what + " must be non-empty"
	case OpLength:
		n, _ := r.wantLength()
		return fmt.Sprintf("%s must have exactly %d elements", what, n)
	}
	return what + " failed " + r.Op
}

// Evaluate checks every rule against result and returns the failures as
// validation errors (path "/a/b", the rule's message), in rule order.
func Evaluate(rules []Rule, result any) []agent.ValidationError {
	var out []agent.ValidationError
	for _, r := range rules {
		if r.Passes(result) {
			continue
		}
		out = append(out, agent.ValidationError{Path: "/" + strings.ReplaceAll(r.Path, ".", "/"), Message: r.Failure()})
	}
	return out
}

// checkRules validates a list of rules, naming the first bad one.
func checkRules(rules []Rule) error {
	var errs []error
	for i, r := range rules {
		if err := r.Check(); err != nil {
			errs = append(errs, fmt.Errorf("rule %d: %w", i+1, err))
		}
	}
	return errors.Join(errs...)
}
