package coach

import (
	"slices"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/dashboard"
)

// TestWalkingOnlyInWhatWasSaid: "I only walk" in any of its common forms
// is kept as preference:walking-only; "more than just walking" takes it
// back.
func TestWalkingOnlyInWhatWasSaid(t *testing.T) {
	for _, c := range []struct {
		text  string
		known []string
		want  []string
	}{
		{"No gym classes for me, I only walk", nil, []string{"remember:preference:walking-only=only walks (said d)"}},
		{"I just want to walk, honestly", nil, []string{"remember:preference:walking-only=only walks (said d)"}},
		{"walking only please", nil, []string{"remember:preference:walking-only=only walks (said d)"}},
		{"I like to walk the dog in the evening", nil, nil},
		{"my husband only walks", nil, nil},
		{"I'd like to do more than just walking now", []string{keyWalkingOnly}, []string{"forget:preference:walking-only="}},
	} {
		var got []string
		for _, u := range preferencesSaid(c.text, "d", "", c.known) {
			got = append(got, u.Kind+":"+u.Key+"="+u.Value)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// TestWalkingProgression: the next walk is 5 minutes on from the longest
// walk of the last two weeks (20 with none, 60 at most), and only walks
// are picked; the briefing says the plan.
func TestWalkingProgression(t *testing.T) {
	for _, c := range []struct {
		walks []WorkoutLine
		today int
		line  string
	}{
		{nil, 20, "You only walk, so your plan is walks: 20 minutes today; add 5 minutes a week until you walk 150 minutes a week."},
		{[]WorkoutLine{{Date: "2026-02-17", Type: "walk", DurationMin: 30}, {Date: "2026-02-15", Type: "Walking", DurationMin: 25}}, 35,
			"You only walk, so your plan is walks: 35 minutes today, 5 more than your longest walk lately; add 5 minutes a week until you walk 150 minutes a week."},
		{[]WorkoutLine{{Date: "2026-02-17", Type: "walk", DurationMin: 33}}, 40, "40 minutes today, 7 more than your longest walk lately"},
		{[]WorkoutLine{{Date: "2026-01-10", Type: "walk", DurationMin: 50}, {Date: "2026-02-16", Type: "cycling", DurationMin: 50}}, 20, "20 minutes today;"},
		{[]WorkoutLine{{Date: "2026-02-17", Type: "walk", DurationMin: 58}}, 60, "60 minutes today, 2 more than your longest walk lately; keep your walks at that and aim for 150 minutes a week."},
	} {
		g := sentenceFacts()
		walks := []content.MenuEntry{
			{ID: "local:walk-brisk-intervals", Title: "Brisk Walk Intervals", Kind: content.KindWalk, DurationMin: 25},
			{ID: "local:walk-recovery-guide", Title: "Recovery Walk Guide", Kind: content.KindWalk, DurationMin: 30}}
		for _, w := range walks {
			g.Menu = append(g.Menu, w)
			g.byID[w.ID] = w
		}
		g.Training.Recent = c.walks
		g.Safety.OnlyWalks = true
		g.Walking = g.walkPlan()
		if g.Walking.TodayMin != c.today {
			t.Errorf("%v: today %d min, want %d", c.walks, g.Walking.TodayMin, c.today)
		}
		g.Gaps = gapsOf(g)
		d := plan(g, nil)
		if !strings.Contains(d.Coach.Briefing, c.line) {
			t.Errorf("briefing %q\nwant it to say %q", d.Coach.Briefing, c.line)
		}
		forEachPick(d, func(r dashboard.ContentRef) {
			if e := g.byID[r.ContentID]; e.Kind != content.KindWalk && !isSupport(e.Kind) {
				t.Errorf("%s (%s) picked for a member who only walks", r.Title, e.Kind)
			}
		})
		if p := d.Curated.UpNext.Primary; p == nil || g.byID[p.ContentID].Kind != content.KindWalk {
			t.Errorf("Up Next %+v, want a walk", p)
		}
		if a := d.Curated.UpNext.Alternates; len(a) != 1 || g.byID[a[0].ContentID].Kind != content.KindWalk {
			t.Errorf("alternates %+v, want the other walk", a)
		}
	}
}
