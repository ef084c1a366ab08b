package importer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

func TestCSVImports(t *testing.T) {
	tests := []struct {
		file  string
		kind  Kind
		added int
		check func(t *testing.T, db *store.DB)
	}{
		{"weight.csv", KindCSVWeight, 3, func(t *testing.T, db *store.DB) {
			w := weights(t, db)
			// A bare date is noon in the household zone (Berlin, UTC+1 in January).
			if !w[0].MeasuredAt.Equal(utc("2024-01-05T11:00:00Z")) || !near(w[0].WeightKg, 81.828) || !ptrNear(w[0].BodyFatPct, 22.1) {
				t.Errorf("lb row = %+v", w[0])
			}
			if !w[1].MeasuredAt.Equal(utc("2024-01-06T06:30:00Z")) || !near(w[1].WeightKg, 81.5) || w[1].BodyFatPct != nil {
				t.Errorf("local time row = %+v", w[1])
			}
			if !w[2].MeasuredAt.Equal(utc("2024-01-07T06:30:00Z")) || !ptrNear(w[2].BodyFatPct, 21.9) || w[2].Source != SourceCSV {
				t.Errorf("RFC 3339 row = %+v", w[2])
			}
		}},
		{"weight_excel.csv", KindCSVWeight, 2, func(t *testing.T, db *store.DB) {
			w := weights(t, db)
			if !near(w[0].WeightKg, 81.4) || !w[0].MeasuredAt.Equal(utc("2024-01-05T06:15:00Z")) || !ptrNear(w[1].BodyFatPct, 21.5) {
				t.Errorf("sep=; with decimal commas = %+v", w)
			}
		}},
		{"weight_semicolon.csv", KindCSVWeight, 2, func(t *testing.T, db *store.DB) {
			w := weights(t, db)
			if !near(w[0].WeightKg, 81.4) || !near(w[1].WeightKg, 81.465) {
				t.Errorf("semicolons without header = %+v", w)
			}
		}},
		{"meals.tsv", KindCSVMeals, 3, func(t *testing.T, db *store.DB) {
			m := meals(t, db)
			if m[0].Name != "Oats with berries" || !near(m[0].Calories, 420) || !near(m[0].CarbsG, 70) ||
				!m[0].EatenAt.Equal(utc("2024-01-05T07:00:00Z")) {
				t.Errorf("first meal = %+v", m[0])
			}
			if !m[1].EatenAt.Equal(utc("2024-01-05T12:30:00Z")) || !near(m[1].FatG, 35) {
				t.Errorf("UTC meal = %+v", m[1])
			}
			if m[2].Name != "Pasta" || m[2].ProteinG != 0 || m[2].Source != SourceCSV {
				t.Errorf("meal without macros = %+v", m[2])
			}
		}},
		{"meals_noheader.csv", KindCSVMeals, 2, func(t *testing.T, db *store.DB) {
			m := meals(t, db)
			if m[0].Name != "Oats, berries, milk" || m[1].Name != `Pasta "arrabbiata"` || !near(m[1].FatG, 18) {
				t.Errorf("quoted names = %+v", m)
			}
		}},
		{"workouts.csv", KindCSVWorkouts, 3, func(t *testing.T, db *store.DB) {
			w := workouts(t, db)
			if w[0].Type != "running" || w[0].Title != "Morning run" || !near(w[0].DurationMin, 32.5) || w[0].AvgHR == nil || *w[0].AvgHR != 148 {
				t.Errorf("run = %+v", w[0])
			}
			if w[1].Type != "strength" || w[1].Title != "Strength" || w[1].AvgHR != nil {
				t.Errorf("untitled workout = %+v", w[1])
			}
			if w[2].Type != "yoga" || !w[2].StartedAt.Equal(utc("2024-01-08T14:45:00Z")) {
				t.Errorf("yoga = %+v", w[2])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			db := newDB(t)
			s := mustImport(t, db, tt.file, Options{})
			if s.Kind != tt.kind || s.Added != tt.added || s.Rejected != 0 {
				t.Fatalf("kind %s added %d rejected %d, want %s %d 0", s.Kind, s.Added, s.Rejected, tt.kind, tt.added)
			}
			tt.check(t, db)
			again := mustImport(t, db, tt.file, Options{})
			if again.Added != 0 || again.SkippedDuplicate != tt.added {
				t.Errorf("second import added %d dup %d", again.Added, again.SkippedDuplicate)
			}
		})
	}
}

// The key is the normalised row, so the same readings written another way
// (semicolons, no header, decimal commas, kg instead of lb) are duplicates.
func TestCSVSameDataOtherFormatIsDuplicate(t *testing.T) {
	db := newDB(t)
	mustImport(t, db, "weight.csv", Options{})
	other := filepath.Join(t.TempDir(), "other.csv")
	data := "2024-01-05;81,828;kg;22,1\n2024-01-06T07:30:00+01:00;81,5;kg\n"
	if err := os.WriteFile(other, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := ImportFile(t.Context(), db, Options{Member: "ada", Location: berlin(t)}, other)
	if err != nil {
		t.Fatal(err)
	}
	if s.Added != 0 || s.SkippedDuplicate != 2 {
		t.Errorf("added %d dup %d, want 0 2", s.Added, s.SkippedDuplicate)
	}
}

func TestCSVBadRowStrictImportsNothing(t *testing.T) {
	db := newDB(t)
	s, err := importFixture(t, db, "weight_bad_row.csv", Options{Strict: true})
	var ve *ValidationError
	if !apperr.Is(err, apperr.Invalid) || !errors.As(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	if ve.Total != 2 || len(s.Problems) != 2 || s.Problems[0].Line != 3 || !strings.Contains(s.Problems[0].Message, `"81.x" is not a number`) ||
		s.Problems[1].Line != 5 || !strings.Contains(s.Problems[1].Message, `unknown unit "stones"`) {
		t.Errorf("problems = %+v", s.Problems)
	}
	if !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %q does not name the line", err)
	}
	if c := counts(t, db); c != [4]int{} || s.Added != 0 || s.Rejected != 2 {
		t.Errorf("rows %v added %d rejected %d: the good rows must not be kept", c, s.Added, s.Rejected)
	}
}

func TestCSVRefusals(t *testing.T) {
	tests := []struct {
		name, data string
		kind       Kind
		want       string
	}{
		{"empty", "", KindAuto, "empty"},
		{"seven columns", "2024-01-05,81,kg,1,2,3,4\n", KindAuto, "cannot tell what this CSV holds"},
		{"unknown header", "when,what\n2024-01-05,x\n", KindAuto, "cannot tell what this CSV holds"},
		{"kind mismatch", "date,weight,unit\n2024-01-05,81,kg\n", KindCSVMeals, "no calories column"},
		{"weight in an unknown unit", "date,weight (oz)\n2024-01-05,81\n", KindAuto, `the unit "oz" is not one Hearth reads`},
		{"every row bad", "date,weight,unit\n2024-01-05,81,stones\n2024-01-06,x,kg\n", KindAuto, `unknown unit "stones"`},
		{"strong as meals", "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n", KindCSVMeals, "Strong export"},
		{"bad quote", "date,weight,unit\n2024-01-05,\"81,kg\n", KindAuto, "line 2"},
		{"bad date", "date,weight,unit\n05/01/2024,81,kg\n", KindAuto, `date "05/01/2024" is not a date`},
		{"zip as csv", "PK\x03\x04rest", KindCSVWeight, "zip file"},
		{"heart rate", "datetime,type,duration_min,avg_hr\n2024-01-05 07:00,run,30,400\n", KindAuto, "between 30 and 250"},
		{"negative calories", "datetime,name,calories\n2024-01-05 07:00,x,-5\n", KindAuto, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := newDB(t)
			path := filepath.Join(t.TempDir(), "in.csv")
			if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := ImportFile(t.Context(), db, Options{Member: "ada", Kind: tt.kind, Location: time.UTC}, path)
			if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want invalid mentioning %q", err, tt.want)
			}
			if c := counts(t, db); c != [4]int{} {
				t.Errorf("rows stored: %v", c)
			}
		})
	}
}

