package history_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/history"
	"hearth/internal/importer"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// The import files below follow the apps' published formats as the
// importer's fixtures do (internal/importer/testdata/README.md names the
// sources): Strong's comma dialect (strong.csv), Withings Health Mate's
// weight.csv, MyFitnessPal's Measurement-Summary (Date,Weight, no unit)
// and an Apple Health export.xml with the attributes the Health app writes.
const (
	strongCSV = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n" +
		"2021-04-06 18:02:11,\"Push Day\",1h 3m,\"Bench Press (Barbell)\",1,80.0,5,0,0,\"\",\"\",8\n" +
		"2021-04-08 18:10:00,\"Pull Day\",55m,\"Deadlift (Barbell)\",1,120.0,5,0,0,\"\",\"\",8\n" +
		"2023-11-20 07:30:00,\"Legs\",48m,\"Squat (Barbell)\",1,100.0,5,0,0,\"\",\"\",8\n"
	withingsCSV = "Date,\"Weight (kg)\",\"Fat mass (kg)\",\"Bone mass (kg)\",\"Muscle mass (kg)\",\"Hydration (kg)\",Comments\n" +
		"\"2019-05-03 07:12:40\",90.10,,,,,\n" +
		"\"2019-05-20 07:05:12\",89.70,,,,,\n"
	mfpCSV   = "Date,Weight\n2017-07-01,88.2\n"
	appleXML = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2024-03-20 09:00:00 +0100"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2016-01-04 07:05:40 +0100" startDate="2016-01-04 07:05:00 +0100" endDate="2016-01-04 07:05:00 +0100" value="92.4"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2016-01-25 07:05:40 +0100" startDate="2016-01-25 07:05:00 +0100" endDate="2016-01-25 07:05:00 +0100" value="91.6"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" sourceVersion="17.2" unit="kg" creationDate="2024-03-14 07:05:40 +0100" startDate="2024-03-14 07:05:00 +0100" endDate="2024-03-14 07:05:00 +0100" value="84.3"/>
 <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Health" sourceVersion="17.2" unit="%" creationDate="2022-06-01 09:00:00 +0100" startDate="2022-06-01 09:00:00 +0100" endDate="2022-06-01 09:00:00 +0100" value="0.241"/>
</HealthData>
`
)

func importFile(t *testing.T, db *store.DB, member, name, data string) {
	t.Helper()
	sum, err := importer.Import(context.Background(), db, importer.Options{Member: member, Location: time.UTC, Strict: true},
		name, strings.NewReader(data), int64(len(data)))
	if err != nil || sum.Added == 0 {
		t.Fatalf("import %s: %v (%+v)", name, err, sum.Problems)
	}
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestSummaryCountsDatesSourcesMixAndTrend(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ann")
	storetest.Member(t, db, "bob")
	importFile(t, db, "ann", "strong.csv", strongCSV)
	importFile(t, db, "ann", "weight.csv", withingsCSV)
	importFile(t, db, "ann", "Measurement-Summary.csv", mfpCSV)
	importFile(t, db, "ann", "export.xml", appleXML)
	// Logged in Hearth: a walk and a weigh-in; and Bob's, which are not Ann's.
	if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ann", StartedAt: day("2025-09-01").Add(18 * time.Hour), Type: "Walk", DurationMin: 30}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ann", MeasuredAt: day("2025-09-02").Add(7 * time.Hour), WeightKg: 85}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "bob", MeasuredAt: day("2010-01-01").AddDate(0, i, 0), WeightKg: 70}); err != nil {
			t.Fatal(err)
		}
	}

	s, err := history.Summarize(ctx, db, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Weights; got.Count != 7 || !got.First.Equal(time.Date(2016, 1, 4, 6, 5, 0, 0, time.UTC)) ||
		got.Last.Format(time.DateOnly) != "2025-09-02" {
		t.Errorf("weights: %d from %s to %s, want 7 from 2016-01-04 06:05 UTC to 2025-09-02", got.Count, got.First, got.Last)
	}
	if got := sources(s.Weights); got != "Apple Health 3 imported, Withings 2 imported, Hearth 1, MyFitnessPal 1 imported" {
		t.Errorf("weight sources: %s", got)
	}
	if got := s.Workouts; got.Count != 4 || got.First.Format(time.DateOnly) != "2021-04-06" || sources(got) != "Strong 3 imported, Hearth 1" {
		t.Errorf("workouts: %d from %s, sources %s", got.Count, got.First.Format(time.DateOnly), sources(got))
	}
	if got := s.Scans; got.Count != 1 || sources(got) != "Apple Health 1 imported" || got.Last.Format(time.DateOnly) != "2022-06-01" {
		t.Errorf("body scans: %d, sources %s, last %s", got.Count, sources(got), got.Last)
	}
	if s.Meals.Count != 0 || s.Meals.Sources != nil {
		t.Errorf("meals: %+v, want none", s.Meals)
	}
	if len(s.WorkoutTypes) != 2 || s.WorkoutTypes[0] != (history.TypeShare{Type: "strength", Count: 3, Share: 0.75}) ||
		s.WorkoutTypes[1].Type != "walk" || s.Mostly() != "strength" {
		t.Errorf("workout types %+v, mostly %q", s.WorkoutTypes, s.Mostly())
	}
	tr := s.Trend
	if tr == nil {
		t.Fatal("no long-term trend")
	}
	// The first month's average (92.4 and 91.6) and the last month's
	// (85): monthly averages, not the first and last single readings.
	if tr.FromMonth.Format("2006-01") != "2016-01" || math.Abs(tr.FromKg-92) > 1e-9 ||
		tr.ToMonth.Format("2006-01") != "2025-09" || tr.ToKg != 85 || tr.Months != 5 || math.Abs(tr.ChangeKg()+7) > 1e-9 {
		t.Errorf("trend %+v", *tr)
	}
	if !s.Any() {
		t.Error("Any() = false")
	}
}

func sources(sp history.Kind) string {
	var out []string
	for _, s := range sp.Sources {
		x := fmt.Sprintf("%s %d", s.Name, s.Count)
		if s.Imported {
			x += " imported"
		}
		out = append(out, x)
	}
	return strings.Join(out, ", ")
}

func TestSummaryOfNoRecords(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "nova")
	s, err := history.Summarize(context.Background(), db, "nova")
	if err != nil {
		t.Fatal(err)
	}
	if s.Any() || s.Trend != nil || s.WorkoutTypes != nil || s.Mostly() != "" {
		t.Fatalf("summary of nothing: %+v", s)
	}
}

// A month whose only weigh-in was a typo (8.5 for 85) neither starts nor
// ends the long-term trend; a single month of weigh-ins makes none.
func TestLongTrendLeavesOutImplausibleMonths(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ann")
	storetest.Member(t, db, "cy")
	add := func(member, at string, kg float64) {
		t.Helper()
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: member, MeasuredAt: day(at).Add(7 * time.Hour), WeightKg: kg}); err != nil {
			t.Fatal(err)
		}
	}
	add("ann", "2018-01-10", 9.1) // typo
	add("ann", "2018-02-10", 91)
	add("ann", "2018-03-10", 90)
	add("ann", "2018-04-10", 89)
	add("ann", "2018-05-10", 8.8) // typo
	s, err := history.Summarize(ctx, db, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if tr := s.Trend; tr == nil || tr.FromMonth.Format("2006-01") != "2018-02" || tr.FromKg != 91 ||
		tr.ToMonth.Format("2006-01") != "2018-04" || tr.ToKg != 89 || tr.Months != 3 {
		t.Fatalf("trend %+v, want 91 kg (2018-02) to 89 kg (2018-04) over 3 months", tr)
	}
	add("cy", "2018-01-10", 80)
	add("cy", "2018-01-20", 79)
	if s, err := history.Summarize(ctx, db, "cy"); err != nil || s.Trend != nil {
		t.Fatalf("one month: trend %+v, %v", s.Trend, err)
	}
}

func TestSourceNames(t *testing.T) {
	for _, c := range []struct{ source, profile, want string }{
		{"csv", "Strong", "Strong"},
		{"csv", "MyFitnessPal Nutrition-Summary", "MyFitnessPal"},
		{"csv", "Withings weight.csv", "Withings"},
		{"csv", "", "CSV files"},
		{"apple_health", "", "Apple Health"},
		{"homeassistant", "", "Home Assistant"},
		{"manual", "", "Hearth"},
		{"demo", "", "the demo"},
	} {
		if got := history.SourceName(c.source, c.profile); got != c.want {
			t.Errorf("SourceName(%q, %q) = %q, want %q", c.source, c.profile, got, c.want)
		}
	}
}
