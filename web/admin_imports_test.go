package web_test

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

const weightCSV = "date,weight,unit\n2024-01-05,81.4,kg\n2024-01-06,81.2,kg\n"

func countWeights(t *testing.T, env *adminEnv) int {
	t.Helper()
	var n int
	if err := env.db.Read.QueryRowContext(context.Background(), `SELECT count(*) FROM weight_readings`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportUploadStreamsProgressAndSummary(t *testing.T) {
	env := newAdminEnv(t)
	fields := map[string]string{"member": "ada", "kind": "auto"}
	resp, body := env.upload("/admin/imports", fields, "file", "weight.csv", []byte(weightCSV), true)
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	evs := sseEvents(body)
	if len(evs) < 3 {
		t.Fatalf("want progress, summary and history events, got %d:\n%s", len(evs), body)
	}
	mustContain(t, "first event", evs[0], `id="import-status"`, "Importing weight.csv")
	mustContain(t, "summary", body, "Imported weight.csv", `data-count="added">2<`, `data-count="duplicate">0<`,
		`data-count="unknown">0<`, `data-count="rejected">0<`, `id="imports-list"`, "complete")
	if n := countWeights(t, env); n != 2 {
		t.Fatalf("weights = %d, want 2", n)
	}
	if left, err := os.ReadDir(env.uploadDir); err != nil || len(left) != 0 {
		t.Fatalf("upload directory after the import: %v, %v (want it empty)", left, err)
	}
	// The same file again adds nothing.
	_, body = env.upload("/admin/imports", fields, "file", "weight.csv", []byte(weightCSV), true)
	mustContain(t, "second import", body, `data-count="added">0<`, `data-count="duplicate">2<`)
	if n := countWeights(t, env); n != 2 {
		t.Fatalf("weights after re-import = %d", n)
	}
	// Without Datastar: the page with the summary.
	resp, body = env.upload("/admin/imports", fields, "file", "weight.csv", []byte(weightCSV), false)
	if resp.StatusCode != 200 {
		t.Fatalf("plain upload: %d", resp.StatusCode)
	}
	mustContain(t, "plain upload", body, "<h1>Imports</h1>", `data-count="duplicate">2<`)
}

// By default a bad record is listed and the rest imports; an app export is
// named, and what it assumed or left out is said.
func TestImportUploadReportsRejectionsAndNotes(t *testing.T) {
	env := newAdminEnv(t)
	bad := "date,weight,unit\n2024-01-05,81.4,kg\n2024-01-06,81.x,kg\n"
	_, body := env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto"}, "file", "bad.csv", []byte(bad), true)
	mustContain(t, "bad row", body, "Imported bad.csv", `data-count="added">1<`, `data-count="rejected">1<`,
		"Rejected records (the others were imported)", "line 3: weight &#34;81.x&#34; is not a number")
	if n := countWeights(t, env); n != 1 {
		t.Fatalf("weights = %d, want the good row", n)
	}
	measurements := "Date,Weight\r\n2024-03-01,184.6\r\n"
	_, body = env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto", "unit": "lb"}, "file",
		"Measurement-Summary-2024-03-01-to-2024-03-05.csv", []byte(measurements), true)
	mustContain(t, "unit", body, "MyFitnessPal Measurement-Summary", `data-count="added">1<`,
		"the file does not say its weight unit: read as lb (as chosen for this import)")
	var kg float64
	if err := env.db.Read.QueryRow(`SELECT weight_kg FROM weight_readings WHERE measured_at LIKE '2024-03-01%'`).Scan(&kg); err != nil || kg < 83.7 || kg > 83.8 {
		t.Fatalf("184.6 lb stored as %v kg (%v)", kg, err)
	}
	_, body = env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto", "unit": "stone"}, "file", "w.csv", []byte(weightCSV), true)
	mustContain(t, "bad unit", body, "choose kg, lb or the member")
}

func TestImportUploadRefusals(t *testing.T) {
	env := newAdminEnv(t)
	bad := "date,weight,unit\n2024-01-05,81.4,kg\n2024-01-06,81.x,kg\n"
	_, body := env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "csv-weight", "strict": "1"}, "file", "bad.csv", []byte(bad), true)
	mustContain(t, "bad row, strict", body, "Nothing was imported", "line 3", `class="problems"`)
	if n := countWeights(t, env); n != 0 {
		t.Fatalf("a bad file imported %d weights with strict on", n)
	}
	_, body = env.upload("/admin/imports", map[string]string{"member": "", "kind": "auto"}, "file", "w.csv", []byte(weightCSV), true)
	mustContain(t, "no member", body, "choose the member")
	_, body = env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto"}, "", "", nil, true)
	mustContain(t, "no file", body, "choose a non-empty file")
	resp, body := env.upload("/admin/imports", map[string]string{"member": "zed", "kind": "auto"}, "file", "w.csv", []byte(weightCSV), false)
	if resp.StatusCode != 404 || !strings.Contains(body, "zed") {
		t.Fatalf("unknown member: %d", resp.StatusCode)
	}
	resp, body = env.upload("/admin/imports", map[string]string{"member": "", "kind": "weird"}, "file", "w.csv", []byte(weightCSV), false)
	if resp.StatusCode != 400 {
		t.Fatalf("plain form errors: %d", resp.StatusCode)
	}
	mustContain(t, "plain form errors", body, "choose the member", "choose a kind")
	if n := countWeights(t, env); n != 0 {
		t.Fatalf("refused uploads imported %d weights", n)
	}
}

func TestImportUploadSizeLimit(t *testing.T) {
	env := newAdminEnv(t, withMaxImport(1024))
	big := weightCSV + strings.Repeat("2024-02-01,80.0,kg\n", 100)
	for _, datastar := range []bool{true, false} {
		resp, body := env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto"}, "file", "big.csv", []byte(big), datastar)
		mustContain(t, "too large", body, "larger than the 1.0 kB limit")
		if !datastar && resp.StatusCode != 413 {
			t.Fatalf("plain upload too large: %d", resp.StatusCode)
		}
	}
	if n := countWeights(t, env); n != 0 {
		t.Fatalf("a refused upload imported %d weights", n)
	}
	if left, _ := os.ReadDir(env.uploadDir); len(left) != 0 {
		t.Fatalf("a refused upload left %d files behind", len(left))
	}
}

// A zip of CSV files is accepted like any import file: each file in it is
// imported on its own and the summary lists each (MyFitnessPal's export is
// such a zip, and so is Hearth's own).
func TestImportUploadZipOfCSVFiles(t *testing.T) {
	env := newAdminEnv(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{"export/weight.csv": weightCSV, "export/meals.csv": "date,name,calories\n2024-01-05 12:00,Soup,300\n"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_, body := env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "auto"}, "file", "mine.zip", buf.Bytes(), true)
	mustContain(t, "zip summary", body, "Imported mine.zip", `data-count="added">3<`, "export/weight.csv: csv-weight: added 2",
		"export/meals.csv: csv-meals: added 1", "mine.zip › export/weight.csv")
	if n := countWeights(t, env); n != 2 {
		t.Fatalf("weights = %d, want 2", n)
	}
}
