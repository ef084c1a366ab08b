package kiosk

import (
	"fmt"
	"net/url"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/views/kioskview"
)

// docView maps the member's dashboard.Today (the document with its
// staleness rules applied) to the curated and coach view models.
type docView struct {
	member health.Member
	// progItem and progDay are the member's program session for today and
	// its day ("Week 2, Day 4"): every card of that item says that day.
	progItem, progDay string
	today             dashboard.Today
	now               time.Time
	loc               *time.Location
	items             map[string]content.Item // the document's content in the catalog
	transcribes       bool
	canPrepare        bool // the coach can be asked to prepare today now
}

// chip is the provenance of the curated and coach areas.
func (d docView) chip() kioskview.Chip {
	st := d.today.Doc
	if st == nil {
		return kioskview.Chip{Text: "not prepared yet", Stale: true}
	}
	at := d.today.PreparedAt.In(d.loc)
	src := ""
	if st.Sources != "" {
		src = " · from " + st.Sources
	}
	if st.Day == d.today.Day {
		return kioskview.Chip{Text: "prepared " + at.Format("15:04") + src}
	}
	if t, err := time.ParseInLocation(time.DateOnly, st.Day, d.loc); err == nil && health.DaysAgo(t, d.now, d.loc) == 1 {
		return kioskview.Chip{Text: "yesterday's · prepared " + at.Format("Mon 15:04") + src, Stale: true}
	}
	return kioskview.Chip{Text: "from " + st.Day + src, Stale: true}
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
func (d docView) card(ref dashboard.ContentRef) (kioskview.ContentCard, bool) {
	it, ok := d.items[ref.ContentID]
	if !ok {
		return kioskview.ContentCard{}, false
	}
	c := itemCard(it, d.member.ID)
	c.Context = ref.ProgramContext
	if ref.ContentID == d.progItem && d.progDay != "" {
		c.Context = d.progDay // the program moved since the plan: say where it is now
	}
	return c, true
}

// itemCard is a catalog item as a card. It names no program day: the
// catalog's episode number is not the member's day (a program repeats
// sessions); withDay adds the member's.
func itemCard(it content.Item, member string) kioskview.ContentCard {
	return kioskview.ContentCard{ID: it.ID, Title: it.Title, Duration: fmt.Sprintf("%d min", it.DurationMin),
		Kind: it.Kind, Thumb: it.Thumbnail, Href: contentHref(it.ID, member)}
}

// withDay labels the card with the member's program day when it is their
// program session for today.
func withDay(c kioskview.ContentCard, item, day string) kioskview.ContentCard {
	if c.ID == item && day != "" {
		c.Context = day
	}
	return c
}

func (d docView) curated(discover []content.Item) kioskview.CuratedArea {
	t := d.today
	a := kioskview.CuratedArea{Chip: d.chip(), HasDoc: t.Doc != nil}
	if t.Doc == nil {
		for _, it := range discover {
			a.Discover = append(a.Discover, itemCard(it, d.member.ID))
		}
		return a
	}
	if t.UpNext != nil {
		if c, ok := d.card(*t.UpNext); ok {
			a.UpNext = &c
		}
	}
	if t.UpNextDone != nil {
		if c, ok := d.card(*t.UpNextDone); ok {
			a.UpNextDone = c.Title
		}
	}
	for _, alt := range t.Alternates {
		if c, ok := d.card(alt); ok {
			a.Alternates = append(a.Alternates, c)
		}
	}
	total := 0
	for _, s := range t.Suggestion {
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

// ctaSheet maps a CTA action to the logging sheet it opens and its label.
var ctaSheet = map[string]struct{ sheet, label string }{
	dashboard.ActionOpenWeight:    {"weight", "Log weight"},
	dashboard.ActionOpenNutrition: {"meal", "Log a meal"},
	dashboard.ActionOpenWorkout:   {"workout", "Log a workout"},
}

// ctaView is the CTA as the coach column shows it; one about a past day
// of the document's (docDay) opens its sheet dated on that day.
func ctaView(c dashboard.CTA, upNext *kioskview.ContentCard, docDay string) (kioskview.CTAView, bool) {
	if m, ok := ctaSheet[c.Action]; ok {
		return kioskview.CTAView{Message: c.Message, Label: m.label, Sheet: m.sheet, Day: c.MissingDay(docDay)}, true
	}
	if c.Action == dashboard.ActionPlayUpNext {
		if upNext == nil {
			return kioskview.CTAView{}, false
		}
		return kioskview.CTAView{Message: c.Message, Label: "▶ Play", Href: upNext.Href}, true
	}
	return kioskview.CTAView{Message: c.Message}, true
}

func (d docView) coach(upNext *kioskview.ContentCard) kioskview.CoachArea {
	t := d.today
	a := kioskview.CoachArea{MemberID: d.member.ID, Chip: d.chip(), HasDoc: t.Doc != nil, Transcribes: d.transcribes,
		CanPrepare: d.canPrepare && (t.Doc == nil || t.Doc.Day != t.Day)}
	ctas, docDay := t.CTAs, ""
	if t.Doc != nil {
		docDay = t.Doc.Day
	}
	if t.Doc == nil {
		a.Onboarding = true
		a.Briefing = greeting(d.member.Name, d.now.In(d.loc))
		ctas = t.Onboarding
	} else {
		a.Briefing, a.BriefingUpdated, a.Feedback = t.Briefing, t.BriefingUpdated, t.Feedback
	}
	for _, c := range ctas {
		if v, ok := ctaView(c, upNext, docDay); ok {
			a.CTAs = append(a.CTAs, v)
		}
	}
	for _, p := range t.Prompts {
		pv := kioskview.PromptView{ID: p.ID, Type: p.Type, Question: p.Question, Options: p.Options, Voice: p.Voice}
		if p.Answer != nil {
			pv.Answer, pv.AnswerVia = p.Answer.Answer, p.Answer.Kind
		}
		a.Prompts = append(a.Prompts, pv)
	}
	return a
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
