package coach

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hearth/internal/agent"
)

// Tuning is what can change the coach's daily-dashboard runs without a code
// change (declarative agent definitions supply it through a TuningSource).
//
// SystemPrompt is the assignment's instructions; it follows Persona in the
// system message. UserTemplate is the user message with {{variable}}
// placeholders, filled each run from the gathered data:
//
//	{{member}}    the member's name and id
//	{{date}}      today, e.g. "Wed 18 Feb 2026 (2026-02-18)"
//	{{unit}}      the member's weight unit, kg or lb
//	{{data}}      the facts, one labelled line each (weight, nutrition today,
//	              yesterday and 7 days, training, recent workouts, body
//	              composition, goals, data gaps)
//	{{program}}   program state and today's program day
//	{{answers}}   new prompt answers and voice memos, and the updates they cause
//	{{followups}} prompts answered / dropped (never ask) and ignored (ask once more)
//	{{menu}}      the catalog menu, one item a line (id | title | kind | minutes | program #day)
//	{{programs}}  the catalog's programs
//	{{memory}}    working memory (Memory.Serialize)
//	{{gathered}}  everything gathered as compact JSON (large: prefer the sections)
//
// Model holds the model settings the definitions want. The orchestrator
// still takes an agent's settings from agent.Agent.Model (New sets
// DefaultTuning().Model); DailyDashboard.ModelSettings returns the tuned
// ones for when it consults the assignment per run.
type Tuning struct {
	SystemPrompt string
	UserTemplate string
	Model        agent.ModelSettings
	// Source names where the prompts come from ("definition
	// health-coach v3"); "" is the built-in ones.
	Source string
	// notes say which parts of the source's prompts could not be used
	// and were replaced by the built-in ones (resolveTuning).
	notes []string
}

// TuningSource supplies the coach's tuning for a run.
type TuningSource interface {
	CoachTuning(ctx context.Context) (Tuning, error)
}

// TemplateVariables lists the variables UserTemplate may use.
func TemplateVariables() []string {
	return []string{"member", "date", "unit", "data", "program", "answers", "followups", "menu", "programs", "memory", "gathered",
		"user.id", "user.name", "user.unit"} // the member, as definitions' {{user.<field>}} names them
}

// DefaultTuning returns the built-in prompts (prompts/*.md) and model settings.
func DefaultTuning() Tuning {
	temp := 0.3
	return Tuning{
		SystemPrompt: strings.TrimSpace(dailySystemText),
		UserTemplate: strings.TrimSpace(dailyUserText),
		Model:        agent.ModelSettings{Temperature: &temp, MaxTokens: 2500, MaxIterations: 6, MaxRetries: 2},
	}
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}`)

// CheckTemplate reports placeholders of tmpl that are not TemplateVariables.
func CheckTemplate(tmpl string) error {
	known := TemplateVariables()
	var unknown []string
	for _, m := range placeholder.FindAllStringSubmatch(tmpl, -1) {
		if !slices.Contains(known, m[1]) && !slices.Contains(unknown, m[1]) {
			unknown = append(unknown, m[1])
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("coach: unknown template variables %s (known: %s)",
			strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return nil
}

// render fills tmpl's placeholders from vars in one pass, so a value that
// itself contains "{{…}}" (a member's answer, say) is not expanded.
func render(tmpl string, vars map[string]string) (string, error) {
	if err := CheckTemplate(tmpl); err != nil {
		return "", err
	}
	return placeholder.ReplaceAllStringFunc(tmpl, func(m string) string {
		return vars[placeholder.FindStringSubmatch(m)[1]]
	}), nil
}

// resolveTuning returns the run's tuning: the source's, with empty or
// invalid parts replaced by the defaults (and a warning logged, and a note
// the run's prompt shows).
func (c *core) resolveTuning(ctx context.Context) Tuning {
	def := DefaultTuning()
	if c.tuning == nil {
		return def
	}
	t, err := c.tuning.CoachTuning(ctx)
	if err != nil {
		c.log.Warn("coach: tuning source failed; using the built-in prompts", "err", err)
		def.notes = []string{"the coach's definition could not be read (" + err.Error() + "): the built-in prompts were used"}
		return def
	}
	if strings.TrimSpace(t.SystemPrompt) == "" {
		t.SystemPrompt = def.SystemPrompt
	}
	if strings.TrimSpace(t.UserTemplate) == "" {
		t.UserTemplate = def.UserTemplate
	} else if err := CheckTemplate(t.UserTemplate); err != nil {
		c.log.Warn("coach: tuned user template is invalid; using the built-in one", "err", err)
		t.UserTemplate = def.UserTemplate
		t.notes = append(t.notes, "the user template of "+t.sourceName()+" cannot be filled ("+err.Error()+"): the built-in one was used")
	}
	return t
}

// sourceName names the tuning's source for a note.
func (t Tuning) sourceName() string {
	if t.Source == "" {
		return "the tuning"
	}
	return t.Source
}
