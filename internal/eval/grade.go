package eval

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// Generic graders: they apply to every plan of every scenario (the "must
// not" list of a good plan).
const (
	// GraderSchema: the document matches the dashboard schema and its
	// non-content domain rules (prompt ids unique, choices have options).
	GraderSchema = "schema"
	// GraderContent: every content id is in the catalog, with the
	// catalog's title and duration (anything else is hallucinated content).
	GraderContent = "content"
	// GraderNumbers: every number in the coach's words is a figure of the
	// facts the coach was given (gathered data, prompt, tool results).
	GraderNumbers = "numbers"
	// GraderUnits: every weight is in the member's unit, energy in kcal.
	GraderUnits = "units"
	// GraderStaleCTA: no call to action for a gap that is already filled.
	GraderStaleCTA = "stale_cta"
	// GraderCTALimit: at most dashboard.MaxCTAs calls to action.
	GraderCTALimit = "cta_limit"
)

// GenericGraders lists the generic graders in the order they run.
func GenericGraders() []string {
	return []string{GraderSchema, GraderContent, GraderNumbers, GraderUnits, GraderStaleCTA, GraderCTALimit}
}

// Facts are what a plan is graded against.
type Facts struct {
	Member string
	Unit   health.Unit
	// Numbers are the figures the coach was given.
	Numbers *Numbers
	// Catalog is the household's content by id.
	Catalog map[string]content.Item
	// Truth is the member's data as it stands at the run.
	Truth Truth
}

// Truth is the state of the member's data at the run, read from the
// database by the eval itself (not from the coach's view of it), for the
// stale-CTA grader.
type Truth struct {
	Now            time.Time  `json:"now"`
	LastWeighIn    *time.Time `json:"last_weigh_in,omitempty"`
	WeighInsRecent int        `json:"weigh_ins_today_or_yesterday"`
	MealsYesterday int        `json:"meals_yesterday"`
	MealsToday     int        `json:"meals_today"`
	WorkoutsRecent int        `json:"workouts_today_or_yesterday"`
	// FinishedToday is content finished today (a done tap or a workout
	// naming it).
	FinishedToday map[string]bool `json:"finished_today,omitempty"`
}

// Plan is one output to grade: a model reply, a heuristic plan, or the
// stored document.
type Plan struct {
	Raw    string
	Source string
	// Doc is the parsed document; nil when Raw is not one.
	Doc *dashboard.Document
}

// ParsePlan parses raw (JSON, possibly fenced as a model writes it).
func ParsePlan(raw, source string) Plan {
	p := Plan{Raw: raw, Source: source}
	var d dashboard.Document
	if err := json.Unmarshal([]byte(agent.ExtractJSON(raw)), &d); err == nil {
		p.Doc = &d
	}
	return p
}

// GraderResult is one generic grader's verdict on one plan.
type GraderResult struct {
	Grader   string   `json:"grader"`
	Passed   bool     `json:"passed"`
	Problems []string `json:"problems,omitempty"`
}

// PlanGrade is every generic grader's verdict on one plan, and the counts
// the suite's rates are made of.
type PlanGrade struct {
	Source  string         `json:"source"`
	Results []GraderResult `json:"results"`
	// Figures are the numbers the coach's words state; Known those that
	// match the facts.
	Figures      int  `json:"figures"`
	Known        int  `json:"known_figures"`
	Hallucinated bool `json:"hallucinated"`
	StaleCTAs    int  `json:"stale_ctas"`
}

// Result returns the verdict of grader.
func (g PlanGrade) Result(grader string) GraderResult {
	for _, r := range g.Results {
		if r.Grader == grader {
			return r
		}
	}
	return GraderResult{Grader: grader}
}

// Grader checks plans against facts with the dashboard schema.
type Grader struct{ schema *agent.Schema }

// NewGrader compiles the dashboard schema.
func NewGrader() (*Grader, error) {
	s, err := agent.CompileSchema("dashboard", dashboard.SchemaMap())
	if err != nil {
		return nil, err
	}
	return &Grader{schema: s}, nil
}

// Grade runs every generic grader on p.
func (gr *Grader) Grade(p Plan, f Facts) PlanGrade {
	out := PlanGrade{Source: p.Source}
	add := func(name string, problems []string) {
		out.Results = append(out.Results, GraderResult{Grader: name, Passed: len(problems) == 0, Problems: problems})
	}
	if p.Doc == nil {
		msg := "not a dashboard document"
		for _, name := range GenericGraders() {
			add(name, []string{msg})
		}
		out.Hallucinated = false
		return out
	}
	d := *p.Doc
	add(GraderSchema, gr.schemaProblems(p, d))
	content := contentProblems(d, f.Catalog)
	out.Hallucinated = len(content) > 0
	add(GraderContent, content)
	var unknown []string
	for _, fig := range coachFigures(d, f.Numbers) {
		out.Figures++
		if fig.Known {
			out.Known++
		} else {
			unknown = append(unknown, fmt.Sprintf("%s: %s is not in the facts", fig.Path, fig.Text))
		}
	}
	add(GraderNumbers, unknown)
	var units []string
	for _, t := range coachTexts(d) {
		units = append(units, unitProblems(t.path, t.text, f.Unit)...)
	}
	add(GraderUnits, units)
	stale := staleCTAs(d, f.Truth)
	out.StaleCTAs = len(stale)
	add(GraderStaleCTA, stale)
	var limit []string
	if n := len(d.Coach.CTA); n > dashboard.MaxCTAs {
		limit = append(limit, fmt.Sprintf("%d calls to action; at most %d", n, dashboard.MaxCTAs))
	}
	add(GraderCTALimit, limit)
	return out
}

