package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/export"
	"hearth/internal/health"
	"hearth/internal/store/storetest"
)

// zipFile is one entry of a zip a test builds, in order.
type zipFile struct{ name, body string }

// buildZip writes the entries, in order, to a zip file named name.
func buildZip(t *testing.T, name string, files ...zipFile) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func reportHas(s Summary, want string) bool {
	return slices.ContainsFunc(SummaryLines(s), func(l string) bool { return strings.Contains(l, want) })
}

// MyFitnessPal's export is a zip of three CSV files in a folder: each is
// imported with its own profile, in a run of its own, and the report lists
// each; macOS's __MACOSX copies and other files are left alone.
func TestZipOfCSVFilesImportsEachFile(t *testing.T) {
	db := newDB(t)
	dir := "File-Export-2024-03-01-to-2024-03-05/"
	path := buildZip(t, "File-Export-2024-03-01-to-2024-03-05.zip",
		zipFile{dir + "Nutrition-Summary-2024-03-01-to-2024-03-05.csv", fixture(t, "mfp_nutrition.csv")},
		zipFile{"__MACOSX/" + dir + "._Nutrition-Summary-2024-03-01-to-2024-03-05.csv", "\x00\x05\x16\x07junk"},
		zipFile{dir + "Exercise-Summary-2024-03-01-to-2024-03-05.csv", fixture(t, "mfp_exercise.csv")},
		zipFile{dir + "Measurement-Summary-2024-03-01-to-2024-03-05.csv", fixture(t, "mfp_measurement.csv")},
		zipFile{dir + "README.txt", "not data"},
	)
	s, err := ImportFile(t.Context(), db, Options{Member: "ada", Location: berlin(t)}, path)
	if err != nil {
		t.Fatalf("%v (%v)", err, s.Problems)
	}
	if s.Kind != KindZip || len(s.Files) != 3 || len(s.Skipped) != 0 {
		t.Fatalf("kind %s, files %d, skipped %+v", s.Kind, len(s.Files), s.Skipped)
	}
	profiles := []string{"MyFitnessPal Nutrition-Summary", "MyFitnessPal Exercise-Summary", "MyFitnessPal Measurement-Summary"}
	total := 0
	for i, f := range s.Files {
		if f.Profile != profiles[i] || f.ImportID == 0 || f.Added == 0 || f.Error != "" {
			t.Errorf("file %d: %s profile %q run %d added %d error %q", i, f.File, f.Profile, f.ImportID, f.Added, f.Error)
		}
		total += f.Added
	}
	if s.Added != total || len(meals(t, db)) == 0 || len(workouts(t, db)) == 0 || len(weights(t, db)) != 3 {
		t.Errorf("added %d of %d; meals %d workouts %d weights %d", s.Added, total, len(meals(t, db)), len(workouts(t, db)), len(weights(t, db)))
	}
	for _, want := range []string{dir + "Measurement-Summary-2024-03-01-to-2024-03-05.csv: csv-weight (MyFitnessPal Measurement-Summary): added 3",
		dir + "Measurement-Summary-2024-03-01-to-2024-03-05.csv: the file does not say its weight unit"} {
		if !reportHas(s, want) {
			t.Errorf("report lacks %q:\n%s", want, strings.Join(SummaryLines(s), "\n"))
		}
	}
	runs, err := ListRuns(t.Context(), db, "ada", 10)
	if err != nil || len(runs) != 3 || runs[0].FileName != filepath.Base(path)+zipSep+dir+"Measurement-Summary-2024-03-01-to-2024-03-05.csv" ||
		runs[0].Status != StatusComplete {
		t.Fatalf("runs %+v (%v)", runs, err)
	}
	again, err := ImportFile(t.Context(), db, Options{Member: "ada", Location: berlin(t)}, path)
	if err != nil || again.Added != 0 || again.SkippedDuplicate != s.Added {
		t.Errorf("again: %v, added %d duplicate %d", err, again.Added, again.SkippedDuplicate)
	}
}

