package importer

import (
	"bytes"
	"context"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/health"
)

// checker is an emitter that checks every parsed record against the
// invariants the database and the dashboard rely on.
type checker struct {
	t        *testing.T
	csv      bool
	emitted  int
	rejected int
	notes    []string
	warnings []Problem
	dropped  int
}

var csvKeyRE = regexp.MustCompile(`^(w\|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z|m\|\d{4}-\d\d-\d\d\|.+|wo\|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|[^|]{1,40})$`)

var slotRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}:(breakfast|lunch|snack|dinner|=[^\x00-\x1f]{1,40})$`)

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (c *checker) emit(r *record) error {
	c.emitted++
	t := c.t
	hash := r.key
	if c.csv && r.kind != recBodyScan { // body scans are stored keyed by their values, not staged
		hash = r.ckey
		if !csvKeyRE.MatchString(r.key) {
			t.Fatalf("bad natural key %q", r.key)
		}
	}
	if b, err := hex.DecodeString(hash); err != nil || len(b) != 16 {
		t.Fatalf("bad key %q", hash)
	}
	if r.label == "" {
		t.Fatal("record without label")
	}
	switch r.kind {
	case recWeight:
		w := r.weight
		if !finite(w.WeightKg) || w.WeightKg <= 0 || w.WeightKg > 700 || w.MeasuredAt.IsZero() {
			t.Fatalf("bad weight %+v", w)
		}
		if w.BodyFatPct != nil && (!finite(*w.BodyFatPct) || *w.BodyFatPct < 0 || *w.BodyFatPct > 100) {
			t.Fatalf("bad body fat %v", *w.BodyFatPct)
		}
		if w.LeanMassKg != nil && (!finite(*w.LeanMassKg) || *w.LeanMassKg <= 0 || *w.LeanMassKg > w.WeightKg) {
			t.Fatalf("bad lean mass %v", *w.LeanMassKg)
		}
	case recMeal:
		m := r.meal
		for _, v := range []float64{m.Calories, m.ProteinG, m.CarbsG, m.FatG} {
			if !finite(v) || v < 0 {
				t.Fatalf("bad meal %+v", m)
			}
		}
		if m.Name == "" || len(m.Name) > 200 || m.EatenAt.IsZero() || !utf8.ValidString(m.Name) || strings.ContainsFunc(m.Name, unicode.IsControl) {
			t.Fatalf("bad meal %+v", m)
		}
	case recWorkout:
		w := r.workout
		if w.Type == "" || len(w.Type) > 40 || len(w.Title) > 120 || !finite(w.DurationMin) || w.DurationMin < 0 ||
			w.DurationMin > 7*24*60 || w.StartedAt.IsZero() || !utf8.ValidString(w.Title) || strings.ContainsFunc(w.Title, unicode.IsControl) {
			t.Fatalf("bad workout %+v", w)
		}
		for _, hr := range []*int{w.AvgHR, w.MaxHR} {
			if hr != nil && (*hr <= 0 || *hr > 400) {
				t.Fatalf("bad heart rate %d", *hr)
			}
		}
		if w.EnergyKcal != nil && (!finite(*w.EnergyKcal) || *w.EnergyKcal < 0) {
			t.Fatalf("bad energy %v", *w.EnergyKcal)
		}
		if w.DistanceKm != nil && (!finite(*w.DistanceKm) || *w.DistanceKm <= 0 || *w.DistanceKm > 10000) {
			t.Fatalf("bad distance %v", *w.DistanceKm)
		}
	case recBodyScan:
		sc := r.scan
		if sc.ScannedAt.IsZero() || (sc.BodyFatPct == nil && sc.LeanMassKg == nil) {
			t.Fatalf("bad body scan %+v", sc)
		}
		for _, v := range []*float64{sc.BodyFatPct, sc.LeanMassKg, sc.FatMassKg, sc.BoneMassKg, sc.VisceralFat} {
			if v != nil && (!finite(*v) || *v < 0) {
				t.Fatalf("bad body scan value %v in %+v", *v, sc)
			}
		}
		if (sc.BodyFatPct != nil && *sc.BodyFatPct > 100) || (sc.LeanMassKg != nil && (*sc.LeanMassKg <= 0 || *sc.LeanMassKg > 700)) {
			t.Fatalf("bad body scan %+v", sc)
		}
	case recSample:
		s := r.sample
		if !finite(s.value) || s.value < 0 || s.at.IsZero() {
			t.Fatalf("bad sample %+v", s)
		}
		switch s.kind {
		case "energy", "protein", "carbs", "fat":
			if !slotRE.MatchString(s.slot) {
				t.Fatalf("bad slot %q", s.slot)
			}
		case "body_fat", "lean_mass":
			if s.slot != "" || (s.kind == "body_fat" && s.value > 100) {
				t.Fatalf("bad body sample %+v", s)
			}
		default:
			t.Fatalf("bad sample kind %q", s.kind)
		}
	default:
		t.Fatalf("bad record kind %d", r.kind)
	}
	return nil
}

func (c *checker) reject(label string, p Problem) {
	c.rejected++
	if p.Message == "" || label == "" {
		c.t.Fatalf("empty problem %+v for %q", p, label)
	}
}

func (c *checker) unknown(string) {}

func (c *checker) note(msg string) {
	if msg == "" {
		c.t.Fatal("empty note")
	}
	c.notes = append(c.notes, msg)
}

func (c *checker) warn(p Problem) {
	if p.Message == "" {
		c.t.Fatal("empty warning")
	}
	c.warnings = append(c.warnings, p)
}

func (c *checker) correct(what string, line int, value string) {
	if what == "" || line <= 0 {
		c.t.Fatalf("correction %q at line %d", what, line)
	}
	c.warnings = append(c.warnings, Problem{Line: line, Message: what + ": " + value})
}

func (c *checker) cleaned(n int) {
	if n <= 0 {
		c.t.Fatalf("cleaned(%d)", n)
	}
	c.dropped += n
}

// seeds adds the testdata files with the given extensions to f's corpus.
func seeds(f *testing.F, exts ...string) {
	for _, ext := range exts {
		files, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

// parseOK fails the fuzz run for errors that are not Problems: parsing bytes
// in memory can only fail because the bytes are bad.
func parseOK(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if _, ok := asProblem(err); !ok {
		t.Fatalf("error is not a Problem: %v", err)
	}
}

func FuzzCSV(f *testing.F) {
	seeds(f, ".csv", ".tsv")
	f.Add([]byte("date,weight_lb\n2024-01-05,180\n"))
	f.Add([]byte("datetime,type,duration_min,max_hr,energy_kcal\n2024-01-05T07:00:00Z,run,30,170,300\n"))
	loc := time.FixedZone("test", 3600)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []Kind{KindAuto, KindCSVWeight, KindCSVMeals, KindCSVWorkouts} {
			c := &checker{t: t, csv: true}
			var res csvResult
			o := csvOptions{kind: kind, loc: loc, unit: health.LB, unitFrom: "test"}
			parseOK(t, parseCSV(context.Background(), bytes.NewReader(data), o, c, &res))
		}
	})
}

func FuzzAppleXML(f *testing.F) {
	seeds(f, ".xml")
	f.Add([]byte(`<HealthData><Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="3600" durationUnit="s" startDate="2024-01-05 07:00:00 +0000" endDate="2024-01-05 08:00:00 +0000"><WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="1.5" unit="count/s"/></Workout></HealthData>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &checker{t: t}
		parseOK(t, parseApple(context.Background(), bytes.NewReader(data), c))
	})
}
