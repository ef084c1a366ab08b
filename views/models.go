// Package views holds Hearth's templ components. Components receive plain
// view models built by package web; they never touch storage or services.
package views

// Page is what every full page shares.
type Page struct {
	Title string
	CSRF  string
}

// MemberTile is one member on the household screen.
type MemberTile struct {
	ID, Name, Color, Avatar string
	Glance                  string // one figure, e.g. "81.4 kg"
	GlanceLabel             string
	Private                 bool
}

// HouseholdPage is the household screen.
type HouseholdPage struct {
	Page
	Members []MemberTile
}

// Row is a label/value pair.
type Row struct{ Label, Value string }

// FormState carries a form's submitted values and per-field errors so that
// nothing the user typed is lost on a validation error.
type FormState struct {
	Values map[string]string
	Errors map[string]string
	OK     string
}

// Value returns the submitted value of a field.
func (f FormState) Value(k string) string { return f.Values[k] }

// Error returns the error of a field.
func (f FormState) Error(k string) string { return f.Errors[k] }

// MemberPage is the plain member state page.
type MemberPage struct {
	Page
	MemberID, Name, Color, Avatar, Unit string
	Weight                              []Row
	Nutrition                           []Row
	Workouts                            []Row
	Scan                                []Row
	Forms                               map[string]FormState
}

// Form returns the state of the named form.
func (m MemberPage) Form(name string) FormState { return m.Forms[name] }
