package kiosk

import (
	"math"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/live"
)

func trendPoints(days int, today time.Time, kg func(i int) float64) []health.TrendPoint {
	var ps []health.TrendPoint
	for i := days - 1; i >= 0; i-- {
		v := kg(days - 1 - i)
		raw := v + 0.3
		ps = append(ps, health.TrendPoint{Day: today.AddDate(0, 0, -i), RawKg: &raw, TrendKg: v})
	}
	return ps
}

func TestWeightChart(t *testing.T) {
	today := time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)
	ps := trendPoints(30, today, func(i int) float64 { return 82 - float64(i)*0.05 })
	goal := 80.0
	c := weightChart(ps, &goal, health.KG, widgetSpan(today, today), time.UTC)
	if c.Empty || len(c.Points) != 30 {
		t.Fatalf("empty=%v points=%d, want 30 dots", c.Empty, len(c.Points))
	}
	if !strings.HasPrefix(c.TrendPath, "M") || strings.Count(c.TrendPath, "L") != 29 {
		t.Fatalf("trend path %q: want M + 29 L segments", c.TrendPath)
	}
	// Oldest day on the left edge, today on the right; lower weight is lower on screen (larger y).
	if first, last := c.Points[0], c.Points[29]; first.X != chartLeft || last.X != chartW-chartRight || last.Y <= first.Y {
		t.Errorf("first %+v last %+v", first, last)
	}
	for _, p := range c.Points {
		if p.Y < chartTop || p.Y > chartH-chartBottom {
			t.Errorf("point %+v outside the plot", p)
		}
	}
	if c.Goal == nil || c.Goal.Off != "" || c.Goal.Y < chartTop || c.Goal.Y > chartH-chartBottom || c.Goal.Label != "goal 80 kg" {
		t.Fatalf("goal line %+v, want inside the plot", c.Goal)
	}
	if c.Goal.Y <= c.Points[29].Y {
		t.Error("goal below the data is drawn above it")
	}
	if len(c.YTicks) < 2 || len(c.XTicks) != 3 || c.XTicks[2].Label != "today" || c.XTicks[0].Label != "16 Jan" {
		t.Errorf("ticks y=%v x=%v", c.YTicks, c.XTicks)
	}

	// A distant goal is pinned to the edge instead of flattening the curve.
	far := 60.0
	c = weightChart(ps, &far, health.KG, widgetSpan(today, today), time.UTC)
	if c.Goal == nil || c.Goal.Off != "below" || c.Goal.Y != chartH-chartBottom || !strings.HasSuffix(c.Goal.Label, "↓") {
		t.Fatalf("far goal %+v, want pinned below", c.Goal)
	}

	// Pounds: labels and goal in the member's unit.
	c = weightChart(ps, &goal, health.LB, widgetSpan(today, today), time.UTC)
	if c.Goal.Label != "goal 176.4 lb" || !strings.Contains(c.Label, "lb") {
		t.Errorf("lb chart: goal %q label %q", c.Goal.Label, c.Label)
	}

	// A few points in a month: only those days, placed by date.
	few := trendPoints(3, today, func(int) float64 { return 70 })
	c = weightChart(few, nil, health.KG, widgetSpan(today, today), time.UTC)
	if len(c.Points) != 3 || c.Goal != nil || c.Points[2].X != chartW-chartRight || c.Points[0].X >= c.Points[2].X {
		t.Errorf("sparse chart: %+v goal %v", c.Points, c.Goal)
	}
	if c := weightChart(nil, &goal, health.KG, widgetSpan(today, today), time.UTC); !c.Empty {
		t.Error("no points: chart not empty")
	}
}

// Days without a weigh-in are a gap, not a line: the trend breaks where
// weigh-ins stop for longer than the span's GapDays and the stretch is
// shaded, the empty days up to today included (issue 35's flat line).
func TestWeightChartGaps(t *testing.T) {
	today := time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)
	var ps []health.TrendPoint
	for _, back := range []int{29, 28, 27, 12, 11} { // a 15-day break, then 11 days to today
		v := 80.0
		ps = append(ps, health.TrendPoint{Day: today.AddDate(0, 0, -back), RawKg: &v, TrendKg: v})
	}
	c := weightChart(ps, nil, health.KG, widgetSpan(today, today), time.UTC)
	if n := strings.Count(c.TrendPath, "M"); n != 2 {
		t.Errorf("trend path %q: %d runs, want 2 (broken at the 15-day gap)", c.TrendPath, n)
	}
	if len(c.Gaps) != 2 {
		t.Fatalf("gaps %+v, want the break and the days since the last weigh-in", c.Gaps)
	}
	if end := c.Gaps[1].X + c.Gaps[1].W; math.Abs(end-(chartW-chartRight)) > 0.2 {
		t.Errorf("last gap ends at %v, want the right edge (today)", end)
	}

	// A chart ending on an old last weigh-in is dated with its year.
	lastDay := time.Date(2024, 3, 14, 7, 0, 0, 0, time.UTC)
	old := trendPoints(30, lastDay, func(i int) float64 { return 84 })
	c = weightChart(old, nil, health.KG, widgetSpan(lastDay, today), time.UTC)
	if len(c.Points) != 30 || c.XTicks[0].Label != "14 Feb 2024" || c.XTicks[2].Label != "14 Mar 2024" {
		t.Errorf("old chart: %d points, ticks %+v", len(c.Points), c.XTicks)
	}
	if !strings.Contains(c.Label, "14 Mar 2024") {
		t.Errorf("label %q lacks the dated end", c.Label)
	}
}

func TestAffectedWidgets(t *testing.T) {
	cases := []struct {
		topic, kind string
		data        any
		want        widgets
	}{
		{"member:ada", "weight", nil, wWeight | wBody | wCoach},
		{"member:ada", "meal", nil, wNutrition | wCoach},
		{"member:ada", "answer", "p1", wCoach},
		{"member:ada", "playlist", nil, wPlaylist},
		{"member:ada", "dashboard", nil, wCurated | wCoach | wPlaylist},
		{"member:ada", "something-new", nil, wAll},
		{"household", "weight", "bo", wTiles},
		{"household", "meal", "bo", 0},
		{"household", "privacy", "bo", wHead | wTiles},
		{"household", "member", "bo", wHead | wTiles},
		{"household", "layout", "tv", wLayout},
		{"member:ada", "run", nil, 0},
		{"member:ada", "notify", nil, 0},
		{"member:ada", "import", nil, wData},
		{"member:ada", "privacy", "ada", wHead},
	}
	for _, c := range cases {
		if got := affected(liveEvent(c.topic, c.kind, c.data), "ada"); got != c.want {
			t.Errorf("%s/%s: %b, want %b", c.topic, c.kind, got, c.want)
		}
	}
}

// Every kind a writer can publish is mapped on purpose, not by the
// re-render-everything default.
func TestEveryKindMapped(t *testing.T) {
	for _, k := range live.Kinds {
		if _, ok := memberWidgets[k]; !ok {
			t.Errorf("kind %q has no entry in memberWidgets", k)
		}
	}
}

func liveEvent(topic, kind string, data any) live.Event {
	return live.Event{Topic: topic, Kind: live.Kind(kind), Data: data}
}
