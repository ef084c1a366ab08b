package adminview

import (
	"regexp"

	"github.com/a-h/templ"

	"hearth/internal/copilot"
)

// CopilotNote is one line of the copilot panel's log (element text only).
type CopilotNote struct {
	// Kind is admin, copilot, refused, info or problem (a CSS class).
	Kind string
	Text string
}

// copilotNoteKinds are the kinds a note's class may name.
var copilotNoteKinds = map[string]string{"admin": "You", copilot.NoteCopilot: "Copilot", copilot.NoteRefused: "Refused",
	copilot.NoteInfo: "", copilot.NoteProblem: "Problem"}

func noteClass(kind string) string {
	if _, ok := copilotNoteKinds[kind]; !ok {
		kind = copilot.NoteInfo
	}
	return "cp-note cp-" + kind
}

func noteLabel(kind string) string { return copilotNoteKinds[kind] }

// cpName is the shape of a field name inside the panel's expressions
// (registry names only; anything else gets no binding).
var cpName = regexp.MustCompile(`^[a-z][a-z_]{0,39}$`)

// registryField is the registry's field name of form cp, when it has one whose
// name may sit inside an expression.
func registryField(cp, name string) (copilot.Field, bool) {
	f, ok := copilot.FormByID(cp)
	if !ok || !cpName.MatchString(name) {
		return copilot.Field{}, false
	}
	return f.Field(name)
}

// cpSignals are the panel's initial signals: the form id (a registry id,
// checked) and empty stacks. The form's values are not here: each bound
// input creates its own signal from its value attribute.
func cpSignals(form string) string {
	if _, ok := copilot.FormByID(form); !ok {
		return ""
	}
	return "{cp: {form: '" + form + "', ask: '', undo: [], redo: [], pending: [], confirm: '', hl: '', nav: '', navTitle: ''}}"
}

// CopilotEnabled reports whether form is a registered copilot form.
func CopilotEnabled(form string) bool {
	_, ok := copilot.FormByID(form)
	return ok
}

// cpBind binds an input to its signal cp.f.<name> as a string (the value
// property, on input and change: a number input's default binding would
// turn an empty field into 0).
func cpBind(cp, name string) templ.Attributes {
	if fd, ok := registryField(cp, name); !ok || fd.Kind == copilot.Secret {
		return nil
	}
	return templ.Attributes{"data-bind__prop.value__event.input.change": "cp.f." + name}
}

// cpHighlight marks the field's label while the copilot points at it.
func cpHighlight(cp, name string) templ.Attributes {
	if _, ok := registryField(cp, name); !ok {
		return nil
	}
	return templ.Attributes{"data-class:cp-hl": "$cp.hl == '" + name + "'"}
}

// cpPost is a panel action: a Datastar POST of the signals with the CSRF header.
func cpPost(action string) string {
	switch action {
	case "", "undo", "redo", "confirm", "decline":
	default:
		return ""
	}
	url := "/admin/copilot"
	if action != "" {
		url += "/" + action
	}
	return "@post('" + url + "', {headers: {'X-CSRF-Token': $_csrf}})"
}

// The copilot's forms on the admin pages (copilot registry ids).
const (
	copilotMember   = copilot.FormMember
	copilotSchedule = copilot.FormSchedule
	copilotPlex     = copilot.FormPlex
	copilotTargets  = copilot.FormTargets
)

// copilotFor is form when the copilot is on, else "" (no bindings).
func copilotFor(on bool, form string) string {
	if on {
		return form
	}
	return ""
}
