package copilot

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"hearth/internal/agent"
)

func compileOutputSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, _ := json.Marshal(OutputSchema())
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://copilot.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://copilot.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// strictJSON is a reply as a strict-mode model sends it: every property,
// null where unused.
func strictJSON(r Reply) []byte {
	cmds := make([]any, len(r.Commands))
	for i, c := range r.Commands {
		m := map[string]any{"action": c.Action, "form": nil, "field": nil, "value": nil, "fields": nil, "to": nil, "text": nil}
		if c.Field != "" {
			m["field"] = c.Field
			m["value"] = string(c.Value)
		}
		if c.To != "" {
			m["to"] = c.To
		}
		if len(c.Fields) > 0 {
			fs := []any{}
			for _, f := range c.Fields {
				fs = append(fs, map[string]any{"field": f.Field, "value": string(f.Value)})
			}
			m["fields"] = fs
		}
		cmds[i] = m
	}
	raw, _ := json.Marshal(map[string]any{"message": r.Message, "commands": cmds, "needs_confirmation": r.NeedsConfirmation})
	return raw
}

func TestHeuristic(t *testing.T) {
	sch := compileOutputSchema(t)
	for _, tc := range []struct {
		form, ask string
		// want are field values after applying the reply to an empty form.
		want      map[string]string
		highlight string
		nav       string
		says      string
	}{
		{form: FormMember, ask: "add my daughter Ava, 8, metric",
			want:      map[string]string{"id": "ava", "name": "Ava", "unit": "kg", "sex": "female", "role": "child"},
			highlight: "birth_date", says: "not a birth date"},
		{form: FormMember, ask: "Add my husband Tom, imperial", want: map[string]string{"id": "tom", "name": "Tom", "unit": "lb", "sex": "male", "role": ""}},
		{form: FormMember, ask: "add a guest Sam", want: map[string]string{"name": "Sam", "role": "guest"}},
		{form: FormMember, ask: "add my son", says: "What is their name?"},
		{form: FormMember, ask: "add my son leo, 1900 kcal, protein 90", // 90 is protein, not an age
			want: map[string]string{"name": "Leo", "id": "leo", "calories": "1900", "protein_g": "90", "role": "child", "sex": "male"}},
		{form: FormMember, ask: "Add Mary Jane, 170 cm, goal weight 65.5, very active, metric",
			want: map[string]string{"name": "Mary Jane", "id": "mary-jane", "height_cm": "170", "goal_weight": "65.5", "activity_level": "very_active", "unit": "kg", "role": ""}},
		{form: FormTargets, ask: "set calories to 2000 and protein 150, 60 g fat", want: map[string]string{"calories": "2000", "protein_g": "150", "fat_g": "60"}, says: "press Save"},
		{form: FormPlex, ask: "connect Plex at http://plex.local:32400", want: map[string]string{"plex_url": "http://plex.local:32400"},
			highlight: "plex_token", says: "never handle tokens"},
		{form: FormPlex, ask: "connect plex", highlight: "plex_url", says: "address"},
		{form: FormMember, ask: "connect Plex at http://plex.local:32400", nav: "/admin/integrations"},
		{form: FormHomeAssistant, ask: "connect home assistant at https://ha.local:8123", want: map[string]string{"ha_url": "https://ha.local:8123"}, highlight: "ha_token"},
		{form: FormSchedule, ask: "every day at 7pm", want: map[string]string{"type": "recurring", "schedule": "0 19 * * *"}, highlight: "description"},
		{form: FormSchedule, ask: "weekdays at 6:30", want: map[string]string{"schedule": "30 6 * * 1-5"}, highlight: "description"},
		{form: FormMember, ask: "every day at 7pm", nav: "/admin/schedules", says: "0 19 * * *"},
		{form: FormMember, ask: "delete Ava", says: "cannot delete"},
		{form: FormTimeZone, ask: "set the time zone to America/Argentina/Buenos_Aires", want: map[string]string{"time_zone": "America/Argentina/Buenos_Aires"}},
		{form: FormTimeZone, ask: "change the timezone", highlight: "time_zone", says: "IANA"},
		{form: FormScreen, ask: "enrol the kitchen tablet", want: map[string]string{"name": "Kitchen tablet"}},
		{form: FormScreen, ask: "add a screen for the hallway", want: map[string]string{"name": "Hallway screen"}},
		{form: FormMember, ask: "set up the kitchen tablet", nav: "/admin/screens"},
		{form: FormNight, ask: "dim the screens from 10pm to 6:30am", want: map[string]string{"night_mode": "dim", "night_from": "22:00", "night_to": "06:30"}},
		{form: FormNight, ask: "black screens between 22:15 and 7", want: map[string]string{"night_mode": "blank", "night_from": "22:15", "night_to": "07:00"}},
		{form: FormNight, ask: "turn off night mode", want: map[string]string{"night_mode": "off"}},
		{form: FormMember, ask: "dim the screens at night", says: "on this page"},
		{form: FormMember, ask: "what's the weather?", says: "I cannot save"},
		{form: FormMember, ask: "", says: "Tell me what to set up"},
	} {
		r := Heuristic(tc.form, tc.ask, nil)
		if err := sch.Validate(mustDoc(t, strictJSON(r))); err != nil {
			t.Errorf("%q: the reply does not match the schema: %v", tc.ask, err)
		}
		s, f, _ := Clean(State{Form: tc.form})
		s, notes := Apply(s, f, r)
		for k, v := range tc.want {
			if s.Values[k] != v {
				t.Errorf("%q: %s = %q, want %q", tc.ask, k, s.Values[k], v)
			}
		}
		if s.Highlight != tc.highlight || s.Nav != tc.nav {
			t.Errorf("%q: highlight %q nav %q, want %q %q", tc.ask, s.Highlight, s.Nav, tc.highlight, tc.nav)
		}
		if text := notesText(notes); !strings.Contains(text, tc.says) || strings.Contains(text, "refused") {
			t.Errorf("%q: notes lack %q or refuse:\n%s", tc.ask, tc.says, text)
		}
	}
}

