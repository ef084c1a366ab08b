package definition

import (
	"encoding/json"
	"strings"
	"testing"
)

func rule(path, op, value string) Rule {
	r := Rule{Path: path, Op: op}
	if value != "" {
		r.Value = json.RawMessage(value)
	}
	return r
}

func TestRulesEveryOp(t *testing.T) {
	var result any
	if err := json.Unmarshal([]byte(`{
		"validation": {"isValid": true, "score": 3},
		"title": "Plan", "blank": "  ", "zero": 0, "no": false, "none": null,
		"days": ["Mon", "Wed", "Fri"], "empty": [], "holes": ["a", "", "c"], "objs": [{"a":1}, {}],
		"obj": {"k": 1}, "emptyObj": {}, "name": "Zoë"
	}`), &result); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		r    Rule
		pass bool
	}{
		{rule("validation.isValid", OpEquals, "true"), true},
		{rule("validation.isValid", OpEquals, "false"), false},
		{rule("validation.score", OpEquals, "3"), true},
		{rule("validation.score", OpEquals, `"3"`), false},
		{rule("days", OpEquals, `["Mon","Wed","Fri"]`), true},
		{rule("obj", OpEquals, `{"k":1}`), true},
		{rule("none", OpEquals, "null"), true},
		{rule("missing", OpEquals, "null"), true},
		{rule("title", OpEquals, `"Plan"`), true},

		{rule("title", OpTruthy, ""), true},
		{rule("empty", OpTruthy, ""), true},
		{rule("emptyObj", OpTruthy, ""), true},
		{rule("zero", OpTruthy, ""), false},
		{rule("no", OpTruthy, ""), false},
		{rule("none", OpTruthy, ""), false},
		{rule("missing", OpTruthy, ""), false},
		{rule("days.0", OpTruthy, ""), true},

		{rule("days", OpNonEmpty, ""), true},
		{rule("empty", OpNonEmpty, ""), false},
		{rule("obj", OpNonEmpty, ""), true},
		{rule("emptyObj", OpNonEmpty, ""), false},
		{rule("title", OpNonEmpty, ""), true},
		{rule("blank", OpNonEmpty, ""), false},
		{rule("validation.score", OpNonEmpty, ""), true},
		{rule("missing", OpNonEmpty, ""), false},

		{rule("days", OpAllNonEmpty, ""), true},
		{rule("holes", OpAllNonEmpty, ""), false},
		{rule("objs", OpAllNonEmpty, ""), false},
		{rule("empty", OpAllNonEmpty, ""), true},
		{rule("title", OpAllNonEmpty, ""), false},
		{rule("missing", OpAllNonEmpty, ""), false},

		{rule("days", OpLength, "3"), true},
		{rule("days", OpLength, "2"), false},
		{rule("empty", OpLength, "0"), true},
		{rule("name", OpLength, "3"), true},
		{rule("obj", OpLength, "1"), false},
		{rule("missing", OpLength, "0"), false},
	}
	for _, c := range cases {
		if err := c.r.Check(); err != nil {
			t.Errorf("%+v: Check: %v", c.r, err)
		}
		if got := c.r.Passes(result); got != c.pass {
			t.Errorf("%s %s %s: passes = %v, want %v", c.r.Path, c.r.Op, c.r.Value, got, c.pass)
		}
	}
	// The whole result: "" path, e.g. a free-text reply.
	if !rule("", OpNonEmpty, "").Passes("hello") || rule("", OpNonEmpty, "").Passes("   ") {
		t.Error("nonEmpty on a text result")
	}
}

func TestEvaluateReportsRuleMessages(t *testing.T) {
	rules := []Rule{
		{Path: "validation.isValid", Op: OpEquals, Value: json.RawMessage("true"), Message: "Workout structure failed validation"},
		{Path: "days", Op: OpLength, Value: json.RawMessage("7")},
		{Path: "title", Op: OpTruthy},
	}
	errs := Evaluate(rules, map[string]any{"validation": map[string]any{"isValid": false}, "days": []any{1.0}, "title": "ok"})
	if len(errs) != 2 {
		t.Fatalf("errs = %v", errs)
	}
	if errs[0].Path != "/validation/isValid" || errs[0].Message != "Workout structure failed validation" {
		t.Errorf("first = %+v", errs[0])
	}
	if errs[1].Path != "/days" || errs[1].Message != `"days" must have exactly 7 elements` {
		t.Errorf("second = %+v", errs[1])
	}
}

func TestRuleCheckRefusesMalformedRules(t *testing.T) {
	for _, c := range []struct {
		r    Rule
		want string
	}{
		{Rule{Path: "a", Op: "contains"}, "unknown op"},
		{Rule{Path: "a"}, "no op"},
		{Rule{Path: "a", Op: OpEquals}, "needs a value"},
		{Rule{Path: "a", Op: OpEquals, Value: json.RawMessage("{bad")}, "not JSON"},
		{Rule{Path: "a", Op: OpLength}, "whole number"},
		{Rule{Path: "a", Op: OpLength, Value: json.RawMessage("-1")}, "whole number"},
		{Rule{Path: "a", Op: OpLength, Value: json.RawMessage("1.5")}, "whole number"},
		{Rule{Path: "a", Op: OpLength, Value: json.RawMessage(`"3"`)}, "whole number"},
		{Rule{Path: "a", Op: OpTruthy, Value: json.RawMessage("true")}, "takes no value"},
		{Rule{Path: "a..b", Op: OpTruthy}, "segments"},
		{Rule{Path: ".a", Op: OpNonEmpty}, "segments"},
	} {
		err := c.r.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.r, err, c.want)
		}
	}
	if err := checkRules([]Rule{{Path: "a", Op: OpTruthy}, {Path: "b", Op: "x"}}); err == nil || !strings.Contains(err.Error(), "rule 2") {
		t.Fatalf("checkRules = %v", err)
	}
}
