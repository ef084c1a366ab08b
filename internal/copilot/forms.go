package copilot

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Kinds of field.
const (
	Text   = "text"
	Number = "number"
	Date   = "date"
	Select = "select"
	Secret = "secret" // a token: the copilot never reads or writes it
)

// Field is one field of a form a command may name: its name is the form
// input's name and the signal's key.
type Field struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Kind  string `json:"kind"`
	// Options are a select's values ("" first when it may be empty).
	Options []string `json:"options,omitempty"`
	// Max bounds a text's length in characters (0: 200).
	Max int `json:"-"`
	// Check refines the value (a colour, a URL); "" when it is fine.
	Check func(v string) string `json:"-"`
	// Min and MaxNum bound a number (both 0: any).
	Min, MaxNum float64 `json:"-"`
}

// Form is a form the copilot may fill.
type Form struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Path is the admin page that holds it (navigate opens it).
	Path   string  `json:"path"`
	Fields []Field `json:"fields"`
	// Required fields must be filled for Save to succeed.
	Required []string `json:"required,omitempty"`
}

// Field returns the form's field by name.
func (f Form) Field(name string) (Field, bool) {
	i := slices.IndexFunc(f.Fields, func(x Field) bool { return x.Name == name })
	if i < 0 {
		return Field{}, false
	}
	return f.Fields[i], true
}

// Names lists the form's field names in order.
func (f Form) Names() []string {
	out := make([]string, len(f.Fields))
	for i, x := range f.Fields {
		out[i] = x.Name
	}
	return out
}

var (
	memberIDRe = regexp.MustCompile(`^[a-z0-9-]{1,40}$`)
	colorRe    = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	hhmmRe     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
)

func checkMemberID(v string) string {
	if !memberIDRe.MatchString(v) {
		return "must be 1-40 lowercase letters, digits or dashes"
	}
	return ""
}

func checkColor(v string) string {
	if !colorRe.MatchString(v) {
		return "must be a colour like #4f8cff"
	}
	return ""
}

func checkHTTPURL(v string) string {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an http:// or https:// address"
	}
	return ""
}

// zoneRe is the shape of an IANA zone name (Europe/Berlin,
// America/Argentina/Buenos_Aires, UTC); Save checks the zone exists.
var zoneRe = regexp.MustCompile(`^(UTC|[A-Z][A-Za-z_-]+(/[A-Z][A-Za-z0-9_+-]+){1,2})$`)

func checkZone(v string) string {
	if !zoneRe.MatchString(v) {
		return "must be an IANA time zone like Europe/Berlin"
	}
	return ""
}

func checkHHMM(v string) string {
	if !hhmmRe.MatchString(v) {
		return "must be a time like 22:30"
	}
	return ""
}

// Form ids.
const (
	FormMember        = "member"
	FormSchedule      = "schedule"
	FormPlex          = "plex"
	FormHomeAssistant = "homeassistant"
	FormTargets       = "targets"
	FormNight         = "night"
	FormScreen        = "screen"
	FormTimeZone      = "time_zone"
)

// memberFields are the new-member form's; the member page's (FormTargets)
// are the same without the id.
var memberFields = []Field{
	{Name: "id", Label: "Id (lowercase, used in URLs)", Kind: Text, Max: 40, Check: checkMemberID},
	{Name: "name", Label: "Name", Kind: Text, Max: 80},
	{Name: "avatar", Label: "Avatar (emoji or initials)", Kind: Text, Max: 8},
	{Name: "color", Label: "Colour", Kind: Text, Max: 7, Check: checkColor},
	{Name: "unit", Label: "Weight unit", Kind: Select, Options: []string{"kg", "lb"}},
	{Name: "goal_weight", Label: "Goal weight (in the unit above)", Kind: Number, Min: 2, MaxNum: 700},
	{Name: "calories", Label: "Calories target (kcal)", Kind: Number, Min: 800, MaxNum: 6000},
	{Name: "protein_g", Label: "Protein target (g)", Kind: Number, Min: 0, MaxNum: 500},
	{Name: "carbs_g", Label: "Carbs target (g)", Kind: Number, Min: 0, MaxNum: 1000},
	{Name: "fat_g", Label: "Fat target (g)", Kind: Number, Min: 0, MaxNum: 400},
	{Name: "height_cm", Label: "Height (cm)", Kind: Number, Min: 50, MaxNum: 250},
	{Name: "birth_date", Label: "Birth date", Kind: Date},
	{Name: "sex", Label: "Sex (for BMR)", Kind: Select, Options: []string{"", "female", "male"}},
	{Name: "activity_level", Label: "Activity level", Kind: Select, Options: []string{"", "sedentary", "light", "moderate", "active", "very_active"}},
	{Name: "role", Label: "Role", Kind: Select, Options: []string{"adult", "child", "guest"}},
}

