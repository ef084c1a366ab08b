package importer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Readings from a connected device (Home Assistant's sensors, polled by
// internal/sensors) are written as a file's records are: through the
// writer and the import ledger, one imports row per batch. So a reading
// read twice adds nothing, and a member's edit or deletion of an imported
// one is kept (ledger.go).

// SourceHomeAssistant is the source of readings polled from Home Assistant.
const SourceHomeAssistant = "homeassistant"

// KindReadings is the import kind of a batch of device readings.
const KindReadings Kind = "readings"

// ReadingKind is what a device reading measures.
type ReadingKind string

// The kinds of device readings.
const (
	ReadingWeight  ReadingKind = "weight"   // Value in kg: a weigh-in
	ReadingBodyFat ReadingKind = "body_fat" // Value in %: the weigh-in's body fat, or a body-composition entry
	ReadingSteps   ReadingKind = "steps"    // Value is the day's count: a daily figure
	ReadingSleep   ReadingKind = "sleep"    // Value in hours: the day's sleep, a daily figure
)

// Hard limits of daily figures (weigh-ins use health.WeightBounds).
const (
	MaxDailySteps = 200000
	MaxSleepHours = 24.0
)

// Reading is one figure a device reported.
type Reading struct {
	Kind ReadingKind
	At   time.Time // when it was measured
	// Day is the local day a steps or sleep figure is for (YYYY-MM-DD).
	Day   string
	Value float64
}

// Readings is one batch for a member.
type Readings struct {
	Member string
	Source string // e.g. SourceHomeAssistant
	// Name names the batch in the import history ("Home Assistant sensor.scale_weight").
	Name     string
	Readings []Reading // oldest first (the weigh-ins' plausibility compares each with those before)
	// Publisher, when set, tells the member's screens that records arrived.
	Publisher live.Publisher
}

// dailyFigure is a daily_figures row.
type dailyFigure struct {
	At    time.Time
	Day   string
	Kind  string
	Value float64
	Unit  string
}

// bodyFatNear: a body-fat reading goes on the device's weigh-in this close
// in time (a smart scale reports both at once), as Apple's are (finalize.go).
const bodyFatNear = 15 * time.Minute

// WriteReadings stores a batch of device readings for in.Member in one
// transaction and records it in the imports table (nothing is recorded for
// an empty batch). Readings outside the hard limits are rejected and
// listed; a weigh-in far from the trend is stored with a warning, as files'
// are (plausible.go).
func WriteReadings(ctx context.Context, db *store.DB, in Readings) (Summary, error) {
	started := time.Now()
	sum := Summary{File: in.Name, Kind: KindReadings}
	if in.Member == "" || in.Source == "" || in.Source == SourceApple || in.Source == SourceCSV {
		return sum, apperr.Invalidf("device readings need a member and a source of their own")
	}
	if _, err := db.Member(ctx, in.Member); err != nil {
		return sum, err
	}
	if len(in.Readings) == 0 {
		return sum, nil
	}
	var err error
	if sum.ImportID, err = beginRun(ctx, db, in.Member, in.Name, KindReadings); err != nil {
		return sum, err
	}
	err = db.Tx(ctx, func(tx *store.Tx) error {
		q := newStmtCache(tx)
		defer q.close()
		never := false // every device row is keyed through the ledger from its first write: none is older
		w := &writer{ctx: ctx, q: q, member: in.Member, source: in.Source, importID: sum.ImportID, now: db.Now(), sum: &sum, legacy: &never}
		for i, rd := range in.Readings {
			r, ok, err := w.deviceRecord(rd, i+1)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := w.upsert(&r); err != nil {
				return fmt.Errorf("importer: store %s at %s: %w", rd.Kind, store.FormatTime(rd.At), err)
			}
		}
		sum.Records = int64(len(in.Readings))
		sum.Problems, sum.TotalProblems = w.problems, w.nProblem
		sum.Duration = time.Since(started)
		if pub := in.Publisher; pub != nil && sum.Added+sum.Updated > 0 {
			tx.AfterCommit(func() {
				pub.Publish(live.MemberTopic(in.Member), live.KindImport, nil)
				pub.Publish(live.TopicHousehold, live.KindImport, in.Member)
			})
		}
		if sum.Added+sum.Updated+sum.Rejected == 0 {
			// A poll re-reads the day's readings (a step count grows all
			// day): a batch that brought nothing new is not history.
			if _, err := tx.ExecContext(ctx, `DELETE FROM imports WHERE id = ?`, sum.ImportID); err != nil {
				return fmt.Errorf("importer: drop the empty batch: %w", err)
			}
			sum.ImportID = 0
			return nil
		}
		return finishRun(ctx, tx, db.Now(), StatusComplete, &sum, "")
	})
	if err != nil {
		return sum, fail(ctx, db, &sum, started, err)
	}
	return sum, nil
}

// deviceRecord turns a reading into the record to write; ok is false for
// one rejected (listed in the summary). n numbers it in the batch.
func (w *writer) deviceRecord(rd Reading, n int) (r record, ok bool, err error) {
	label := string(rd.Kind)
	bad := func(format string, args ...any) (record, bool, error) {
		w.reject(label, Problem{Line: n, Element: label, Message: fmt.Sprintf(format, args...)})
		return record{}, false, nil
	}
	if math.IsNaN(rd.Value) || math.IsInf(rd.Value, 0) || rd.At.IsZero() {
		return bad("not a reading")
	}
	at := rd.At.UTC()
	switch rd.Kind {
	case ReadingWeight:
		if !health.InWeightRange(rd.Value, health.KG) {
			return bad("the weight %s %s", health.KG.Format(rd.Value), health.WeightRange(health.KG))
		}
		r := record{kind: recWeight, label: label, line: n, key: "w|" + store.FormatTime(at),
			weight: health.WeightReading{MeasuredAt: at, WeightKg: rd.Value}}
		// A weight sensor knows nothing of body fat: what the body-fat
		// sensor put on this weigh-in stays (read again, the weight would
		// otherwise take it off, and the body fat put it back, each poll).
		// A weigh-in the member changed is left to the ledger: kept.
		if err := w.keepImportedBodyFat(&r); err != nil {
			return record{}, false, err
		}
		return r, true, nil
	case ReadingBodyFat:
		if rd.Value <= 0 || rd.Value > 100 {
			return bad("the body fat %.1f %% is not between 0 and 100 %%", rd.Value)
		}
		return w.bodyFatRecord(rd.Value, at, label, n)
	case ReadingSteps, ReadingSleep:
		unit, max := "steps", float64(MaxDailySteps)
		if rd.Kind == ReadingSleep {
			unit, max = "h", MaxSleepHours
		}
		if rd.Value < 0 || rd.Value > max {
			return bad("%s %g %s is not between 0 and %g", rd.Kind, rd.Value, unit, max)
		}
		if _, err := time.Parse(time.DateOnly, rd.Day); err != nil {
			return bad("the day %q is not a date", rd.Day)
		}
		return record{kind: recDaily, label: label, line: n, key: "d|" + string(rd.Kind) + "|" + rd.Day,
			daily: dailyFigure{At: at, Day: rd.Day, Kind: string(rd.Kind), Value: rd.Value, Unit: unit}}, true, nil
	}
	return bad("unknown reading kind %q", rd.Kind)
}

// bodyFatRecord puts a body-fat reading on the source's weigh-in nearest in
// time within bodyFatNear (the weigh-in's entry, so a member's edit of it
// is kept), else makes it a body-composition entry of its own.
func (w *writer) bodyFatRecord(pct float64, at time.Time, label string, n int) (record, bool, error) {
	var key string
	err := w.q.QueryRowContext(w.ctx, `SELECT source_key FROM weight_readings WHERE member_id = ? AND source = ?
		AND measured_at BETWEEN ? AND ? AND source_key LIKE 'w|%'
		ORDER BY abs(julianday(measured_at) - julianday(?)) LIMIT 1`, w.member, w.source,
		store.FormatTime(at.Add(-bodyFatNear)), store.FormatTime(at.Add(bodyFatNear)), store.FormatTime(at)).Scan(&key)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return record{}, false, fmt.Errorf("importer: find the weigh-in for body fat: %w", err)
	}
	if err == nil && strings.HasPrefix(key, "w|") {
		r := record{kind: recWeight, label: label, line: n, key: key}
		var cur record
		if _, found, err := w.readRow(&cur, recWeight, selectRowSQL[recWeight], w.member, w.source, key); err != nil {
			return record{}, false, fmt.Errorf("importer: read the weigh-in for body fat: %w", err)
		} else if found {
			r.weight = cur.weight
			r.weight.BodyFatPct = &pct
			return r, true, nil
		}
	}
	return record{kind: recBodyScan, label: label, line: n, key: "bf|" + store.FormatTime(at),
		scan: health.BodyScan{ScannedAt: at, BodyFatPct: &pct}}, true, nil
}

// keepImportedBodyFat gives a device weigh-in read again the body fat (and
// lean mass) its row holds, when the row holds what the ledger says was
// imported.
func (w *writer) keepImportedBodyFat(r *record) error {
	var cur record
	_, found, err := w.readRow(&cur, recWeight, selectRowSQL[recWeight], w.member, w.source, r.key)
	if err != nil || !found {
		return err
	}
	var last string
	err = w.q.QueryRowContext(w.ctx, selectLedgerSQL, w.member, ledgerKind[recWeight], w.source, r.key).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("importer: read ledger: %w", err)
	}
	if rowHash(&w.keyBuf, &cur) == last {
		r.weight.BodyFatPct, r.weight.LeanMassKg = cur.weight.BodyFatPct, cur.weight.LeanMassKg
	}
	return nil
}
