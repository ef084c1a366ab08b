package coach

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/content"
)

// A member who says they only walk ("no gym classes, I only walk") gets
// walks, and a walking progression: a little longer each week toward the
// WHO's 150 minutes a week (README.md, "The coach's judgement"). The
// preference is kept under preference:walking-only for preferenceTTL.
const (
	keyWalkingOnly = keyPreference + "walking-only"
	preferenceTTL  = 90 * 24 * time.Hour

	// WalkStepMin: each walk target is this much longer than the longest
	// walk of the last walkLookbackDays; WalkStartMin with none yet,
	// WalkMaxMin at most. WalkWeekMin is the weekly aim.
	WalkStepMin      = 5
	WalkStartMin     = 20
	WalkMaxMin       = 60
	WalkWeekMin      = 150
	walkLookbackDays = 14
)

var (
	reWalkingOnly = regexp.MustCompile(`\b(?:only|just)\s+(?:want\s+to\s+|like\s+to\s+|do\s+)?walk(?:s|ing)?\b|\bwalk(?:s|ing)?\s+only\b|` +
		`\bnothing\s+but\s+walk(?:s|ing)?\b|\bstick(?:ing)?\s+to\s+walk(?:s|ing)\b`)
	reMoreThanWalking = regexp.MustCompile(`\b(?:not|no\s+longer)\s+(?:just|only)\s+walk|\bmore\s+than\s+(?:just\s+)?walk|\btry\s+(?:other|something\s+else|new)\b`)
)

// preferencesSaid finds how the member likes to train in text (known: the
// preference keys memory holds, which text can take back).
func preferencesSaid(text, day, note string, known []string) []Update {
	low := strings.ToLower(strings.Join(strings.Fields(text), " "))
	if reMoreThanWalking.MatchString(low) {
		if slices.Contains(known, keyWalkingOnly) {
			return []Update{{Kind: UpdateForget, Key: keyWalkingOnly, Note: note}}
		}
		return nil
	}
	for _, ix := range reWalkingOnly.FindAllStringIndex(low, -1) {
		if !reNotCondition.MatchString(low[:ix[0]]) && !aboutSomeoneElse(low, ix[0]) {
			return []Update{memoryUpdate(keyWalkingOnly, "only walks (said "+day+")", preferenceTTL, note)}
		}
	}
	return nil
}

// WalkPlan is the walking progression of a member who only walks.
type WalkPlan struct {
	// LongestMin is the longest walk of the last walkLookbackDays (0: none).
	LongestMin float64 `json:"longest_recent_walk_min,omitempty"`
	// TodayMin is today's walk; StepMin what each week adds; WeekMin the
	// weekly aim.
	TodayMin int `json:"today_min"`
	StepMin  int `json:"weekly_step_min"`
	WeekMin  int `json:"week_target_min"`
}

// walkPlan is the progression from the member's recent walks.
func (g *Gathered) walkPlan() *WalkPlan {
	if !g.Safety.OnlyWalks {
		return nil
	}
	from := g.civil.AddDate(0, 0, -walkLookbackDays).Format(time.DateOnly)
	w := &WalkPlan{TodayMin: WalkStartMin, StepMin: WalkStepMin, WeekMin: WalkWeekMin}
	for _, x := range g.Training.Recent {
		if x.Date >= from && strings.Contains(strings.ToLower(x.Type+" "+x.Title), "walk") {
			w.LongestMin = max(w.LongestMin, x.DurationMin)
		}
	}
	if w.LongestMin > 0 {
		// The next step on from the longest walk, in whole 5 minutes.
		w.TodayMin = min(WalkMaxMin, int(math.Ceil(w.LongestMin/WalkStepMin))*WalkStepMin+WalkStepMin)
	}
	return w
}

// walkPick is the walk nearest today's target (nil: no walk on the menu).
func (p *planner) walkPick() *content.MenuEntry {
	w := p.g.Walking
	c := p.candidates(func(e content.MenuEntry) bool { return e.Kind == content.KindWalk })
	if w == nil || len(c) == 0 {
		return nil
	}
	best := c[0]
	for _, e := range c[1:] {
		if abs(e.DurationMin-w.TodayMin) < abs(best.DurationMin-w.TodayMin) {
			best = e
		}
	}
	return &best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// walkLine is the briefing's sentence about the walking progression.
func (p *planner) walkLine() string {
	w := p.g.Walking
	if w == nil {
		return ""
	}
	line := fmt.Sprintf("You only walk, so your plan is walks: %d minutes today", w.TodayMin)
	if w.LongestMin > 0 && w.TodayMin > int(w.LongestMin) {
		line += fmt.Sprintf(", %d more than your longest walk lately", w.TodayMin-int(w.LongestMin))
	}
	if w.TodayMin >= WalkMaxMin {
		return line + fmt.Sprintf("; keep your walks at that and aim for %d minutes a week.", w.WeekMin)
	}
	return line + fmt.Sprintf("; add %d minutes a week until you walk %d minutes a week.", w.StepMin, w.WeekMin)
}
