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

// cpName is the shape of a form or field name inside the panel's
// expressions (registry names only; anything else gets no binding).
var cpName = regexp.MustCompile(`^[a-z][a-z_]{0,39}$`)

// cpForm is form when it is a registered copilot form whose id may sit
// inside an expression, else "".
func cpForm(form string) string {
	if _, ok := copilot.FormByID(form); !ok || !cpName.MatchString(form) {
		return ""
	}
	return form
}

// registryField is the registry's field name of form cp, when it has one
// whose name may sit inside an expression.
func registryField(cp, name string) (copilot.Field, bool) {
	f, ok := copilot.FormByID(cpForm(cp))
	if !ok || !cpName.MatchString(name) {
		return copilot.Field{}, false
	}
	return f.Field(name)
}

// cpRoot is the signal that holds a panel's state ("" for an unknown form):
// one per form, so a page may have several panels.
func cpRoot(form string) string {
	if cpForm(form) == "" {
		return ""
	}
	return copilot.SignalRoot(form)
}

// cpExpr is a panel expression over its state: "$" + root + rest.
func cpExpr(form, rest string) string {
	if r := cpRoot(form); r != "" {
		return "$" + r + rest
	}
	return ""
}

// cpID is a panel element's id: "cp-<part>-<form>".
func cpID(form, part string) string { return "cp-" + part + "-" + cpForm(form) }

// cpSignals are the panel's initial signals: the form id (a registry id,
// checked) and empty stacks. The form's values are not here: each bound
// input creates its own signal from its value attribute.
func cpSignals(form string) string {
	r := cpRoot(form)
	if r == "" {
		return ""
	}
	return "{" + r + ": {form: '" + form + "', ask: '', undo: [], redo: [], pending: [], confirm: '', hl: '', nav: '', navTitle: ''}}"
}

// CopilotEnabled reports whether form is a registered copilot form.
func CopilotEnabled(form string) bool { return cpForm(form) != "" }

// cpBind binds an input to its signal <root>.f.<name> as a string (the
// value property, on input and change: a number input's default binding
// would turn an empty field into 0). Tokens are never bound.
func cpBind(cp, name string) templ.Attributes {
	if fd, ok := registryField(cp, name); !ok || fd.Kind == copilot.Secret {
		return nil
	}
	return templ.Attributes{"data-bind__prop.value__event.input.change": cpRoot(cp) + ".f." + name}
}

// cpHighlight marks the field's label while the copilot points at it.
func cpHighlight(cp, name string) templ.Attributes {
	if _, ok := registryField(cp, name); !ok {
		return nil
	}
	return templ.Attributes{"data-class:cp-hl": cpExpr(cp, ".hl == '"+name+"'")}
}

// cpPost is a panel action: a Datastar POST of the signals with the CSRF
// header to /admin/copilot/<form>[/<action>].
func cpPost(form, action string) string {
	if cpForm(form) == "" {
		return ""
	}
	switch action {
	case "", "undo", "redo", "confirm", "decline":
	default:
		return ""
	}
	url := "/admin/copilot/" + form
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
	copilotNight    = copilot.FormNight
	copilotHA       = copilot.FormHomeAssistant
	copilotScreen   = copilot.FormScreen
	copilotZone     = copilot.FormTimeZone
)

// copilotFor is form when the copilot is on, else "" (no bindings).
func copilotFor(on bool, form string) string {
	if on {
		return form
	}
	return ""
}

// copilotHint is the ask box's example for a form.
func copilotHint(form string) string {
	switch form {
	case copilot.FormMember:
		return "e.g. add my daughter Ava, 8, metric"
	case copilot.FormTargets:
		return "e.g. set calories to 1800 and protein 120"
	case copilot.FormSchedule:
		return "e.g. weekdays at 6:30"
	case copilot.FormPlex:
		return "e.g. connect Plex at http://plex.local:32400"
	case copilot.FormHomeAssistant:
		return "e.g. connect Home Assistant at http://homeassistant.local:8123"
	case copilot.FormScreen:
		return "e.g. enrol the kitchen tablet"
	case copilot.FormTimeZone:
		return "e.g. set the time zone to Europe/Berlin"
	case copilot.FormNight:
		return "e.g. dim the screens from 10pm to 6:30am"
	}
	return ""
}
