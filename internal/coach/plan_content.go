package coach

import (
	"slices"
	"strings"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/program"
)

// lightKinds are easy options for rest days and tired members.
var lightKinds = []string{content.KindYoga, content.KindStretch, content.KindMobility, content.KindRecovery, content.KindWalk}

// varietyKinds are the ad-hoc main sessions, in rotation order.
var varietyKinds = []string{content.KindStrength, content.KindCardio, content.KindYoga, content.KindHIIT, content.KindCore,
	content.KindPilates, content.KindDance, content.KindWalk, content.KindMain}

func isLight(k string) bool   { return slices.Contains(lightKinds, k) }
func isSupport(k string) bool { return k == content.KindWarmUp || k == content.KindCoolDown }

// candidates filters the menu (skipping used items) and rotates by the seed.
func (p *planner) candidates(keep func(content.MenuEntry) bool) []content.MenuEntry {
	var out []content.MenuEntry
	for _, e := range p.g.Menu {
		if !p.used[e.ID] && p.safe(e) && keep(e) {
			out = append(out, e)
		}
	}
	return rotate(out, p.g.seed)
}

// recentlyDone reports content finished in the last 7 days.
func (p *planner) recentlyDone(id string) bool {
	for _, c := range p.g.Training.Completed {
		if c.ContentID == id {
			return true
		}
	}
	return false
}

// curated picks Up Next, alternates and the playlist; it returns the primary.
func (p *planner) curated() (dashboard.Curated, *content.MenuEntry) {
	cur := dashboard.Curated{UpNext: dashboard.UpNext{Alternates: []dashboard.ContentRef{}},
		PlaylistSuggestion: []dashboard.ContentRef{}}
	prog := p.g.Program
	var primary *content.MenuEntry
	var extra []dashboard.ContentRef // alternates decided with the primary
	ctx := ""
	switch {
	case p.g.Gaps.Onboarding:
		primary = p.discovery()
		extra = p.programFirsts(2, ReasonDiscover)
	case p.backFromAbsence() && !(prog.HasProgram && prog.Today == string(program.DayTraining)):
		primary = p.restart()
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil && !p.safe(*prog.Item):
		// Today's session would load an injured area: a safe pick instead.
		primary = p.variety()
	case prog.HasProgram && prog.Today == string(program.DayTraining) && prog.Item != nil:
		ctx = prog.Title + " · " + prog.Week
		if p.takeItEasy() {
			primary = p.light(0)
			extra = []dashboard.ContentRef{p.ref(*prog.Item, ctx, ReasonProgramDay)}
			ctx = ""
		} else {
			primary = prog.Item
		}
	case prog.HasProgram && prog.Today == string(program.DayRest):
		primary = p.light(0)
		ctx = "Rest day · " + prog.Title
	case prog.HasProgram && prog.Today == string(program.DayNotStarted) && prog.Item != nil:
		primary = p.variety()
		if p.safe(*prog.Item) {
			extra = []dashboard.ContentRef{p.ref(*prog.Item, prog.Title+" · starts "+p.g.dateText(prog.StartDate), ReasonPreview)}
		}
	case prog.HasProgram && prog.Today == string(program.DayCompleted):
		primary = p.variety()
		extra = p.programFirsts(1, ReasonDiscover)
	default: // no program, or paused
		switch {
		case p.takeItEasy():
			primary = p.light(0)
		case p.g.goalKind() != "" && !p.trainedLately(p.g.goalKind()):
			// The goal drives the plan: its kind first, its program offered.
			extra = p.goalProgramFirst()
			if primary = p.goalPick(); primary == nil {
				primary = p.variety()
			}
		default:
			primary = p.variety()
		}
	}
	if primary == nil {
		return cur, nil
	}
	reason := p.primaryReason(primary)
	main := p.ref(*primary, ctx, reason)
	cur.UpNext.Primary = &main
	cur.UpNext.Alternates = append(cur.UpNext.Alternates, extra...)
	if len(cur.UpNext.Alternates) < 2 {
		if e := p.lighter(*primary); e != nil {
			cur.UpNext.Alternates = append(cur.UpNext.Alternates, p.ref(*e, "", ReasonLighter))
		}
	}
	if len(cur.UpNext.Alternates) < 2 {
		if e := p.differentKind(*primary, cur.UpNext.Alternates); e != nil {
			cur.UpNext.Alternates = append(cur.UpNext.Alternates, p.ref(*e, "", ReasonDifferentKind))
		}
	}
	if p.g.Walking != nil {
		// A member who only walks: the other walks are the alternates.
		for _, e := range p.candidates(func(e content.MenuEntry) bool { return e.Kind == content.KindWalk }) {
			if len(cur.UpNext.Alternates) < 2 {
				cur.UpNext.Alternates = append(cur.UpNext.Alternates, p.ref(e, "", ReasonVariety))
			}
		}
	}
	cur.PlaylistSuggestion = p.playlist(main)
	return cur, primary
}

