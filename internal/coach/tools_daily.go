package coach

import (
	"context"
	"math"
	"time"

	"hearth/internal/history"
)

// DailyFigureView is a day's steps or hours of sleep with where the figure
// came from ("Home Assistant": a sensor mapped in admin), so the coach can
// say so.
type DailyFigureView struct {
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Source string  `json:"source"`
}

// dailyFigures adds the day's steps and sleep, when known, to a summary
// (keys "steps" and "sleep"; absent when unknown, so a member without
// such sensors is summarised in as many tokens as before).
func (c *core) dailyFigures(ctx context.Context, out map[string]any, member string, day time.Time) error {
	d := day.In(c.loc).Format(time.DateOnly)
	figs, err := c.db.DailyFigures(ctx, member, d, d)
	if err != nil {
		return err
	}
	for _, f := range figs { // by kind, the latest measured last: it wins
		out[f.Kind] = DailyFigureView{Value: math.Round(f.Value*10) / 10, Unit: f.Unit, Source: history.SourceName(f.Source, "")}
	}
	return nil
}
