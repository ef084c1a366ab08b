package copilot

import (
	"context"
	"strings"

	"hearth/internal/agent"
)

// FactoryName is the config tool factory's name in definitions.
const FactoryName = "config"

// SecretState is all a tool says of a secret: "set" or "unset" (or "set
// but unreadable"). The text of a token, password or key never reaches
// a tool result: the sources below have no field that could hold it.
type SecretState string

// Secret states.
const (
	SecretSet   SecretState = "set"
	SecretUnset SecretState = "unset"
)

// StateOf is SecretSet when v is not empty. It takes the secret only to
// say whether there is one.
func StateOf(v string) SecretState {
	if v == "" {
		return SecretUnset
	}
	return SecretSet
}

// System is Hearth's own configuration as config_get_system reports it.
type System struct {
	Version  string `json:"version"`
	TimeZone string `json:"time_zone"`
	// Model is the configured language model ("" none).
	Model         string      `json:"model"`
	OpenAIKey     SecretState `json:"openai_api_key"`
	AdminPassword SecretState `json:"admin_password"`
	APIToken      SecretState `json:"api_token"`
	Demo          bool        `json:"demo"`
}

// Household is the household-wide settings.
type Household struct {
	TimeZone string `json:"time_zone"`
	// TimeZonePending is a saved zone that applies at the next start.
	TimeZonePending string `json:"time_zone_pending,omitempty"`
	NightMode       string `json:"night_mode"`
	NightFrom       string `json:"night_from,omitempty"`
	NightTo         string `json:"night_to,omitempty"`
	Members         int    `json:"members"`
}

// UserSummary is one member in config_list_users.
type UserSummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
	Unit string `json:"unit"`
}

// User is a member's profile as the member form holds it (no health data).
type User struct {
	ID             string      `json:"id"`
	Name           string      `json:"name"`
	Avatar         string      `json:"avatar"`
	Color          string      `json:"color"`
	Unit           string      `json:"unit"`
	Role           string      `json:"role"`
	Sex            string      `json:"sex"`
	ActivityLevel  string      `json:"activity_level"`
	BirthDate      string      `json:"birth_date,omitempty"`
	HeightCm       *float64    `json:"height_cm,omitempty"`
	GoalWeight     *float64    `json:"goal_weight,omitempty"`
	Calories       *float64    `json:"calories,omitempty"`
	ProteinG       *float64    `json:"protein_g,omitempty"`
	CarbsG         *float64    `json:"carbs_g,omitempty"`
	FatG           *float64    `json:"fat_g,omitempty"`
	PrivateFigures bool        `json:"private_figures"`
	PIN            SecretState `json:"pin"`
}

// Integration is one outside system's connection settings.
type Integration struct {
	Name string `json:"name"`
	// Form is the copilot form that edits it.
	Form string `json:"form"`
	URL  string `json:"url"`
	// URLFrom and TokenFrom say where the value in force comes from:
	// "environment" (then the admin page cannot change it), "admin" or "unset".
	URLFrom   string      `json:"url_from"`
	Token     SecretState `json:"token"`
	TokenFrom string      `json:"token_from"`
	// Section is Plex's workout library section ("" none).
	Section string `json:"section,omitempty"`
}

// Source is what the config tools read (the app over its settings, the
// household and the database). Every method returns redacted values.
type Source interface {
	System(ctx context.Context) (System, error)
	Household(ctx context.Context) (Household, error)
	Users(ctx context.Context) ([]UserSummary, error)
	User(ctx context.Context, id string) (User, error)
	Integrations(ctx context.Context) ([]Integration, error)
}

type noArgs struct{}

// UserArgs names a member.
type UserArgs struct {
	ID string `json:"id" desc:"the member's id (config_list_users)" pattern:"^[a-z0-9-]{1,40}$"`
}

// ValidateArgs are a form's proposed values.
type ValidateArgs struct {
	Form   string       `json:"form" desc:"the form's id" enum:"member|targets|time_zone|night|screen|schedule|plex|homeassistant"`
	Values []FieldValue `json:"values" desc:"the proposed values, one entry per field"`
}

// Problem is one field config_validate finds wrong.
type Problem struct {
	Field   string `json:"field"`
	Problem string `json:"problem"`
}

// Validation is config_validate's answer.
type Validation struct {
	OK       bool      `json:"ok"`
	Problems []Problem `json:"problems"`
	Note     string    `json:"note"`
}

// Tools is the config factory: read-only tools over Hearth's configuration.
// Writes exist only as commands the copilot proposes to the open form.
func Tools(src Source) *agent.Factory {
	return agent.NewFactory(FactoryName, "Configuration (read only)",
		"Hearth's own configuration: system, household settings, members, integrations, and a check of a form's proposed values. Reads only: "+
			"changes are proposed as commands to the admin's open form. Secrets are reported as set or unset, never their text.",
		agent.NewTool("config_get_system", "Hearth's system configuration: version, time zone, language model, and whether the admin password, API token and model key are set.",
			func(ctx context.Context, _ agent.Scope, _ noArgs) (System, error) { return src.System(ctx) }),
		agent.NewTool("config_get_household", "The household's settings: time zone, screens' night mode, number of members.",
			func(ctx context.Context, _ agent.Scope, _ noArgs) (Household, error) { return src.Household(ctx) }),
		agent.NewTool("config_list_users", "The household's members: id, name, role, weight unit.",
			func(ctx context.Context, _ agent.Scope, _ noArgs) ([]UserSummary, error) { return src.Users(ctx) }),
		agent.NewTool("config_get_user", "One member's profile as the member form holds it: targets, unit, role, height, birth date (no health records).",
			func(ctx context.Context, _ agent.Scope, a UserArgs) (User, error) { return src.User(ctx, a.ID) }),
		agent.NewTool("config_list_integrations", "Plex and Home Assistant: address, where each setting comes from, and whether a token is set.",
			func(ctx context.Context, _ agent.Scope, _ noArgs) ([]Integration, error) {
				return src.Integrations(ctx)
			}),
		agent.NewTool("config_validate", "Check proposed values for a form before proposing them: each field's value and the required fields. Save still decides.",
			func(_ context.Context, _ agent.Scope, a ValidateArgs) (Validation, error) {
				return validateForm(a), nil
			}),
	)
}

func validateForm(a ValidateArgs) Validation {
	f, ok := FormByID(a.Form)
	if !ok {
		return Validation{Problems: []Problem{{Field: "form", Problem: "unknown form; forms: " + strings.Join(FormIDs(), ", ")}}}
	}
	values := map[string]string{}
	var probs []Problem
	for _, fv := range a.Values {
		fd, ok := f.Field(fv.Field)
		switch {
		case !ok:
			probs = append(probs, Problem{fv.Field, "the form has no such field"})
		case fd.Kind == Secret:
			probs = append(probs, Problem{fv.Field, "a secret: the admin types it, the copilot never proposes it"})
		default:
			values[fv.Field] = strings.TrimSpace(string(fv.Value))
		}
	}
	errs := f.Check(values)
	for _, fd := range f.Fields {
		if why, bad := errs[fd.Name]; bad {
			probs = append(probs, Problem{fd.Name, why})
		}
	}
	v := Validation{OK: len(probs) == 0, Problems: probs, Note: "the form's Save validates again and decides"}
	if v.Problems == nil {
		v.Problems = []Problem{}
	}
	return v
}