// schemaProblems are the schema's errors and the non-content domain rules.
func (gr *Grader) schemaProblems(p Plan, d dashboard.Document) []string {
	var out []string
	raw := []byte(agent.ExtractJSON(p.Raw))
	for _, e := range gr.schema.Validate(raw) {
		out = append(out, e.String())
	}
	for _, pr := range dashboard.ValidateDomain(d, nil) {
		if !strings.HasPrefix(pr.Path, "/curated/") { // content: GraderContent
			out = append(out, pr.Path+": "+pr.Message)
		}
	}
	return out
}

// contentProblems reports content the catalog does not have, or has under
// another title or duration.
func contentProblems(d dashboard.Document, catalog map[string]content.Item) []string {
	var out []string
	check := func(path string, c dashboard.ContentRef) {
		it, ok := catalog[c.ContentID]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: %q is not in the catalog", path, c.ContentID))
		case it.Title != c.Title:
			out = append(out, fmt.Sprintf("%s: %q is titled %q in the catalog, not %q", path, c.ContentID, it.Title, c.Title))
		case it.DurationMin != c.Duration:
			out = append(out, fmt.Sprintf("%s: %q lasts %d min in the catalog, not %d", path, c.ContentID, it.DurationMin, c.Duration))
		}
	}
	forEachRef(d, check)
	return out
}

// forEachRef calls fn for every content reference of the curated part.
func forEachRef(d dashboard.Document, fn func(path string, c dashboard.ContentRef)) {
	if p := d.Curated.UpNext.Primary; p != nil {
		fn("up_next", *p)
	}
	for i, a := range d.Curated.UpNext.Alternates {
		fn(fmt.Sprintf("alternates[%d]", i), a)
	}
	for i, p := range d.Curated.PlaylistSuggestion {
		fn(fmt.Sprintf("playlist[%d]", i), p)
	}
}

type pathText struct{ path, text string }

// coachTexts are the coach's words: briefing, CTAs, prompts, feedback.
func coachTexts(d dashboard.Document) []pathText {
	out := []pathText{{"briefing", d.Coach.Briefing}}
	for i, c := range d.Coach.CTA {
		out = append(out, pathText{fmt.Sprintf("cta[%d]", i), c.Message})
	}
	for i, p := range d.Coach.Prompts {
		out = append(out, pathText{fmt.Sprintf("prompts[%d]", i), p.Question})
		for j, o := range p.Options {
			out = append(out, pathText{fmt.Sprintf("prompts[%d].options[%d]", i, j), o})
		}
	}
	for i, f := range d.Coach.Feedback {
		out = append(out, pathText{fmt.Sprintf("feedback[%d]", i), f})
	}
	return out
}

// coachFigures are the numbers stated in the coach's words.
func coachFigures(d dashboard.Document, facts *Numbers) []Figure {
	var out []Figure
	for _, t := range coachTexts(d) {
		out = append(out, figuresIn(t.path, t.text, facts)...)
	}
	return out
}

var (
	saysNoMeals   = regexp.MustCompile(`(?i)\bno (meals?|food)\b|\bnothing (logged|eaten)\b|\bforgot to log\b`)
	saysNoWeighIn = regexp.MustCompile(`(?i)\bno weigh-?in\b|\bstep on the scale\b|\bweigh (yourself|in)\b|\bfirst weigh-?in\b`)
)

// staleCTAs reports calls to action for gaps the data already fills. A gap
// is filled when: a weigh-in was made today or yesterday (any weigh-in
// CTA); meals were logged yesterday (a CTA about yesterday's meals, or any
// CTA saying no meals); a workout was logged today or yesterday (a log-a-workout
// CTA); Up Next was already finished today, or there is none (play Up Next).
func staleCTAs(d dashboard.Document, t Truth) []string {
	var out []string
	for i, c := range d.Coach.CTA {
		why := ""
		// What the CTA asks for is its subject fields (the words are graded
		// too: a plan must not say a gap that is filled, whatever the fields).
		s := c.Subject()
		switch {
		case (s.Record == dashboard.RecordWeight || saysNoWeighIn.MatchString(c.Message)) && t.WeighInsRecent > 0:
			why = "the member weighed in today or yesterday"
		case (s.Record == dashboard.RecordMeal && s.Day == dashboard.DayYesterday || saysNoMeals.MatchString(c.Message)) &&
			t.MealsYesterday > 0:
			why = fmt.Sprintf("%d meals were logged yesterday", t.MealsYesterday)
		case s.Record == dashboard.RecordWorkout && t.WorkoutsRecent > 0:
			why = "a workout was logged today or yesterday"
		case c.Action == dashboard.ActionPlayUpNext && d.Curated.UpNext.Primary == nil:
			why = "there is no Up Next to play"
		case c.Action == dashboard.ActionPlayUpNext && t.FinishedToday[d.Curated.UpNext.Primary.ContentID]:
			why = "Up Next was already finished today"
		}
		if why != "" {
			out = append(out, fmt.Sprintf("cta[%d] %q: %s", i, c.Message, why))
		}
	}
	return out
}
