package importer

import (
	"fmt"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// Plausibility: an imported figure that the kiosk and the API would ask
// about (health.CheckWeight, health.CheckMeal) is imported as it is, with a
// warning in the report naming its line, so a typo in a file is found
// without losing the rest of it.

// plausibleWindow holds the weigh-ins a new one is compared with: the
// member's stored readings before the first one of the file, then the
// file's own (files are in time order, or merged in it).
type plausibleWindow struct {
	loaded   bool
	readings []health.WeightReading
}

// windowReadings is how many recent weigh-ins the window keeps.
const windowReadings = 64

func (w *writer) checkPlausible(r *record) error {
	switch r.kind {
	case recWeight:
		x := r.weight
		pw := &w.plausible
		if !pw.loaded {
			pw.loaded = true
			stored, err := store.All(w.ctx, w.q, func(row store.Scanner) (health.WeightReading, error) {
				var at string
				var rd health.WeightReading
				if err := row.Scan(&at, &rd.WeightKg); err != nil {
					return rd, err
				}
				var err error
				rd.MeasuredAt, err = store.ParseTime(at)
				return rd, err
			}, `SELECT measured_at, weight_kg FROM weight_readings WHERE member_id = ? AND measured_at >= ? AND measured_at < ?`,
				w.member, store.FormatTime(x.MeasuredAt.Add(-health.TrendWindow)), store.FormatTime(x.MeasuredAt))
			if err != nil {
				return fmt.Errorf("importer: weigh-ins before the file: %w", err)
			}
			pw.readings = stored
		}
		v := health.CheckWeight(x.WeightKg, x.MeasuredAt, 0, pw.readings, health.KG, time.UTC)
		switch {
		case !v.Plausible && v.Sudden:
			w.warn(Problem{Line: r.line, Element: r.label, Message: fmt.Sprintf("the weight %s on %s: %s; imported as it is; check it",
				health.KG.Format(x.WeightKg), x.MeasuredAt.UTC().Format(time.DateOnly), v.Message)})
		case !v.Plausible:
			w.warn(Problem{Line: r.line, Element: r.label, Message: fmt.Sprintf("the weight %s on %s is far from the trend around then (%s): imported as it is; check it",
				health.KG.Format(x.WeightKg), x.MeasuredAt.UTC().Format(time.DateOnly), health.KG.Format(v.TrendKg))})
		}
		if v.Plausible {
			// The next reading is judged against plausible ones only, as
			// the kiosk's check is (a typo is no one's last weigh-in).
			pw.readings = append(pw.readings, health.WeightReading{MeasuredAt: x.MeasuredAt, WeightKg: x.WeightKg})
		}
		if n := len(pw.readings); n >= 2*windowReadings {
			// Memory stays flat however long the file: the newest readings
			// are the trend (the window is 14 days; a file rarely has more
			// than a few a day).
			pw.readings = append(pw.readings[:0], pw.readings[n-windowReadings:]...)
		}
	case recMeal:
		if v := health.CheckMeal(r.meal.Calories); !v.Plausible {
			w.warn(Problem{Line: r.line, Element: r.label, Message: fmt.Sprintf("the meal %q on %s: %s; imported as it is; check it",
				r.meal.Name, r.meal.EatenAt.UTC().Format(time.DateOnly), v.Message)})
		}
	}
	return nil
}
