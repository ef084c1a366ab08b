package copilot

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzApplyReply: whatever a model answers, Decode and Apply never panic,
// never give the form a field it does not have or a token, and every value
// they set is one line the field accepts.
func FuzzApplyReply(f *testing.F) {
	for _, s := range []string{
		`{"message":"hi","commands":[{"action":"set_field","field":"name","value":"Ava"}],"needs_confirmation":false}`,
		`{"message":"","commands":[{"action":"set_fields","fields":[{"field":"unit","value":"kg"},{"field":"x","value":1}]}]}`,
		`{"commands":[{"action":"request_confirmation","text":"ok?"},{"action":"clear_field","field":"id"}],"needs_confirmation":true}`,
		`{"commands":[{"action":"navigate","to":"schedule"},{"action":"validate"},{"action":"highlight_field","field":"plex_token"}]}`,
		`{"commands":[{"action":"set_field","field":"calories","value":1e309}]}`,
		`{"message":"<b>@post('/x')</b>\n\nevent: x","commands":null}`,
	} {
		f.Add(s, "member")
	}
	f.Fuzz(func(t *testing.T, raw, form string) {
		r, err := Decode(raw)
		if err != nil {
			return
		}
		s, fm, err := Clean(State{Form: form})
		if err != nil {
			fm, _ = FormByID(FormMember)
			s, _, _ = Clean(State{Form: FormMember})
		}
		s, notes := Apply(s, fm, r)
		if len(s.Pending) > 0 {
			s, _ = Resume(s, fm, true)
		}
		for k, v := range s.Values {
			fd, ok := fm.Field(k)
			if !ok || fd.Kind == Secret {
				t.Fatalf("the form got %q", k)
			}
			if v != "" && fd.CheckValue(v) != "" {
				t.Fatalf("%s = %q: %s", k, v, fd.CheckValue(v))
			}
			if strings.IndexFunc(v, unicode.IsControl) >= 0 {
				t.Fatalf("%s holds a control character: %q", k, v)
			}
		}
		if s.Nav != "" {
			if p, _ := navOf(s.Nav); p == "" {
				t.Fatalf("a link outside the registry: %q", s.Nav)
			}
		}
		for _, n := range notes {
			if len([]rune(n.Text)) > MaxMessageLen+200 {
				t.Fatalf("a note of %d characters", len(n.Text))
			}
		}
	})
}

// FuzzHeuristic: for any words on any form, the heuristic's reply applies
// without a refusal (it proposes only what the form takes).
func FuzzHeuristic(f *testing.F) {
	for _, s := range []string{"add my daughter Ava, 8, metric", "connect Plex at http://plex.local:32400",
		"every day at 7pm", "dim the screens from 10pm to 6:30am", "enrol the kitchen tablet", "set calories to 2000"} {
		for _, form := range FormIDs() {
			f.Add(form, s)
		}
	}
	f.Fuzz(func(t *testing.T, form, ask string) {
		fm, ok := FormByID(form)
		if !ok {
			return
		}
		s, _, _ := Clean(State{Form: form})
		_, notes := Apply(s, fm, Heuristic(form, ask, nil))
		for _, n := range notes {
			if n.Kind == NoteRefused {
				t.Fatalf("%s: %q: %s", form, ask, n.Text)
			}
		}
	})
}