// Hearth's own export zip imports as it is: the four files that re-import,
// the others named as for reading; into the same member it adds nothing.
func TestHearthExportZipImports(t *testing.T) {
	db := newDB(t)
	ctx := context.Background()
	storetest.Member(t, db, "bob")
	at := time.Date(2024, 1, 5, 7, 0, 0, 0, time.UTC)
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: at, WeightKg: 80.5}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ada", StartedAt: at, Type: "run", DurationMin: 30, DistanceKm: ptr(5.1),
		Source: SourceApple, SourceKey: "7c1d"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := export.Member(ctx, db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), export.FileName("ada", time.Now()))
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	same, err := ImportFile(ctx, db, Options{Member: "ada"}, path)
	if err != nil {
		t.Fatalf("%v (%v)", err, same.Problems)
	}
	if len(same.Files) != 4 || same.Added != 0 || same.Updated != 0 || same.SkippedDuplicate != 2 {
		t.Errorf("into ada: files %d added %d updated %d duplicate %d", len(same.Files), same.Added, same.Updated, same.SkippedDuplicate)
	}
	if !reportHas(same, "not imported, for reading only: goals.csv, program_history.csv") || !reportHas(same, "workouts.csv: csv-workouts (Hearth)") {
		t.Errorf("report:\n%s", strings.Join(SummaryLines(same), "\n"))
	}
	bob, err := ImportFile(ctx, db, Options{Member: "bob"}, path)
	if err != nil || bob.Added != 2 {
		t.Fatalf("into bob: %v, added %d", err, bob.Added)
	}
}

// A zip with no CSV file Hearth can read imports nothing and says why for
// each file; one that holds some imports those and names the others.
func TestZipOfCSVFilesSkipsWhatItCannotRead(t *testing.T) {
	db := newDB(t)
	sleep := "date,hours asleep,deep\n2024-01-05,7.5,1.2\n"
	_, err := ImportFile(t.Context(), db, Options{Member: "ada"}, buildZip(t, "withings.zip", zipFile{"sleep.csv", sleep}))
	var ve *ValidationError
	if !errors.As(err, &ve) || !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "sleep.csv: cannot tell what this CSV holds") {
		t.Fatalf("err = %v", err)
	}
	s, err := ImportFile(t.Context(), db, Options{Member: "ada"}, buildZip(t, "withings.zip",
		zipFile{"sleep.csv", sleep}, zipFile{"weight.csv", fixture(t, "withings_weight.csv")}))
	if err != nil || len(s.Files) != 1 || s.Files[0].Profile != "Withings weight.csv" || len(s.Skipped) != 1 ||
		!reportHas(s, "sleep.csv: not imported: cannot tell what this CSV holds") {
		t.Fatalf("%v; %+v", err, SummaryLines(s))
	}
	runs, _ := ListRuns(t.Context(), db, "ada", 10)
	if len(runs) != 1 { // a file that is skipped leaves no run behind
		t.Errorf("runs %+v", runs)
	}
}