// forms is the registry. A form's fields are those of the admin page's
// form of the same purpose (web/admin); web's TestCopilotFormsMatchPages
// keeps them in step.
var forms = []Form{
	{ID: FormMember, Title: "Admin → Household: add a member", Path: "/admin/household", Fields: memberFields,
		Required: []string{"id", "name"}},
	{ID: FormTargets, Title: "Admin → Household → a member: profile and targets", Path: "/admin/household",
		Fields: memberFields[1:], Required: []string{"name"}},
	{ID: FormTimeZone, Title: "Admin → Household: time zone", Path: "/admin/household", Fields: []Field{
		{Name: "time_zone", Label: "Household time zone (IANA name)", Kind: Text, Max: 64, Check: checkZone},
	}},
	{ID: FormNight, Title: "Admin → Household: night mode", Path: "/admin/household", Fields: []Field{
		{Name: "night_mode", Label: "At night the screens", Kind: Select, Options: []string{"off", "dim", "blank"}},
		{Name: "night_from", Label: "From", Kind: Text, Max: 5, Check: checkHHMM},
		{Name: "night_to", Label: "Until", Kind: Text, Max: 5, Check: checkHHMM},
	}, Required: []string{"night_mode"}},
	{ID: FormScreen, Title: "Admin → Screens: enrol a screen", Path: "/admin/screens", Fields: []Field{
		{Name: "name", Label: "Name", Kind: Text, Max: 80},
	}, Required: []string{"name"}},
	{ID: FormSchedule, Title: "Admin → Schedules: new task", Path: "/admin/schedules", Fields: []Field{
		{Name: "description", Label: "Description", Kind: Text, Max: 2000},
		{Name: "type", Label: "Type", Kind: Select, Options: []string{"once", "recurring", "interval", "heartbeat"}},
		{Name: "schedule", Label: "Schedule (cron, a time, or minutes)", Kind: Text, Max: 100},
		{Name: "prompt", Label: "Prompt", Kind: Text, Max: 4000},
	}, Required: []string{"description", "type", "schedule"}},
	{ID: FormPlex, Title: "Admin → Integrations: Plex", Path: "/admin/integrations", Fields: []Field{
		{Name: "plex_url", Label: "Plex server URL", Kind: Text, Max: 500, Check: checkHTTPURL},
		{Name: "plex_token", Label: "Plex token", Kind: Secret},
	}, Required: []string{"plex_url"}},
	{ID: FormHomeAssistant, Title: "Admin → Integrations: Home Assistant", Path: "/admin/integrations", Fields: []Field{
		{Name: "ha_url", Label: "Home Assistant URL", Kind: Text, Max: 500, Check: checkHTTPURL},
		{Name: "ha_token", Label: "Long-lived access token", Kind: Secret},
	}, Required: []string{"ha_url"}},
}

// Forms returns the registry.
func Forms() []Form { return slices.Clone(forms) }

// FormByID returns a registered form.
func FormByID(id string) (Form, bool) {
	i := slices.IndexFunc(forms, func(f Form) bool { return f.ID == id })
	if i < 0 {
		return Form{}, false
	}
	return forms[i], true
}

// FormIDs lists the registered forms' ids.
func FormIDs() []string {
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = f.ID
	}
	return out
}

// CheckValue says why v cannot go into field ("" when it can). An empty
// value is always accepted (clearing); Check (below) reports required
// fields. Values are one line of printable text.
func (f Field) CheckValue(v string) string {
	if f.Kind == Secret {
		return "is a secret: the copilot never handles tokens, type it yourself"
	}
	if v == "" {
		return ""
	}
	max := f.Max
	if max == 0 {
		max = 200
	}
	if len([]rune(v)) > max {
		return "is longer than " + strconv.Itoa(max) + " characters"
	}
	if strings.IndexFunc(v, func(r rune) bool { return unicode.IsControl(r) }) >= 0 {
		return "must be one line of text"
	}
	switch f.Kind {
	case Select:
		if !slices.Contains(f.Options, v) {
			return "must be one of " + strings.Join(nonEmpty(f.Options), ", ")
		}
	case Number:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "must be a number"
		}
		if (f.Min != 0 || f.MaxNum != 0) && (n < f.Min || n > f.MaxNum) {
			return "must be between " + strconv.FormatFloat(f.Min, 'f', -1, 64) + " and " + strconv.FormatFloat(f.MaxNum, 'f', -1, 64)
		}
	case Date:
		d, err := time.Parse(time.DateOnly, v)
		if err != nil || d.Year() < 1900 {
			return "must be a date like 1988-04-12"
		}
	}
	if f.Check != nil {
		return f.Check(v)
	}
	return ""
}

func nonEmpty(ss []string) []string {
	return slices.DeleteFunc(slices.Clone(ss), func(s string) bool { return s == "" })
}

// Check validates a whole form's values as the copilot sees them: each
// field's value and the required fields (the server's Save still decides).
// It returns field → problem, nil when none.
func (f Form) Check(values map[string]string) map[string]string {
	errs := map[string]string{}
	for _, fd := range f.Fields {
		if fd.Kind == Secret {
			continue
		}
		if why := fd.CheckValue(values[fd.Name]); why != "" {
			errs[fd.Name] = why
		}
	}
	for _, name := range f.Required {
		if strings.TrimSpace(values[name]) == "" {
			if _, ok := errs[name]; !ok {
				errs[name] = "is required"
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// SignalRoot is the browser signal that holds form's panel state
// ("cp_member"): one per form, so one page may hold several panels.
func SignalRoot(form string) string { return "cp_" + form }
