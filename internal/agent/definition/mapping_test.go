package definition

import (
	"reflect"
	"strings"
	"testing"
)

func mappingScope() MappingScope {
	return MappingScope{
		Result: map[string]any{
			"overview": "Three strength days",
			"days":     []any{map[string]any{"name": "Mon"}, map[string]any{"name": "Wed"}},
			"plan":     map[string]any{"week": map[string]any{"number": 4.0}},
		},
		User:        map[string]any{"name": "Ada", "profile": map[string]any{"goal": "strength"}},
		Extras:      map[string]any{"absoluteWeek": 7.0, "flags": []any{"deload"}},
		ParentInput: map[string]any{"question": "what next?"},
		Now:         "Saturday 14 February 2026, 09:00 (UTC)",
	}
}

func TestResolveInputEveryReferenceForm(t *testing.T) {
	s := mappingScope()
	mapping := map[string]any{
		"all":        "$result",
		"overview":   "$result.overview",
		"days":       "$result.days",
		"secondDay":  "$result.days.1.name",
		"week":       "$result.plan.week.number",
		"user":       "$user",
		"userName":   "$user.name",
		"goal":       "$user.profile.goal",
		"extras":     "$extras",
		"week2":      "$extras.absoluteWeek",
		"parent":     "$parentInput",
		"question":   "$parentInput.question",
		"now":        "$now",
		"literal":    "just text",
		"dollar":     "$$5 off",
		"number":     3,
		"flag":       true,
		"nothing":    nil,
		"nested":     map[string]any{"deep": map[string]any{"name": "$user.name", "fixed": "x"}},
		"list":       []any{"$result.overview", "literal", map[string]any{"w": "$extras.absoluteWeek"}},
		"goStrings":  []string{"$user.name", "y"},
		"goMapInner": map[string]string{"n": "$now"},
	}
	got, missing, err := ResolveInput(mapping, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 0 {
		t.Fatalf("missing = %v", missing)
	}
	want := map[string]any{
		"all":        s.Result,
		"overview":   "Three strength days",
		"days":       s.Result.(map[string]any)["days"],
		"secondDay":  "Wed",
		"week":       4.0,
		"user":       s.User,
		"userName":   "Ada",
		"goal":       "strength",
		"extras":     s.Extras,
		"week2":      7.0,
		"parent":     s.ParentInput,
		"question":   "what next?",
		"now":        s.Now,
		"literal":    "just text",
		"dollar":     "$5 off",
		"number":     3.0,
		"flag":       true,
		"nothing":    nil,
		"nested":     map[string]any{"deep": map[string]any{"name": "Ada", "fixed": "x"}},
		"list":       []any{"Three strength days", "literal", map[string]any{"w": 7.0}},
		"goStrings":  []any{"Ada", "y"},
		"goMapInner": map[string]any{"n": s.Now},
	}
	for k, w := range want {
		if !reflect.DeepEqual(got.(map[string]any)[k], w) {
			t.Errorf("%s = %#v, want %#v", k, got.(map[string]any)[k], w)
		}
	}
}

func TestResolveInputDefaultsToResultAndTopLevelRefs(t *testing.T) {
	s := mappingScope()
	got, _, err := ResolveInput(nil, s)
	if err != nil || !reflect.DeepEqual(got, s.Result) {
		t.Fatalf("nil mapping = %v, %v; want the parent's result", got, err)
	}
	got, _, err = ResolveInput("$result.overview", s)
	if err != nil || got != "Three strength days" {
		t.Fatalf("string mapping = %v, %v", got, err)
	}
	got, _, err = ResolveInput([]any{"$now", 1}, s)
	if err != nil || !reflect.DeepEqual(got, []any{s.Now, 1.0}) {
		t.Fatalf("array mapping = %v, %v", got, err)
	}
}

func TestResolveInputMissingPathsAreNullAndListed(t *testing.T) {
	s := mappingScope()
	got, missing, err := ResolveInput(map[string]any{
		"a": "$result.nope",
		"b": "$result.days.9.name",
		"c": "$user.profile.goal.deeper",
		"d": "$extras.absent",
		"e": "$result.overview",
	}, s)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	for _, k := range []string{"a", "b", "c", "d"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %#v (present %v), want null", k, v, ok)
		}
	}
	if m["e"] != "Three strength days" {
		t.Errorf("e = %v", m["e"])
	}
	want := []string{"$extras.absent", "$result.days.9.name", "$result.nope", "$user.profile.goal.deeper"}
	if !reflect.DeepEqual(missing, want) {
		t.Fatalf("missing = %v, want %v", missing, want)
	}
	// Missing against an empty scope (no result at all).
	_, missing, _ = ResolveInput("$parentInput.question", MappingScope{})
	if len(missing) != 1 {
		t.Fatalf("missing on empty scope = %v", missing)
	}
}

func TestResolveInputBadReferences(t *testing.T) {
	for ref, want := range map[string]string{
		"$results.x":   "unknown reference",
		"$":            "unknown reference",
		"$now.day":     "$now has no fields",
		"$result..a":   "segments",
		"$result.":     "ends with a dot",
		"$user.a b":    "segments",
		"$extra.weeks": "unknown reference",
	} {
		_, _, err := ResolveInput(map[string]any{"k": []any{ref}}, MappingScope{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", ref, err, want)
		}
		if checkMapping(map[string]any{"k": ref}) == nil {
			t.Errorf("%q: checkMapping accepted it", ref)
		}
	}
}
