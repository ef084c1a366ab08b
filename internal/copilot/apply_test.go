package copilot

import (
	"encoding/json"
	"strings"
	"testing"
)

func memberState(t *testing.T) (State, Form) {
	t.Helper()
	s, f, err := Clean(State{Form: FormMember})
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

func notesText(ns []Note) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.Kind + ": " + n.Text + "\n")
	}
	return b.String()
}

func TestApplyUndoRedo(t *testing.T) {
	s, f := memberState(t)
	s, notes := Apply(s, f, Heuristic(FormMember, "add my daughter Ava, 8, metric", nil))
	want := map[string]string{"id": "ava", "name": "Ava", "unit": "kg", "sex": "female", "role": "child"}
	for k, v := range want {
		if s.Values[k] != v {
			t.Errorf("%s = %q, want %q (notes:\n%s)", k, s.Values[k], v, notesText(notes))
		}
	}
	if s.Highlight != "birth_date" || len(s.Undo) != 1 || len(s.Redo) != 0 {
		t.Fatalf("highlight %q, undo %d, redo %d", s.Highlight, len(s.Undo), len(s.Redo))
	}
	s, ok := Undo(s)
	if !ok || s.Values["name"] != "" || s.Values["id"] != "" || len(s.Redo) != 1 {
		t.Fatalf("after undo: %v, %+v", ok, s)
	}
	if _, ok := Undo(s); ok {
		t.Fatal("a second undo had something to undo")
	}
	s, ok = Redo(s)
	if !ok || s.Values["name"] != "Ava" || len(s.Undo) != 1 || len(s.Redo) != 0 {
		t.Fatalf("after redo: %v, %+v", ok, s)
	}
	// A new change clears the redo stack.
	s, _ = Undo(s)
	s, _ = Apply(s, f, Reply{Commands: []Command{{Action: SetField, Field: "name", Value: "Bo"}}})
	if len(s.Redo) != 0 || s.Values["name"] != "Bo" {
		t.Fatalf("a change after undo: %+v", s)
	}
}

func TestApplyRefuses(t *testing.T) {
	s, f := memberState(t)
	s, notes := Apply(s, f, Reply{Message: "ok", Commands: []Command{
		{Action: SetField, Field: "nickname", Value: "x"},                     // unknown field
		{Action: SetField, Form: "garage", Field: "name", Value: "x"},         // unknown form
		{Action: SetField, Form: FormPlex, Field: "plex_url", Value: "x"},     // not the open form
		{Action: "drop_table", Field: "name"},                                 // unknown action
		{Action: SetField, Field: "unit", Value: "stone"},                     // not an option
		{Action: SetField, Field: "calories", Value: "lots"},                  // not a number
		{Action: SetField, Field: "name", Value: "a\nb"},                      // not one line
		{Action: SetFields, Fields: []FieldValue{{"name", "Al"}, {"x", "1"}}}, // all or nothing
		{Action: HighlightField, Field: "nope"},
		{Action: Navigate, To: "nowhere"},
	}})
	text := notesText(notes)
	if strings.Count(text, "refused: ") != 10 {
		t.Fatalf("want 10 refusals, got:\n%s", text)
	}
	for _, want := range []string{`no field "nickname"`, `no form "garage"`, `names the form "plex"`, `no action "drop_table"`, "one of kg, lb", "must be a number", "one line", `"x" the form has no field`} {
		if !strings.Contains(text, want) {
			t.Errorf("notes lack %q:\n%s", want, text)
		}
	}
	for k, v := range s.Values {
		if v != "" {
			t.Errorf("refused commands changed %s to %q", k, v)
		}
	}
	if len(s.Undo) != 0 {
		t.Fatal("refused commands made an undo step")
	}
}

func TestSecretsNeverSet(t *testing.T) {
	s, f, err := Clean(State{Form: FormPlex, Values: map[string]string{"plex_token": "from-the-browser"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Values["plex_token"]; ok {
		t.Fatal("Clean kept a secret field's value")
	}
	s, notes := Apply(s, f, Reply{Commands: []Command{{Action: SetField, Field: "plex_token", Value: "abc"}}})
	if _, ok := s.Values["plex_token"]; ok || !strings.Contains(notesText(notes), "never handles tokens") {
		t.Fatalf("a token was set: %+v\n%s", s.Values, notesText(notes))
	}
}

func TestConfirmation(t *testing.T) {
	s, f := memberState(t)
	s, _ = Apply(s, f, Reply{Commands: []Command{
		{Action: SetField, Field: "name", Value: "Ava"},
		{Action: RequestConfirmation, Text: "Also make her a child?"},
		{Action: SetField, Field: "role", Value: "child"},
	}})
	if s.Values["name"] != "Ava" || s.Values["role"] != "" || s.Confirm != "Also make her a child?" || len(s.Pending) != 1 {
		t.Fatalf("paused state: %+v", s)
	}
	no, _ := Resume(s, f, false)
	if no.Values["role"] != "" || len(no.Pending) != 0 || no.Confirm != "" {
		t.Fatalf("after no: %+v", no)
	}
	yes, _ := Resume(s, f, true)
	if yes.Values["role"] != "child" || len(yes.Pending) != 0 || len(yes.Undo) != 2 {
		t.Fatalf("after yes: %+v", yes)
	}
	// Pending commands come back from the browser: they are checked again.
	s.Pending = []Command{{Action: SetField, Field: "evil", Value: "1"}}
	bad, notes := Resume(s, f, true)
	if _, ok := bad.Values["evil"]; ok || !strings.Contains(notesText(notes), "refused") {
		t.Fatalf("a tampered pending command applied: %+v", bad.Values)
	}
	// needs_confirmation holds every command behind the message.
	s, _ = memberState(t)
	s, _ = Apply(s, f, Reply{Message: "Add Bo?", NeedsConfirmation: true, Commands: []Command{{Action: SetField, Field: "name", Value: "Bo"}}})
	if s.Values["name"] != "" || s.Confirm != "Add Bo?" || len(s.Pending) != 1 {
		t.Fatalf("needs_confirmation: %+v", s)
	}
}

func TestCleanBoundsState(t *testing.T) {
	if _, _, err := Clean(State{Form: "nope"}); err == nil {
		t.Fatal("an unknown form was accepted")
	}
	var st []map[string]string
	for range MaxUndo + 5 {
		st = append(st, map[string]string{"name": "x", "junk": "y"})
	}
	s, _, err := Clean(State{Form: FormMember, Undo: st, Values: map[string]string{"junk": "1"}, Highlight: "junk"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Undo) != MaxUndo || s.Undo[0]["junk"] != "" || s.Values["junk"] != "" || s.Highlight != "" {
		t.Fatalf("not cleaned: %d %+v %q", len(s.Undo), s.Undo[0], s.Highlight)
	}
}

func TestDecodeLenientValues(t *testing.T) {
	r, err := Decode(map[string]any{"message": "hi", "needs_confirmation": false, "commands": []any{
		map[string]any{"action": "set_field", "field": "calories", "value": 2000, "form": nil},
		map[string]any{"action": "set_fields", "fields": []any{map[string]any{"field": "name", "value": "Ava"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Commands[0].Value != "2000" || r.Commands[1].Fields[0].Value != "Ava" {
		t.Fatalf("%+v", r)
	}
	if _, err := Decode(`{"message": 3}`); err == nil {
		t.Fatal("a bad reply decoded")
	}
	raw, _ := json.Marshal(r)
	if !strings.Contains(string(raw), `"value":"2000"`) {
		t.Fatalf("re-encoded: %s", raw)
	}
}
