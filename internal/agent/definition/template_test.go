package definition

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRenderTemplate(t *testing.T) {
	vars := map[string]any{
		"userName": "Ada",
		"days":     []any{"Mon", "Wed"},
		"extras":   map[string]any{"week": 4.0},
		"empty":    "",
		"nothing":  nil,
	}
	got, err := RenderTemplate("Hi {{userName}} ({{ userName }}), week {{extras.week}}: {{days}}|{{empty}}|{{nothing}}", vars)
	if err != nil {
		t.Fatal(err)
	}
	want := "Hi Ada (Ada), week 4: [\n  \"Mon\",\n  \"Wed\"\n]||"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestRenderTemplateReportsMissingVariables(t *testing.T) {
	got, err := RenderTemplate("{{a}} {{b}} {{a}} {{extras.x}} {{c.d}} ok", map[string]any{"b": "B", "c": "not an object", "extras": map[string]any{}})
	var me *MissingVariablesError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v, want *MissingVariablesError", err)
	}
	if !reflect.DeepEqual(me.Names, []string{"a", "extras.x", "c.d"}) {
		t.Fatalf("missing = %v", me.Names)
	}
	if !strings.Contains(err.Error(), "{{a}}, {{extras.x}}, {{c.d}}") {
		t.Fatalf("message = %q", err)
	}
	if got != " B    ok" {
		t.Fatalf("rendered = %q", got)
	}
}

func TestTemplateVariables(t *testing.T) {
	vars, err := TemplateVariables("{{message}} {{ member_profile }} {{extras.week}} {{message}} {not} {{input.a.b}}")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vars, []string{"message", "member_profile", "extras.week", "input.a.b"}) {
		t.Fatalf("vars = %v", vars)
	}
	for _, bad := range []string{"{{}}", "{{ a b }}", "{{.Field}}", "{{a..b}}", "{{if x}}"} {
		if _, err := TemplateVariables("x " + bad); err == nil || !strings.Contains(err.Error(), "malformed placeholder") {
			t.Errorf("%s: err = %v", bad, err)
		}
		if _, err := RenderTemplate(bad, nil); err == nil {
			t.Errorf("%s: rendered without error", bad)
		}
	}
}