func TestSniffDelimiter(t *testing.T) {
	tests := map[string]rune{
		"date,weight,unit\n2024-01-05,81.4,kg\n":              ',',
		"date;weight;unit\n2024-01-05;81,4;kg\n":              ';',
		"2024-01-05;81,4;kg\n2024-01-06;80;kg\n":              ';',
		"date\tname\tcalories\n2024-01-05\tToast, jam\t300\n": '\t',
		"2024-01-05 08:00;\"Oats, milk\";420;15;70;9\n":       ';',
		"one column\n":                        ',',
		"date,weight,unit\n2024-01-05,81.4,k": ',', // partial last line ignored
	}
	for in, want := range tests {
		if got := sniffDelimiter([]byte(in), false); got != want {
			t.Errorf("sniffDelimiter(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseCSVTime(t *testing.T) {
	loc := berlin(t)
	tests := map[string]string{
		"2024-01-05":                "2024-01-05T11:00:00Z", // noon local
		"2024-07-05":                "2024-07-05T10:00:00Z", // noon local, summer time
		"2024-01-05 07:30":          "2024-01-05T06:30:00Z",
		"2024-01-05 07:30:15":       "2024-01-05T06:30:15Z",
		"2024-01-05T07:30":          "2024-01-05T06:30:00Z",
		"2024-01-05T07:30:15":       "2024-01-05T06:30:15Z",
		"2024-01-05T07:30:15Z":      "2024-01-05T07:30:15Z",
		"2024-01-05T07:30:15-05:00": "2024-01-05T12:30:15Z",
		"2024-01-05T07:30:15+0530":  "2024-01-05T02:00:15Z",
		"2024-01-05T07:30Z":         "2024-01-05T07:30:00Z",
		" 2024-01-05 07:30 ":        "2024-01-05T06:30:00Z",
		"2024-01-05 07:30:00 -0800": "2024-01-05T15:30:00Z",
	}
	for in, want := range tests {
		got, ok := parseCSVTime(in, loc)
		if !ok || !got.Equal(utc(want)) {
			t.Errorf("parseCSVTime(%q) = %v %v, want %s", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "05/01/2024", "2024-13-01", "2024-01-05 25:00", "yesterday", "2024-1-5"} {
		if _, ok := parseCSVTime(bad, loc); ok {
			t.Errorf("parseCSVTime(%q) accepted", bad)
		}
	}
}

func TestNormalizeHeader(t *testing.T) {
	for in, want := range map[string]string{"Weight (kg)": "weight_kg", " Body-Fat % ": "body_fat", "avg HR": "avg_hr", "\ufeffdate": "date",
		"Carbohydrates (g)": "carbohydrates_g", "carbohydrates_g": "carbohydrates_g", "Gewicht (kg)": "gewicht_kg",
		"Duration (sec)": "duration_s", "Distance (meters)": "distance_m", "weight_lbs": "weight_lb", "Fettfreier Anteil (kg)": "fettfreier_anteil_kg"} {
		if got := normalizeHeader(in); got != want {
			t.Errorf("normalizeHeader(%q) = %q, want %q", in, got, want)
		}
	}
}

// A quoted cell may span lines (RFC 4180), but meal names and workout titles
// are single-line text everywhere else in Hearth: the line break becomes a
// space and no control character reaches the database. The fuzzer found a
// workout title that kept its newline.
func TestCSVMultiLineCellsBecomeOneLine(t *testing.T) {
	db := newDB(t)
	if _, err := importBytes(t, db, "meals.csv", "date,name,calories\n2024-01-05,\"Oats\r\nwith\tberries\x07\",420\n", Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := importBytes(t, db, "workouts.csv", "datetime,type,title,duration_min\n2024-03-05T11:00:00Z,run,\"Morning\nrun\",30\n", Options{}); err != nil {
		t.Fatal(err)
	}
	if m := meals(t, db); len(m) != 1 || m[0].Name != "Oats with berries" {
		t.Errorf("meals = %+v, want one named %q", m, "Oats with berries")
	}
	if w := workouts(t, db); len(w) != 1 || w[0].Title != "Morning run" {
		t.Errorf("workouts = %+v, want one titled %q", w, "Morning run")
	}
}
