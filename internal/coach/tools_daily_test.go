package coach

import (
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// The day's summary carries the day's steps and sleep when a sensor
// reported them, with where they came from; a member without them gets
// no such keys (the prompt does not grow).
func TestHealthSummaryHasStepsAndSleepWithTheirSource(t *testing.T) {
	f := newFixture(t, fixtureOpts{empty: true})
	f.member(health.Member{ID: "ada"})
	f.member(health.Member{ID: "bob"})
	day := f.clk.Now().Format(time.DateOnly)
	at := store.FormatTime(f.at(0, 7))
	for _, q := range []string{
		`INSERT INTO daily_figures (member_id, day, kind, value, unit, measured_at, source, source_key, created_at)
			VALUES ('ada', ?, 'steps', 8400, 'steps', ?, 'homeassistant', 'd|steps|x', ?)`,
		`INSERT INTO daily_figures (member_id, day, kind, value, unit, measured_at, source, source_key, created_at)
			VALUES ('ada', ?, 'sleep', 7.75, 'h', ?, 'homeassistant', 'd|sleep|x', ?)`,
	} {
		if _, err := f.db.Write.Exec(q, day, at, at); err != nil {
			t.Fatal(err)
		}
	}
	s := f.tool("ada", "get_health_summary", map[string]any{"date": nil}).(map[string]any)
	steps, ok := s["steps"].(DailyFigureView)
	if !ok || steps.Value != 8400 || steps.Unit != "steps" || steps.Source != "Home Assistant" {
		t.Errorf("steps = %#v", s["steps"])
	}
	if sleep, ok := s["sleep"].(DailyFigureView); !ok || sleep.Value != 7.8 || sleep.Unit != "h" || sleep.Source != "Home Assistant" {
		t.Errorf("sleep = %#v", s["sleep"])
	}
	b := f.tool("bob", "get_health_summary", map[string]any{"date": nil}).(map[string]any)
	if _, has := b["steps"]; has {
		t.Errorf("bob has no sensors but got steps: %#v", b)
	}
	if _, has := b["sleep"]; has {
		t.Errorf("bob has no sensors but got sleep: %#v", b)
	}
}
