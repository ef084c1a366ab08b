package importer

import (
	"database/sql"
	"fmt"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// CSV rows are staged in import_staged by natural key, then merged into
// entries (stageMerge) and written through the ledger (ledger.go): a meal is
// the sum of its food rows, a Strong workout the group of its sets, and a
// corrected file updates the entries it changed. Staging keeps memory flat
// whatever the file's size; the rows go when the transaction ends.

const stageSQL = `INSERT INTO import_staged (import_id, nkey, ckey, line, at, s1, s2, s3, n1, n2, n3, n4, n5, n6)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`

// stage keeps a parsed CSV row; an exact repeat of a staged row is counted
// as repeated in the file.
func (w *writer) stage(r *record) error {
	if w.csvKind == 0 {
		w.csvKind, w.csvMerge, w.csvLabel = r.kind, r.merge, r.label
	}
	var at, s1, s2, s3 string
	var n [6]any
	switch r.kind {
	case recWeight:
		x := &r.weight
		at, n[0], n[1], n[2] = store.FormatTime(x.MeasuredAt), x.WeightKg, store.NullFloat(x.BodyFatPct), store.NullFloat(x.LeanMassKg)
	case recMeal:
		x := &r.meal
		at, s1, n[0], n[1], n[2], n[3] = store.FormatTime(x.EatenAt), x.Name, x.Calories, x.ProteinG, x.CarbsG, x.FatG
	case recWorkout:
		x := &r.workout
		at, s1, s2, s3 = store.FormatTime(x.StartedAt), x.Type, x.Title, x.ContentID
		n[0], n[1], n[2], n[3], n[4] = x.DurationMin, store.NullInt(x.AvgHR), store.NullInt(x.MaxHR),
			store.NullFloat(x.EnergyKcal), store.NullFloat(x.DistanceKm)
	default:
		return fmt.Errorf("importer: cannot stage record kind %d", r.kind)
	}
	res, err := w.q.ExecContext(w.ctx, stageSQL, w.importID, r.key, r.ckey, r.line, at, s1, s2, s3, n[0], n[1], n[2], n[3], n[4], n[5])
	if err != nil {
		return err
	}
	if k, err := res.RowsAffected(); err != nil {
		return err
	} else if k == 0 {
		w.sum.RepeatedInFile++
		w.sum.count(r.label, func(c *TypeCount) { c.Repeated++ })
		return nil
	}
	w.staged++
	return nil
}

// stagedRow is one row of import_staged.
type stagedRow struct {
	nkey, at, s1, s2, s3 string
	line                 int
	n                    [6]sql.NullFloat64
}

// finalizeCSV merges the staged rows of each natural key into an entry and
// writes it through the ledger, then empties the staging table.
func finalizeCSV(w *writer) error {
	if w.staged > 0 {
		if err := w.mergeStaged(); err != nil {
			return err
		}
	}
	if _, err := w.q.ExecContext(w.ctx, `DELETE FROM import_staged WHERE import_id = ?`, w.importID); err != nil {
		return fmt.Errorf("importer: clear staged rows: %w", err)
	}
	return nil
}

func (w *writer) mergeStaged() error {
	rows, err := w.q.QueryContext(w.ctx, `SELECT nkey, line, at, s1, s2, s3, n1, n2, n3, n4, n5, n6 FROM import_staged
		WHERE import_id = ? ORDER BY nkey, line`, w.importID)
	if err != nil {
		return fmt.Errorf("importer: read staged rows: %w", err)
	}
	defer rows.Close()
	var group []stagedRow
	entries := 0
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		entries++
		r, err := w.merged(group)
		group = group[:0]
		if err != nil {
			return err
		}
		return w.upsert(r)
	}
	for rows.Next() {
		var s stagedRow
		if err := rows.Scan(&s.nkey, &s.line, &s.at, &s.s1, &s.s2, &s.s3, &s.n[0], &s.n[1], &s.n[2], &s.n[3], &s.n[4], &s.n[5]); err != nil {
			return fmt.Errorf("importer: scan staged row: %w", err)
		}
		if len(group) > 0 && group[0].nkey != s.nkey {
			if err := flush(); err != nil {
				return err
			}
		}
		group = append(group, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("importer: read staged rows: %w", err)
	}
	if err := flush(); err != nil {
		return err
	}
	w.noteMerged(entries)
	return nil
}

// noteMerged says how rows became fewer entries.
func (w *writer) noteMerged(entries int) {
	if entries >= w.staged {
		return
	}
	switch {
	case w.csvMerge == mergeSession:
		w.note(fmt.Sprintf("grouped %d rows into %d workouts (one per session)", w.staged, entries))
	case w.csvKind == recMeal:
		w.note(fmt.Sprintf("added up %d rows into %d meals (one per date and meal name)", w.staged, entries))
	case w.csvKind == recWorkout:
		w.note(fmt.Sprintf("added up %d rows into %d workouts (one per start and type)", w.staged, entries))
	}
}

// merged builds one entry from the staged rows of a natural key.
func (w *writer) merged(g []stagedRow) (*record, error) {
	first, last := g[0], g[len(g)-1]
	r := &record{kind: w.csvKind, label: w.csvLabel, key: first.nkey, line: first.line}
	at, err := store.ParseTime(first.at)
	if err != nil {
		return nil, err
	}
	switch w.csvKind {
	case recWeight:
		if len(g) > 1 {
			w.correct("rows give different weigh-ins for the same time: the last row is kept", last.line,
				fmt.Sprintf("%d rows for %s", len(g), at.Format("2006-01-02 15:04 UTC")))
		}
		r.weight = health.WeightReading{MeasuredAt: at, WeightKg: last.n[0].Float64,
			BodyFatPct: store.FloatPtr(last.n[1]), LeanMassKg: store.FloatPtr(last.n[2])}
	case recMeal:
		m := health.Meal{EatenAt: at, Name: first.s1}
		for _, s := range g {
			if s.at < store.FormatTime(m.EatenAt) {
				if m.EatenAt, err = store.ParseTime(s.at); err != nil {
					return nil, err
				}
			}
			m.Calories += s.n[0].Float64
			m.ProteinG += s.n[1].Float64
			m.CarbsG += s.n[2].Float64
			m.FatG += s.n[3].Float64
		}
		r.meal = m
	case recWorkout:
		r.workout = mergeWorkouts(g, at, w.csvMerge)
	}
	return r, nil
}

// mergeWorkouts adds up rows of one start and type (mergeSum), or groups the
// sets of a session, whose duration every row repeats (mergeSession).
func mergeWorkouts(g []stagedRow, at time.Time, mode mergeMode) health.Workout {
	x := health.Workout{StartedAt: at, Type: g[0].s1, Title: g[0].s2, ContentID: g[0].s3}
	var hrSum, hrWeight float64
	for _, s := range g {
		d := s.n[0].Float64
		if mode == mergeSession {
			x.DurationMin = max(x.DurationMin, d)
		} else {
			x.DurationMin += d
		}
		if s.n[1].Valid {
			wt := max(d, 1)
			hrSum, hrWeight = hrSum+s.n[1].Float64*wt, hrWeight+wt
		}
		if s.n[2].Valid && (x.MaxHR == nil || int(s.n[2].Float64) > *x.MaxHR) {
			v := int(s.n[2].Float64)
			x.MaxHR = &v
		}
		x.EnergyKcal = addOpt(x.EnergyKcal, s.n[3])
		x.DistanceKm = addOpt(x.DistanceKm, s.n[4])
	}
	if hrWeight > 0 {
		v := int(hrSum/hrWeight + 0.5)
		x.AvgHR = &v
	}
	return x
}

func addOpt(p *float64, v sql.NullFloat64) *float64 {
	if !v.Valid {
		return p
	}
	if p == nil {
		return &v.Float64
	}
	s := *p + v.Float64
	return &s
}

// ledgerKind names a record kind in import_ledger.
var ledgerKind = map[recKind]string{recWeight: "weight", recMeal: "meal", recWorkout: "workout", recBodyScan: "body_scan", recDaily: "daily_figure"}