func (p *planner) primaryReason(e *content.MenuEntry) string {
	prog := p.g.Program
	switch {
	case p.g.Gaps.Onboarding:
		return ReasonStarter
	case prog.Item != nil && e.ID == prog.Item.ID && prog.Today == string(program.DayTraining):
		return ReasonProgramDay
	case prog.HasProgram && prog.Today == string(program.DayRest):
		return ReasonRestDay
	case p.takeItEasy():
		return ReasonLight
	}
	return ReasonVariety
}

// discovery is a first session for a new member: a "main" starter, else a
// short session of an approachable kind.
func (p *planner) discovery() *content.MenuEntry {
	for _, keep := range []func(content.MenuEntry) bool{
		func(e content.MenuEntry) bool { return e.Kind == content.KindMain && e.Program == "" },
		func(e content.MenuEntry) bool {
			return e.Program == "" && e.DurationMin <= 25 && !isSupport(e.Kind) && e.Kind != content.KindStretch
		},
		func(e content.MenuEntry) bool { return !isSupport(e.Kind) },
	} {
		if c := p.candidates(keep); len(c) > 0 {
			return &c[0]
		}
	}
	return nil
}

// light is an easy session (at most 30 minutes, standalone first), skipping
// n candidates.
func (p *planner) light(n int) *content.MenuEntry {
	c := p.candidates(func(e content.MenuEntry) bool {
		return isLight(e.Kind) && e.DurationMin <= 30 && !p.recentlyDone(e.ID) && e.Program == ""
	})
	if len(c) == 0 {
		c = p.candidates(func(e content.MenuEntry) bool { return isLight(e.Kind) && e.DurationMin <= 30 })
	}
	if len(c) == 0 {
		c = p.candidates(func(e content.MenuEntry) bool { return !isSupport(e.Kind) })
	}
	if len(c) <= n {
		return nil
	}
	return &c[n]
}

// variety is an ad-hoc pick: a kind not trained lately, by rotation (for
// a member who only walks, the walk nearest their progression).
func (p *planner) variety() *content.MenuEntry {
	if w := p.walkPick(); w != nil {
		return w
	}
	recent := map[string]bool{}
	for _, w := range p.g.Training.Recent {
		recent[strings.ToLower(w.Type)] = true
	}
	for _, c := range p.g.Training.Completed {
		if e, ok := p.g.byID[c.ContentID]; ok {
			recent[e.Kind] = true
		}
	}
	kinds := rotate(varietyKinds, p.g.seed)
	for _, fresh := range []bool{true, false} {
		for _, k := range kinds {
			if fresh && recent[k] {
				continue
			}
			c := p.candidates(func(e content.MenuEntry) bool {
				return e.Kind == k && e.Program == "" && !p.recentlyDone(e.ID)
			})
			if len(c) > 0 {
				return &c[0]
			}
		}
	}
	return p.discovery()
}

