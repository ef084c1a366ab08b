package coach

import (
	"testing"
	"time"

	"hearth/internal/health"
)

// A hard session is one whatever the member calls it.
func TestHardSessionsByAnyName(t *testing.T) {
	for typ, want := range map[string]bool{"hiit": true, "Boxing": true, "spin class": true, "hill sprints": true,
		"Strength": true, "kickboxing": true, "yoga": false, "walk": false, "stretching": false, "dance": false} {
		if got := isHard(health.Workout{Type: typ, DurationMin: 45}); got != want {
			t.Errorf("isHard(%q) = %v, want %v", typ, got, want)
		}
	}
	if !isHard(health.Workout{Type: "yoga", DurationMin: hardMinutes}) {
		t.Error("a session of an hour or more is hard whatever its type")
	}
}

// A weight moving away from the goal is seen over any span of two weeks or
// more, with or without a trend 30 days back.
func TestMovingAwayOverAnySpan(t *testing.T) {
	now := time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC)
	series := func(days int, from, to float64) []health.WeightReading {
		var rs []health.WeightReading
		for d := days; d >= 1; d-- {
			v := from + (to-from)*float64(days-d)/float64(days-1)
			rs = append(rs, health.WeightReading{MeasuredAt: now.AddDate(0, 0, -d).Add(3 * time.Hour), WeightKg: v})
		}
		return rs
	}
	view := func(goal, current float64, change30 *float64) WeightView {
		return WeightView{Unit: health.KG, Current: &current, Change30d: change30, Goal: GoalView{Goal: &goal}}
	}
	for _, c := range []struct {
		name string
		w    WeightView
		rs   []health.WeightReading
		want bool
	}{
		{"five weeks up, 30-day change", view(70, 74, f64(1.7)), series(35, 72, 74), true},
		{"three weeks up, no 30-day change", view(70, 73.5, nil), series(21, 72, 73.5), true},
		{"three weeks down toward the goal", view(70, 72, nil), series(21, 73.5, 72), false},
		{"three weeks down, away from a higher goal", view(60, 55, nil), series(21, 56.5, 55), true},
		{"ten days up: too short to say", view(70, 73, nil), series(10, 72, 73), false},
		{"three weeks flat", view(70, 73, nil), series(21, 73, 73.2), false},
		// Issue 32: 3 kg up in the last three weeks after a drop; the 30-day
		// change (+0.4, starting in the drop) is too small to say it.
		{"three weeks up after a drop", view(62, 69, f64(0.4)), append(series(60, 70, 66)[:39], series(21, 66, 69)...), true},
		{"half a kilo up in three weeks after a drop", view(62, 66.5, f64(0.1)), append(series(60, 70, 66)[:39], series(21, 66, 66.5)...), false},
	} {
		if got := movingAway(c.w, health.KG, c.rs, now); got != c.want {
			t.Errorf("%s: movingAway = %v, want %v", c.name, got, c.want)
		}
	}
}

// Two weeks of weigh-ins within half a kilo are flat whatever their slope;
// a steady loss past that is not; a wide band is not (issue 32: 15
// weigh-ins within 0.42 kg were not called flat).
func TestPlateauAsAPersonReadsIt(t *testing.T) {
	now := time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC)
	series := func(days int, from, to float64) []health.WeightReading {
		var rs []health.WeightReading
		for d := days; d >= 1; d-- {
			v := from + (to-from)*float64(days-d)/float64(days-1)
			rs = append(rs, health.WeightReading{MeasuredAt: now.AddDate(0, 0, -d).Add(3 * time.Hour), WeightKg: v})
		}
		return rs
	}
	zigzag := series(15, 66, 66)
	for i := range zigzag {
		zigzag[i].WeightKg += []float64{0.3, -0.3}[i%2]
	}
	for _, c := range []struct {
		name string
		rs   []health.WeightReading
		want bool
	}{
		{"15 weigh-ins within 0.42 kg, drifting down", series(15, 66.42, 66.0), true},
		{"level", series(15, 66, 66.05), true},
		{"a steady loss of 0.8 kg in two weeks", series(15, 66.8, 66.0), false},
		{"noisy within 0.6 kg around a level", zigzag, true},
		{"too few", series(3, 66, 66), false},
	} {
		if got := plateau(c.rs, now); got != c.want {
			t.Errorf("%s: plateau = %v, want %v", c.name, got, c.want)
		}
	}
}
