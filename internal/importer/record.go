package importer

import (
	"encoding/hex"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// recKind says which table a parsed record goes to.
type recKind uint8

const (
	recWeight   recKind = iota + 1 // weight_readings
	recMeal                        // meals (CSV)
	recWorkout                     // workouts
	recSample                      // import_samples (Apple dietary and body composition)
	recBodyScan                    // body_scans (CSV)
	recDaily                       // daily_figures (a connected device's steps or sleep, readings.go)
)

// sample is an Apple quantity sample that is staged, not stored one-to-one.
type sample struct {
	kind     string // energy | protein | carbs | fat | body_fat | lean_mass
	at       time.Time
	slot     string // dietary: "2006-01-02:breakfast", or "2006-01-02:=Post-Workout" for a meal of another name
	explicit bool   // slot named by the record's meal, not derived from its time
	group    string // dietary: its food entry, "c:…" (a Food correlation) or "s:…" (its source at its start)
	value    float64
}

// mergeMode says how CSV rows that share a natural key become one entry.
type mergeMode uint8

const (
	mergeSum     mergeMode = iota // a meal is the sum of its food rows; workouts add up
	mergeLast                     // weigh-ins: the last row for an instant wins (and is reported)
	mergeSession                  // Strong / Hevy sets: one workout, its duration stated on every row
)

// record is one parsed record, ready to store. Parsers fill the part named
// by kind; MemberID, Source and created_at are set by the writer. For Apple
// records (and CSV body scans, Hearth's own export) key is the source key,
// a hash of the record; for other CSV rows it is the entry's natural key and
// ckey identifies the row's content, so an exact repeat of a row is
// recognised.
type record struct {
	kind    recKind
	label   string // count label: Apple type identifier or CSV kind
	key     string
	ckey    string    // CSV only
	merge   mergeMode // CSV only
	line    int
	weight  health.WeightReading
	meal    health.Meal
	workout health.Workout
	scan    health.BodyScan
	sample  sample
	daily   dailyFigure
	own     ownRow // a row of Hearth's own export (csv_own.go)
}

// at is the record's time as stored.
func (r *record) at() string {
	switch r.kind {
	case recWeight:
		return store.FormatTime(r.weight.MeasuredAt)
	case recMeal:
		return store.FormatTime(r.meal.EatenAt)
	case recWorkout:
		return store.FormatTime(r.workout.StartedAt)
	case recBodyScan:
		return store.FormatTime(r.scan.ScannedAt)
	case recDaily:
		return store.FormatTime(r.daily.At)
	}
	return store.FormatTime(r.sample.at)
}

// emitter receives what a parser finds; each call is one record seen. emit
// may fail only for storage reasons and must not keep r (parsers reuse it);
// reject records a record-level problem and parsing continues; note and
// warn add a line to the report (warn: something in the file was not
// imported or was assumed); correct says a row was stored other than it
// said (what happened, the row's line and the value it had: every such row
// is counted and the first are named, never silent); cleaned counts
// characters dropped from text.
type emitter interface {
	emit(r *record) error
	reject(label string, p Problem)
	unknown(name string)
	note(msg string)
	warn(p Problem)
	correct(what string, line int, value string)
	cleaned(n int)
}

// keyer builds stable source keys: an FNV-128a hash of the normalised fields,
// in hex. Its buffer is reused, so a key costs one small allocation.
type keyer struct{ buf []byte }

func (k *keyer) reset(label string) *keyer {
	k.buf = append(k.buf[:0], label...)
	return k
}

func (k *keyer) str(s string) *keyer {
	k.buf = append(k.buf, '|')
	k.buf = append(k.buf, s...)
	return k
}

func (k *keyer) time(t time.Time) *keyer {
	k.buf = append(k.buf, '|')
	k.buf = strconv.AppendInt(k.buf, t.UnixMilli(), 10)
	return k
}

// num appends v rounded to 3 decimals, so the same value written in another
// unit by a later export (81.828 kg vs 180.4 lb) keys the same.
func (k *keyer) num(v float64) *keyer {
	k.buf = append(k.buf, '|')
	k.buf = strconv.AppendFloat(k.buf, math.Round(v*1000)/1000, 'f', 3, 64)
	return k
}

func (k *keyer) optNum(v *float64) *keyer {
	if v == nil {
		return k.str("")
	}
	return k.num(*v)
}

func (k *keyer) sum() string {
	h := fnv.New128a()
	_, _ = h.Write(k.buf)
	var out [16]byte
	return hex.EncodeToString(h.Sum(out[:0]))
}
