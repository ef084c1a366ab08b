package web

import (
	"fmt"
	"net/url"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/views"
)

// docView is what the curated and coach areas are built from: the member's
// newest document (nil when the coach has not run yet) and the live facts
// that decide what in it is stale.
type docView struct {
	member   health.Member
	stored   *dashboard.Stored
	today    string
	now      time.Time
	loc      *time.Location
	items    map[string]content.Item
	consumed map[string]bool // content finished since the document was prepared
	answers  map[string]dashboard.Answer
	memos    []dashboard.VoiceMemo
	// lastEntry is the newest entry time per kind: weight, meal, workout.
	lastEntry   map[string]time.Time
	transcribes bool
	canPrepare  bool // the coach can be asked to prepare today now
}

// since is when the document's day began or it was prepared, whichever is
// earlier: content finished after that is "done" for this document.
func (d docView) since() time.Time {
	y, m, dd := d.now.In(d.loc).Date()
	start := time.Date(y, m, dd, 0, 0, 0, 0, d.loc)
	if d.stored == nil {
		return start
	}
	if t, err := time.ParseInLocation(time.DateOnly, d.stored.Day, d.loc); err == nil {
		start = t
	}
	if g := d.generatedAt(); !g.IsZero() && g.Before(start) {
		return g
	}
	return start
}

func (d docView) generatedAt() time.Time {
	if d.stored == nil {
		return time.Time{}
	}
	if !d.stored.Document.GeneratedAt.IsZero() {
		return d.stored.Document.GeneratedAt
	}
	return d.stored.CreatedAt
}

// chip is the provenance of the curated and coach areas.
func (d docView) chip() views.Chip {
	if d.stored == nil {
		return views.Chip{Text: "not prepared yet", Stale: true}
	}
	at := d.generatedAt().In(d.loc)
	src := ""
	if d.stored.Sources != "" {
		src = " · from " + d.stored.Sources
	}
	if d.stored.Day == d.today {
		return views.Chip{Text: "prepared " + at.Format("15:04") + src}
	}
	if t, err := time.ParseInLocation(time.DateOnly, d.stored.Day, d.loc); err == nil && health.DaysAgo(t, d.now, d.loc) == 1 {
		return views.Chip{Text: "yesterday's · prepared " + at.Format("Mon 15:04") + src, Stale: true}
	}
	return views.Chip{Text: "from " + d.stored.Day + src, Stale: true}
}

func contentHref(id, member string) string {
	h := "/content/" + url.PathEscape(id)
	if member != "" {
		h += "?m=" + url.QueryEscape(member)
	}
	return h
}

// card resolves a document reference against the catalog; ok is false for
// ids the catalog does not hold (never shown: nothing to play).
func (d docView) card(ref dashboard.ContentRef) (views.ContentCard, bool) {
	it, ok := d.items[ref.ContentID]
	if !ok {
		return views.ContentCard{}, false
	}
	c := itemCard(it, d.member.ID)
	c.Context = ref.ProgramContext
	return c, true
}

func itemCard(it content.Item, member string) views.ContentCard {
	c := views.ContentCard{ID: it.ID, Title: it.Title, Duration: fmt.Sprintf("%d min", it.DurationMin),
		Kind: it.Kind, Thumb: it.Thumbnail, Href: contentHref(it.ID, member)}
	if it.Day > 0 {
		c.Context = content.WeekLabel(it.Day)
	}
	return c
}

func (d docView) curated(discover []content.Item) views.CuratedArea {
	a := views.CuratedArea{Chip: d.chip(), HasDoc: d.stored != nil}
	if d.stored == nil {
		for _, it := range discover {
			a.Discover = append(a.Discover, itemCard(it, d.member.ID))
		}
		return a
	}
	cur := d.stored.Document.Curated
	if p := cur.UpNext.Primary; p != nil {
		if c, ok := d.card(*p); ok {
			if d.consumed[p.ContentID] {
				a.UpNextDone = c.Title
			} else {
				a.UpNext = &c
			}
		}
	}
	for _, alt := range cur.UpNext.Alternates {
		if c, ok := d.card(alt); ok && !d.consumed[alt.ContentID] {
			a.Alternates = append(a.Alternates, c)
		}
	}
	total := 0
	for _, s := range cur.PlaylistSuggestion {
		if c, ok := d.card(s); ok {
			a.Suggestion = append(a.Suggestion, c)
			total += d.items[s.ContentID].DurationMin
		}
	}
	if total > 0 {
		a.SuggestMin = fmt.Sprintf("%d min", total)
	}
	return a
}

