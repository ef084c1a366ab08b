// Package views holds Hearth's templ components. Components receive plain
// view models built by package web; they never touch storage or services.
//
// Safety: member- and model-written text (names, briefings, prompt questions
// and options, meal and content titles) is only ever rendered as element text
// or plain attribute values, never inside a Datastar data-* expression.
package views

import "regexp"

// Page is what every full page shares.
type Page struct {
	Title string
	CSRF  string
	// Sheet is the logging sheet open at load (a failed plain-form post):
	// one of the fixed sheet names, anything else opens none.
	Sheet string
	// Private starts the page with the member's figures blurred.
	Private bool
	// IdleMS > 0 sends the screen back to the household view after that
	// many milliseconds without a touch.
	IdleMS int64
	// RotateMS > 0 moves the screen on to Next (a member's dashboard, a
	// fixed route and a validated id) after that long without a touch.
	RotateMS int64
	Next     string
	// TZ is the household's IANA time zone for the clock ("" = the browser's).
	TZ string
	// Screen marks a kiosk page, a wall screen: while it is awake and
	// visible it holds a screen wake lock where the browser offers one.
	Screen bool
	// Night is the screen's night schedule (zero: none): hearth.js dims
	// the page to a clock, or blanks it, from From to To in TZ.
	Night Night
	// NightNext is what the morning holds, shown under the night clock
	// ("Tuesday: Plank Ladder · 18 min"; "" = the clock and date only).
	NightNext string
	// TZOffsetMin is TZ's offset from UTC in minutes when the page was
	// made, valid until TZUntilMS (Unix ms; 0: no change ahead): the clock
	// formats with it and needs no Intl (hearth.js).
	TZOffsetMin int
	TZUntilMS   int64
	// Stream is the SSE URL the page listens to ("" = no live updates). It
	// is a fixed route plus validated ids: it sits inside a Datastar
	// expression. A filtered stream names StreamForm instead of putting the
	// filter in the URL.
	Stream string
	// StreamForm is the id of a form (hidden inputs with the page's filter
	// as plain attribute values) whose fields the stream request sends.
	StreamForm string
	// StreamVersion names what the page already shows (a member
	// dashboard: the content hash of the stream's full patch set for the
	// model the page was rendered from). The stream's first request sends
	// it as ?v=; when it is still current the stream skips re-sending
	// every widget the page already has. Letters and digits only, at most
	// 16 ("" = none: the first events patch everything).
	StreamVersion string
}

// Night is a screen's night schedule: From and To are HH:MM (To may be
// past midnight), Mode is "dim" (a big clock) or "blank". The values are
// admin-set and validated when saved; they are rendered as plain
// data-hearth-night-* attributes for hearth.js, never inside a Datastar
// expression, and only when they have that shape (On).
type Night struct{ From, To, Mode string }

var hhmm = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// On reports whether the schedule is a night to render.
func (n Night) On() bool {
	return (n.Mode == "dim" || n.Mode == "blank") && hhmm.MatchString(n.From) && hhmm.MatchString(n.To) && n.From != n.To
}

// FormState carries a form's submitted values and per-field errors so that
// nothing the user typed is lost on a validation error.
type FormState struct {
	Values map[string]string
	Errors map[string]string
	OK     string
	// Confirm asks before storing an implausible figure ("Are you sure?
	// 6.9 kg is far from your trend of 70.5 kg."): Save anyway / Fix.
	Confirm string
}

// Value returns the submitted value of a field.
func (f FormState) Value(k string) string { return f.Values[k] }

// Error returns the error of a field.
func (f FormState) Error(k string) string { return f.Errors[k] }

// ProgramCard is a member's program and its controls (kiosk dashboard and
// admin member page): pause, resume, switch, restart, skip to a day,
// substitute today's item, pace.
type ProgramCard struct {
	MemberID string
	CSRF     string
	// Action is the URL the controls post to (validated path).
	Action string
	// Kiosk posts the controls through Datastar (the admin posts plainly).
	Kiosk bool
	Has   bool
	Title string
	// Status is active | paused | completed; Line says where the member is
	// ("Week 2, Day 4 of 30 · today: Plank Ladder (18 min)").
	Status string
	Line   string
	Behind string // "3 sessions behind" or ""
	Pace   string // calendar | own
	Day    int
	Days   []Option // skip to a day
	// Programs to switch to (or start), SubstituteWith items for today.
	Programs       []Option
	SubstituteWith []Option
	// Substituted is what replaced today's item ("" = nothing).
	Substituted string
}

// Option is one choice of a select.
type Option struct{ Value, Label string }
