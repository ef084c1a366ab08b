package coach

import (
	"math"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// Content reasons the heuristic uses in curated content.
const (
	ReasonProgramDay    = "program_day"
	ReasonRestDay       = "rest_day_option"
	ReasonLight         = "light_option"
	ReasonLighter       = "lighter_option"
	ReasonDifferentKind = "different_kind"
	ReasonVariety       = "variety_pick"
	ReasonDiscover      = "discover_program"
	ReasonPreview       = "program_preview"
	ReasonStarter       = "starter_session"
)

// planner builds a dashboard without a model from the gathered facts:
// deterministic for the same data, date and member (choices rotate by date).
type planner struct {
	g    *Gathered
	mem  *agent.Memory
	used map[string]bool
}

// plan is the heuristic coach: the embedded default and the fallback.
func plan(g *Gathered, mem *agent.Memory) dashboard.Document {
	p := &planner{g: g, mem: mem, used: map[string]bool{}}
	cur, primary := p.curated()
	doc := dashboard.Document{
		GeneratedAt: g.now.UTC().Truncate(time.Second),
		Curated:     cur,
		Coach: dashboard.Coach{
			Briefing: p.briefing(primary),
			CTA:      p.ctas(),
			Prompts:  p.prompts(),
			Feedback: p.feedback(),
		},
	}
	return doc
}

// remembered reports whether key is set by this run's updates or memory.
func (p *planner) remembered(key string) (string, bool) {
	for _, u := range p.g.Updates {
		if u.Kind == UpdateMemory && u.Key == key {
			return u.Value, true
		}
	}
	if p.mem == nil {
		return "", false
	}
	return p.mem.Get(key)
}

// takeItEasy reports whether the member said they are unwell or worn out,
// or asked for an easier week in their weekly review.
func (p *planner) takeItEasy() bool {
	_, unwell := p.remembered(keyUnwell)
	_, tired := p.remembered(keyRecovering)
	_, easier := p.remembered(keyEasierWeek)
	return unwell || tired || easier || p.recoveryDay()
}

// ref turns a menu entry into a content reference (exact catalog title and
// duration) and marks it used.
func (p *planner) ref(e content.MenuEntry, programContext, reason string) dashboard.ContentRef {
	p.used[e.ID] = true
	return dashboard.ContentRef{ContentID: e.ID, Title: e.Title, Duration: e.DurationMin, ProgramContext: programContext, Reason: reason}
}

// num prints a figure as the tools do: at most one decimal, no trailing zero.
func num(v float64) string { return health.Figure(v) }

// kcal prints a whole number with thousands separators: "1,640".
func kcal(v float64) string { return health.Thousands(math.Abs(v)) }

// shortDate renders a YYYY-MM-DD date as "Mon 16 Feb", with the year when
// it is not today's ("Mon 16 Feb 2025").
func shortDate(day string, today time.Time) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return health.CivilDayText(t, today)
}