// ctaSheet maps a CTA action to the logging sheet it opens and the button
// label; data-gap CTAs of these actions go stale once such an entry exists.
var ctaSheet = map[string]struct{ sheet, label, kind string }{
	dashboard.ActionOpenWeight:    {"weight", "Log weight", "weight"},
	dashboard.ActionOpenNutrition: {"meal", "Log a meal", "meal"},
	dashboard.ActionOpenWorkout:   {"workout", "Log a workout", "workout"},
}

func (d docView) coach(upNext *views.ContentCard) views.CoachArea {
	a := views.CoachArea{MemberID: d.member.ID, Chip: d.chip(), HasDoc: d.stored != nil, Transcribes: d.transcribes,
		CanPrepare: d.canPrepare && (d.stored == nil || d.stored.Day != d.today)}
	if d.stored == nil {
		a.Onboarding = true
		a.Briefing = greeting(d.member.Name, d.now.In(d.loc))
		a.CTAs = d.onboardingCTAs()
		return a
	}
	doc := d.stored.Document.Coach
	a.Briefing = doc.Briefing
	gen := d.generatedAt()
	for _, c := range doc.CTA {
		if m, ok := ctaSheet[c.Action]; ok {
			if c.Type == dashboard.CTADataGap && d.lastEntry[m.kind].After(gen) {
				continue // the gap was filled after the coach wrote this
			}
			a.CTAs = append(a.CTAs, views.CTAView{Message: c.Message, Label: m.label, Sheet: m.sheet})
			continue
		}
		if c.Action == dashboard.ActionPlayUpNext {
			if upNext != nil {
				a.CTAs = append(a.CTAs, views.CTAView{Message: c.Message, Label: "▶ Play", Href: upNext.Href})
			}
			continue
		}
		a.CTAs = append(a.CTAs, views.CTAView{Message: c.Message})
	}
	memoState := map[string]string{}
	for _, m := range d.memos { // newest first
		if m.Day >= d.stored.Day && memoState[m.PromptID] == "" {
			memoState[m.PromptID] = m.Status
		}
	}
	for _, p := range doc.Prompts {
		pv := views.PromptView{ID: p.ID, Type: p.Type, Question: p.Question, Options: p.Options}
		if ans, ok := d.answers[p.ID]; ok {
			pv.Answer, pv.AnswerVia = ans.Answer, ans.Kind
		} else if s := memoState[p.ID]; s == "stored" || s == "failed" {
			pv.Voice = s
		}
		a.Prompts = append(a.Prompts, pv)
	}
	a.Feedback = doc.Feedback
	return a
}

// onboardingCTAs are data-habit nudges from live state, shown until the
// coach's first document exists.
func (d docView) onboardingCTAs() []views.CTAView {
	var out []views.CTAView
	if d.lastEntry["weight"].IsZero() {
		out = append(out, views.CTAView{Message: "Step on the scale: one weigh-in starts your trend.", Label: "Log weight", Sheet: "weight"})
	}
	if t := d.lastEntry["meal"]; t.IsZero() || health.DaysAgo(t, d.now, d.loc) > 0 {
		out = append(out, views.CTAView{Message: "Log today's meals to see them against your targets.", Label: "Log a meal", Sheet: "meal"})
	}
	if t := d.lastEntry["workout"]; t.IsZero() || health.DaysAgo(t, d.now, d.loc) > 7 {
		out = append(out, views.CTAView{Message: "Log your last workout, or pick something short from Up next.", Label: "Log a workout", Sheet: "workout"})
	}
	return out
}

func greeting(name string, now time.Time) string {
	part := "Good evening"
	switch h := now.Hour(); {
	case h < 5:
		part = "Hello"
	case h < 12:
		part = "Good morning"
	case h < 18:
		part = "Good afternoon"
	}
	return part + ", " + name + "! I'm your coach."
}