// A file in a zip with bad records fails alone: the zip's other files
// import, the report says which failed, and the CLI exits 1.
func TestZipFileFailsAlone(t *testing.T) {
	db := newDB(t)
	path := buildZip(t, "mixed.zip",
		zipFile{"weights.csv", "date,weight,unit\n2024-01-05,81.4,kg\n2024-01-06,81.x,kg\n"},
		zipFile{"meals.csv", "date,name,calories\n2024-01-05 12:00,Soup,300\n"})
	s, err := ImportFile(t.Context(), db, Options{Member: "ada", Strict: true}, path)
	if err != nil || s.FailedFiles() != 1 || s.Files[1].Added != 1 || len(weights(t, db)) != 0 ||
		!reportHas(s, "weights.csv: nothing imported: line 3: weight \"81.x\" is not a number") {
		t.Fatalf("%v; failed %d; %q", err, s.FailedFiles(), SummaryLines(s))
	}
	code, out, _ := runCLI(t, cliDB(t, db), "--member", "ada", "--strict", path)
	if code != 1 || !strings.Contains(out, "weights.csv: nothing imported") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// Zip safety: too many entries are refused before the directory is read;
// what the files unpack to is capped for them together, whatever sizes the
// zip declares; entry names are never paths.
func TestZipLimits(t *testing.T) {
	t.Run("entries", func(t *testing.T) {
		db := newDB(t)
		files := make([]zipFile, maxZipEntries+1)
		for i := range files {
			files[i] = zipFile{name: fmt.Sprintf("d/%d.csv", i)}
		}
		_, err := ImportFile(t.Context(), db, Options{Member: "ada"}, buildZip(t, "many.zip", files...))
		if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "more than 50000 files") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("total size", func(t *testing.T) {
		db := newDB(t)
		var a, b strings.Builder
		a.WriteString("date,weight,unit\n")
		b.WriteString("date,weight,unit\n")
		for i := range 3000 {
			day := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format("2006-01-02 15:04")
			fmt.Fprintf(&a, "%s,81.4,kg\n", day)
			fmt.Fprintf(&b, "%s,82.4,kg\n", day)
		}
		path := buildZip(t, "two.zip", zipFile{"a.csv", a.String()}, zipFile{"b.csv", b.String()})
		s, err := ImportFile(t.Context(), db, Options{Member: "ada", MaxBytes: int64(a.Len()) + 1000}, path)
		if err != nil || len(s.Files) != 1 || len(s.Skipped) != 1 || !strings.Contains(s.Skipped[0].Reason, "left of the import limit") {
			t.Fatalf("%v; files %d skipped %+v", err, len(s.Files), s.Skipped)
		}
	})
	t.Run("declared size lies", func(t *testing.T) {
		db := newDB(t)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		body := "date,weight,unit\n" + strings.Repeat("2024-01-05,81.4,kg\n", 200_000) // 3.8 MB
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "liar.csv", Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(body))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		// Rewrite the central directory's uncompressed size (offset 24 of
		// its header) to say 100 bytes.
		i := bytes.LastIndex(data, []byte("PK\x01\x02"))
		copy(data[i+24:], []byte{100, 0, 0, 0})
		path := filepath.Join(t.TempDir(), "liar.zip")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		// Go's zip reader stops at the declared size (a damaged zip); the
		// import cap would stop it at 1 MiB otherwise.
		_, err = ImportFile(t.Context(), db, Options{Member: "ada", MaxBytes: 1 << 20}, path)
		if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "nothing imported") {
			t.Fatalf("err = %v", err)
		}
		if n := len(weights(t, db)); n != 0 {
			t.Fatalf("%d weights stored from a refused file", n)
		}
	})
	t.Run("names are labels", func(t *testing.T) {
		db := newDB(t)
		dir := t.TempDir()
		name := "../../" + filepath.Base(dir) + "/escaped.csv"
		s, err := ImportFile(t.Context(), db, Options{Member: "ada"}, buildZip(t, "x.zip", zipFile{name, "date,name,calories\n2024-01-07 12:00,Stew,300\n"}))
		if err != nil || s.Added != 1 || !reportHas(s, name+": csv-meals") {
			t.Fatalf("%v; %q", err, SummaryLines(s))
		}
		if _, err := os.Stat(filepath.Join(dir, "escaped.csv")); !os.IsNotExist(err) {
			t.Fatalf("an entry name reached the disk: %v", err)
		}
	})
}

// An Apple Health export.zip is still one export, whatever CSV files it
// also holds (electrocardiograms).
func TestAppleZipWithCSVFiles(t *testing.T) {
	db := newDB(t)
	s, err := ImportFile(t.Context(), db, Options{Member: "ada"}, buildZip(t, "export.zip",
		zipFile{"apple_health_export/electrocardiograms/ecg_2024-01-05.csv", "Name,Ada\nDate of Birth,1990-01-01\n"},
		zipFile{"apple_health_export/export.xml", fixture(t, "export.xml")}))
	if err != nil || s.Kind != KindApple || s.Added != 18 {
		t.Fatalf("%v; kind %s added %d", err, s.Kind, s.Added)
	}
}

func ptr(f float64) *float64 { return &f }