func mustDoc(t *testing.T, raw []byte) any {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestPromptRoundTrip(t *testing.T) {
	f, _ := FormByID(FormMember)
	msg := Prompt(f, map[string]string{"name": "Bo"}, "add my daughter Ava, 8, metric\nplease")
	form, ask := ParsePrompt(msg)
	if form != FormMember || ask != "add my daughter Ava, 8, metric\nplease" {
		t.Fatalf("%q %q from\n%s", form, ask, msg)
	}
	if form, ask := ParsePrompt("connect Plex"); form != "" || ask != "connect Plex" {
		t.Fatalf("plain message: %q %q", form, ask)
	}
}

// TestRespondKeepsIDsFree: the heuristic asks config_list_users and numbers
// a new member's id past the ones in use.
func TestRespondKeepsIDsFree(t *testing.T) {
	call := func(_ context.Context, name string, _ json.RawMessage) (any, error) {
		if name != "config_list_users" {
			t.Fatalf("unexpected tool %s", name)
		}
		return []UserSummary{{ID: "ava"}, {ID: "ava-2"}}, nil
	}
	f, _ := FormByID(FormMember)
	out, err := Respond(context.Background(), agent.ToolCaller(call), Prompt(f, nil, "add my daughter Ava, 8, metric"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Commands[0].Fields[0]; got.Field != "id" || got.Value != "ava-3" {
		t.Fatalf("id %+v", got)
	}
}

func TestValidateTool(t *testing.T) {
	v := validateForm(ValidateArgs{Form: FormMember, Values: []FieldValue{{"id", "Ava!"}, {"unit", "kg"}, {"x", "1"}}})
	if v.OK || len(v.Problems) != 3 { // id malformed, x unknown, name required
		t.Fatalf("%+v", v)
	}
	v = validateForm(ValidateArgs{Form: FormMember, Values: []FieldValue{{"id", "ava"}, {"name", "Ava"}}})
	if !v.OK {
		t.Fatalf("%+v", v)
	}
	if v := validateForm(ValidateArgs{Form: FormPlex, Values: []FieldValue{{"plex_url", "http://p:32400"}, {"plex_token", "t"}}}); v.OK {
		t.Fatal("a token was accepted as a proposal")
	}
}

// TestValidateEnumIsTheRegistry: config_validate's form enum names every
// registered form.
func TestValidateEnumIsTheRegistry(t *testing.T) {
	props := Tools(nil).Tools()[5].Parameters["properties"].(map[string]any)
	enum := props["form"].(map[string]any)["enum"]
	raw, _ := json.Marshal(enum)
	ids, _ := json.Marshal(FormIDs())
	var a, b []string
	_ = json.Unmarshal(raw, &a)
	_ = json.Unmarshal(ids, &b)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Fatalf("enum %v, registry %v", a, b)
	}
}
