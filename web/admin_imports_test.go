package web_test

import (
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

func TestImportUploadRefusals(t *testing.T) {
	env := newAdminEnv(t)
	bad := "date,weight,unit\n2024-01-05,81.4,kg\n2024-01-06,81.x,kg\n"
	_, body := env.upload("/admin/imports", map[string]string{"member": "ada", "kind": "csv-weight"}, "file", "bad.csv", []byte(bad), true)
	mustContain(t, "bad row", body, "Nothing was imported", "line 3", `class="problems"`)
	if n := countWeights(t, env); n != 0 {
		t.Fatalf("a bad file imported %d weights", n)
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
