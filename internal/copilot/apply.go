package copilot

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// MaxUndo bounds the undo and redo stacks (the oldest snapshot goes first).
const MaxUndo = 20

// State is a form's copilot state as the browser holds it (the cp signal):
// the form's values, the undo and redo stacks of earlier values, and the
// commands waiting for a confirmation. It comes back from the browser, so
// Clean checks it before use.
type State struct {
	Form   string              `json:"form"`
	Values map[string]string   `json:"f"`
	Undo   []map[string]string `json:"undo"`
	Redo   []map[string]string `json:"redo"`
	// Pending are the commands after a request_confirmation; Confirm is
	// its question ("" when nothing waits).
	Pending []Command `json:"pending"`
	Confirm string    `json:"confirm"`
	// Highlight names the field to draw attention to ("" none).
	Highlight string `json:"hl"`
	// Nav is the path of a form the copilot suggests opening ("" none);
	// NavTitle names it.
	Nav      string `json:"nav"`
	NavTitle string `json:"navTitle"`
}

// Note is one line in the copilot panel.
type Note struct {
	// Kind is "copilot" (the agent's words), "refused" (a command not
	// applied, and why), "info" (what was applied) or "problem".
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Note kinds.
const (
	NoteCopilot = "copilot"
	NoteRefused = "refused"
	NoteInfo    = "info"
	NoteProblem = "problem"
)

// Clean makes a state from the browser safe to work on: the form must be
// registered, values are kept only for its fields (a secret never), the
// stacks are bounded and their snapshots cleaned the same way.
func Clean(s State) (State, Form, error) {
	f, ok := FormByID(s.Form)
	if !ok {
		return State{}, Form{}, fmt.Errorf("copilot: unknown form %q", s.Form)
	}
	s.Values = cleanValues(f, s.Values)
	s.Undo = cleanStack(f, s.Undo)
	s.Redo = cleanStack(f, s.Redo)
	if len(s.Pending) > MaxCommands {
		s.Pending = s.Pending[:MaxCommands]
	}
	if _, ok := f.Field(s.Highlight); !ok {
		s.Highlight = ""
	}
	// A suggested form's link is a registry path, never the browser's word.
	s.Nav, s.NavTitle = navOf(s.Nav)
	s.Confirm = clip(s.Confirm, MaxMessageLen)
	if len(s.Pending) == 0 {
		s.Confirm = ""
	}
	return s, f, nil
}

func cleanValues(f Form, in map[string]string) map[string]string {
	out := make(map[string]string, len(f.Fields))
	for _, fd := range f.Fields {
		if fd.Kind != Secret {
			out[fd.Name] = in[fd.Name]
		}
	}
	return out
}

func cleanStack(f Form, st []map[string]string) []map[string]string {
	if len(st) > MaxUndo {
		st = st[len(st)-MaxUndo:]
	}
	out := make([]map[string]string, len(st))
	for i, v := range st {
		out[i] = cleanValues(f, v)
	}
	return out
}

// push adds a snapshot to a stack, dropping the oldest past MaxUndo.
func push(st []map[string]string, v map[string]string) []map[string]string {
	st = append(st, maps.Clone(v))
	if len(st) > MaxUndo {
		st = st[len(st)-MaxUndo:]
	}
	return st
}

// Apply applies a reply to a cleaned state: its message first, then its
// commands in order until a request_confirmation (or needs_confirmation),
// which parks the rest in Pending. The changes of one Apply are one undo
// step. Commands naming an unknown form, field or action, or a value the
// field refuses, change nothing and are reported.
func Apply(s State, f Form, r Reply) (State, []Note) {
	var notes []Note
	if m := strings.TrimSpace(r.Message); m != "" {
		notes = append(notes, Note{NoteCopilot, clip(m, MaxMessageLen)})
	}
	cmds := r.Commands
	if len(cmds) > MaxCommands {
		notes = append(notes, Note{NoteRefused, fmt.Sprintf("the copilot sent %d commands; only the first %d were read", len(cmds), MaxCommands)})
		cmds = cmds[:MaxCommands]
	}
	s.Pending, s.Confirm, s.Highlight, s.Nav, s.NavTitle = nil, "", "", "", ""
	if r.NeedsConfirmation && len(cmds) > 0 {
		q := strings.TrimSpace(r.Message)
		if q == "" {
			q = "Apply the copilot's changes?"
		}
		cmds = append([]Command{{Action: RequestConfirmation, Text: q}}, cmds...)
	}
	s, more := run(s, f, cmds)
	return s, append(notes, more...)
}

// Resume resumes the commands a confirmation parked: yes applies them
// (checked again: they came back from the browser), no drops them.
func Resume(s State, f Form, yes bool) (State, []Note) {
	cmds := s.Pending
	s.Pending, s.Confirm = nil, ""
	if len(cmds) == 0 {
		return s, []Note{{NoteInfo, "Nothing was waiting for an answer."}}
	}
	if !yes {
		return s, []Note{{NoteInfo, "Not applied."}}
	}
	return run(s, f, cmds)
}

// run applies cmds; it stops at a request_confirmation.
func run(s State, f Form, cmds []Command) (State, []Note) {
	var notes []Note
	before := maps.Clone(s.Values)
	changed := false
	var set []string
	refuse := func(c Command, why string) {
		notes = append(notes, Note{NoteRefused, fmt.Sprintf("Refused %s: %s.", describe(c), why)})
	}
	for i, c := range cmds {
		if c.Form != "" && c.Form != f.ID && c.Action != Navigate {
			if _, ok := FormByID(c.Form); !ok {
				refuse(c, fmt.Sprintf("there is no form %q", clip(c.Form, 40)))
			} else {
				refuse(c, fmt.Sprintf("it names the form %q, but %q is open", c.Form, f.ID))
			}
			continue
		}
		switch c.Action {
		case SetField, ClearField:
			v := string(c.Value)
			if c.Action == ClearField {
				v = ""
			}
			if why := checkSet(f, c.Field, v); why != "" {
				refuse(c, why)
				continue
			}
			s.Values[c.Field] = strings.TrimSpace(v)
			changed, set = true, append(set, c.Field)
		case SetFields:
			if len(c.Fields) == 0 {
				refuse(c, "it names no fields")
				continue
			}
			// All or nothing: set_fields is one change.
			bad := ""
			for _, fv := range c.Fields {
				if why := checkSet(f, fv.Field, string(fv.Value)); why != "" {
					bad = fmt.Sprintf("%s %s", quoteField(fv.Field), why)
					break
				}
			}
			if bad != "" {
				refuse(c, bad)
				continue
			}
			for _, fv := range c.Fields {
				s.Values[fv.Field] = strings.TrimSpace(string(fv.Value))
				set = append(set, fv.Field)
			}
			changed = true
		case Navigate:
			to := c.To
			if to == "" {
				to = c.Form
			}
			g, ok := FormByID(to)
			if !ok {
				refuse(c, fmt.Sprintf("there is no form %q", clip(to, 40)))
				continue
			}
			switch {
			case g.ID == f.ID:
			case g.Path == f.Path: // the same page: its own panel, no reload
				notes = append(notes, Note{NoteInfo, "That is " + g.Title + ", on this page: ask the copilot beside it."})
			default:
				s.Nav, s.NavTitle = g.Path, g.Title
				notes = append(notes, Note{NoteInfo, "Open " + g.Title + " to go on (your changes here are not saved)."})
			}
		case ShowMessage:
			if t := strings.TrimSpace(c.Text); t != "" {
				notes = append(notes, Note{NoteCopilot, clip(t, MaxMessageLen)})
			}
		case HighlightField:
			if _, ok := f.Field(c.Field); !ok {
				refuse(c, fmt.Sprintf("the form has no field %s", quoteField(c.Field)))
				continue
			}
			s.Highlight = c.Field
		case Validate:
			notes = append(notes, validateNotes(f, s.Values)...)
		case RequestConfirmation:
			q := strings.TrimSpace(c.Text)
			if q == "" {
				q = "Apply the copilot's next changes?"
			}
			rest := slices.Clone(cmds[i+1:])
			if len(rest) == 0 {
				notes = append(notes, Note{NoteCopilot, clip(q, MaxMessageLen)})
				continue
			}
			s.Pending, s.Confirm = rest, clip(q, MaxMessageLen)
			return finish(s, before, changed, set, notes)
		default:
			refuse(c, fmt.Sprintf("there is no action %q", clip(c.Action, 40)))
		}
	}
	return finish(s, before, changed, set, notes)
}

func finish(s State, before map[string]string, changed bool, set []string, notes []Note) (State, []Note) {
	if changed && !maps.Equal(before, s.Values) {
		s.Undo, s.Redo = push(s.Undo, before), nil
		notes = append(notes, Note{NoteInfo, "Filled " + strings.Join(uniq(set), ", ") + ". Nothing is saved until you press Save; Undo takes it back."})
	}
	return s, notes
}

func checkSet(f Form, field, v string) string {
	fd, ok := f.Field(field)
	if !ok {
		return fmt.Sprintf("the form has no field %s", quoteField(field))
	}
	return fd.CheckValue(strings.TrimSpace(v))
}

func validateNotes(f Form, values map[string]string) []Note {
	errs := f.Check(values)
	if len(errs) == 0 {
		return []Note{{NoteInfo, "The form looks complete: press Save to store it."}}
	}
	var out []Note
	for _, fd := range f.Fields {
		if why, ok := errs[fd.Name]; ok {
			out = append(out, Note{NoteProblem, fd.Label + ": " + why})
		}
	}
	return out
}

// Undo restores the values before the last change; the current values go
// on the redo stack (a hand edit since is kept there too).
func Undo(s State) (State, bool) {
	if len(s.Undo) == 0 {
		return s, false
	}
	prev := s.Undo[len(s.Undo)-1]
	s.Undo = s.Undo[:len(s.Undo)-1]
	s.Redo = push(s.Redo, s.Values)
	s.Values = maps.Clone(prev)
	return s, true
}

// Redo reapplies what Undo took back.
func Redo(s State) (State, bool) {
	if len(s.Redo) == 0 {
		return s, false
	}
	next := s.Redo[len(s.Redo)-1]
	s.Redo = s.Redo[:len(s.Redo)-1]
	s.Undo = push(s.Undo, s.Values)
	s.Values = maps.Clone(next)
	return s, true
}

func describe(c Command) string {
	a := clip(c.Action, 40)
	if a == "" {
		a = "a command"
	}
	if c.Field != "" {
		return a + " " + quoteField(c.Field)
	}
	return a
}

func quoteField(name string) string { return fmt.Sprintf("%q", clip(name, 40)) }

func uniq(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// navOf returns a registered form's path and title for path ("" none).
func navOf(path string) (string, string) {
	for _, f := range forms {
		if path != "" && f.Path == path {
			return f.Path, f.Title
		}
	}
	return "", ""
}
