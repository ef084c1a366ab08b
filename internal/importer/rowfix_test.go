package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every workout whose runaway duration was stored as 0 minutes is named
// with its line, not only the first (a real export had "264h 1m" named and
// "57h 42m" on another line stored as 0 without a word); a session is
// named once however many set rows repeat it.
func TestStrongEveryRunawayDurationNamed(t *testing.T) {
	db := newDB(t)
	data := "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n" +
		"2024-03-07 19:10:00,Leg Day,264h 1m,Squat (Barbell),1,100.0,5,0,0,,,\n" +
		"2024-03-07 19:10:00,Leg Day,264h 1m,Squat (Barbell),2,100.0,5,0,0,,,\n" +
		"2024-03-08 18:00:00,Push Day,1h 3m,Bench Press (Barbell),1,80.0,5,0,0,,,\n" +
		"2024-03-09 18:00:00,Pull Day,57h 42m,Row (Barbell),1,60.0,8,0,0,,,\n" +
		"2024-03-09 18:00:00,Pull Day,57h 42m,Row (Barbell),2,60.0,8,0,0,,,\n"
	s := mustImportBytes(t, db, "strong.csv", data, Options{})
	if len(s.Corrections) != 1 || s.Corrections[0].Count != 2 ||
		!hasCorrection(s, `stored with 0 minutes: line 2 ("264h 1m"), line 5 ("57h 42m")`) {
		t.Fatalf("corrections %+v", s.Corrections)
	}
	if !slices.ContainsFunc(SummaryLines(s), func(l string) bool { return strings.Contains(l, `line 5 ("57h 42m")`) }) {
		t.Errorf("the report does not name line 5: %q", SummaryLines(s))
	}
	w := workouts(t, db)
	if len(w) != 3 || w[0].DurationMin != 0 || w[2].DurationMin != 0 || !near(w[1].DurationMin, 63) {
		t.Errorf("workouts %+v", w)
	}
}

// Many corrections: the first ten rows are named and the rest counted.
func TestCorrectionsCountedPastTheNamedOnes(t *testing.T) {
	db := newDB(t)
	var b strings.Builder
	b.WriteString("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n")
	for i := range 12 {
		fmt.Fprintf(&b, "2024-03-%02d 19:10:00,Leg Day,%dh 1m,Squat (Barbell),1,100.0,5\n", i+1, 30+i)
	}
	s := mustImportBytes(t, db, "strong.csv", b.String(), Options{})
	if len(s.Corrections) != 1 || s.Corrections[0].Count != 12 || len(s.Corrections[0].Rows) != maxCorrectedRows ||
		!hasCorrection(s, `line 11 ("39h 1m") and 2 more (12 in all)`) {
		t.Fatalf("corrections %+v", s.Corrections)
	}
}

// Hevy: a session whose end is before its start, or over a day after it,
// is stored with 0 minutes, and each is named.
func TestHevyImpossibleDurationsNamed(t *testing.T) {
	db := newDB(t)
	const header = `"title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"` + "\n"
	data := header +
		`"Push","4 Mar 2024, 18:02","4 Mar 2024, 17:05","","Bench Press (Barbell)",,"",0,"normal",80,5,,,` + "\n" +
		`"Pull","5 Mar 2024, 18:02","7 Mar 2024, 19:05","","Row (Barbell)",,"",0,"normal",60,8,,,` + "\n" +
		`"Legs","6 Mar 2024, 18:00","6 Mar 2024, 19:00","","Squat (Barbell)",,"",0,"normal",100,5,,,` + "\n"
	s := mustImportBytes(t, db, "workouts.csv", data, Options{})
	if !hasCorrection(s, "end_time is before start_time", `line 2 ("4 Mar 2024, 18:02 – 4 Mar 2024, 17:05")`) ||
		!hasCorrection(s, "more than a day after start_time", "line 3") {
		t.Fatalf("corrections %+v", s.Corrections)
	}
	if w := workouts(t, db); len(w) != 3 || w[0].DurationMin != 0 || w[1].DurationMin != 0 || !near(w[2].DurationMin, 60) {
		t.Errorf("workouts %+v", w)
	}
}

// Warnings past the listed ones are counted in the report, never dropped
// without a word.
func TestWarningsPastTheListAreCounted(t *testing.T) {
	db := newDB(t)
	var b strings.Builder
	b.WriteString("date,name,calories\n")
	for i := range maxNotes + 5 {
		fmt.Fprintf(&b, "2024-01-%02d 12:00,Feast %d,6500\n", i+1, i)
	}
	s := mustImportBytes(t, db, "meals.csv", b.String(), Options{})
	if len(s.Warnings) != maxNotes || s.MoreWarnings != 5 || !slices.Contains(SummaryLines(s), "… and 5 more warnings") {
		t.Fatalf("warnings %d, more %d, report %q", len(s.Warnings), s.MoreWarnings, SummaryLines(s))
	}
}