// lighter is a shorter, easier option than e.
func (p *planner) lighter(e content.MenuEntry) *content.MenuEntry {
	c := p.candidates(func(x content.MenuEntry) bool {
		return isLight(x.Kind) && x.DurationMin < e.DurationMin && x.Kind != e.Kind
	})
	if len(c) == 0 {
		c = p.candidates(func(x content.MenuEntry) bool { return !isSupport(x.Kind) && x.DurationMin < e.DurationMin })
	}
	if len(c) == 0 {
		return nil
	}
	return &c[0]
}

// differentKind is a session of another kind than e and the alternates
// already chosen (light ones only on rest days or when the member takes it
// easy).
func (p *planner) differentKind(e content.MenuEntry, chosen []dashboard.ContentRef) *content.MenuEntry {
	easy := (p.takeItEasy() && p.g.mutant != MutantAnyAlternate) || p.g.Program.Today == string(program.DayRest)
	taken := map[string]bool{e.Kind: true}
	for _, r := range chosen {
		if x, ok := p.g.byID[r.ContentID]; ok {
			taken[x.Kind] = true
		}
	}
	c := p.candidates(func(x content.MenuEntry) bool {
		return !taken[x.Kind] && !isSupport(x.Kind) && (!easy || isLight(x.Kind)) && x.Program == ""
	})
	if len(c) == 0 {
		return nil
	}
	return &c[0]
}

// programFirsts offers the first sessions of up to n programs.
func (p *planner) programFirsts(n int, reason string) []dashboard.ContentRef {
	var out []dashboard.ContentRef
	for _, pr := range rotate(p.g.Programs, p.g.seed) {
		if len(out) == n {
			break
		}
		if pr.First == nil || p.used[pr.First.ID] || pr.ID == p.g.Program.ProgramID || !p.safe(*pr.First) {
			continue
		}
		out = append(out, p.ref(*pr.First, pr.Title+" · "+content.WeekLabel(1), reason))
	}
	return out
}

// playlist stacks a warm-up, the main session and a cool-down, matching
// the warm-up and cool-down to the session's kind where the catalog can.
func (p *planner) playlist(main dashboard.ContentRef) []dashboard.ContentRef {
	kind := ""
	if e, ok := p.g.byID[main.ContentID]; ok {
		kind = e.Kind
	}
	// Title words that suit the session, for the warm-up then the cool-down.
	words := map[string][]string{
		content.KindStrength: {"strength", "lift"}, content.KindCardio: {"cardio", "walk"}, content.KindHIIT: {"cardio", "walk"},
		content.KindDance: {"cardio", "walk"}, content.KindWalk: {"cardio", "walk"}, content.KindYoga: {"joint", "breath"},
		content.KindMain: {"full-body", "walk"}, content.KindCore: {"full-body", "breath"}, content.KindPilates: {"joint", "breath"},
		content.KindStretch: {"joint", "breath"}, content.KindMobility: {"joint", "breath"}, content.KindRecovery: {"joint", "breath"},
	}[kind]
	support := func(k string) *content.MenuEntry {
		c := p.candidates(func(e content.MenuEntry) bool { return e.Kind == k })
		for _, w := range words {
			for _, e := range c {
				if strings.Contains(strings.ToLower(e.Title), w) {
					return &e
				}
			}
		}
		if len(c) == 0 {
			return nil
		}
		return &c[0]
	}
	out := []dashboard.ContentRef{}
	if !isSupport(kind) {
		if w := support(content.KindWarmUp); w != nil {
			out = append(out, p.ref(*w, "", "warm_up"))
		}
	}
	out = append(out, dashboard.ContentRef{ContentID: main.ContentID, Title: main.Title, Duration: main.Duration,
		ProgramContext: main.ProgramContext, Reason: "main"})
	cool := support(content.KindCoolDown)
	if cool == nil {
		cool = support(content.KindStretch)
	}
	if cool != nil && !isSupport(kind) {
		out = append(out, p.ref(*cool, "", "cool_down"))
	}
	return out
}
