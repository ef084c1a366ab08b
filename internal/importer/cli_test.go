package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/store"
)

func runCLI(t *testing.T, db *store.DB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = RunCLI(t.Context(), args, &out, &errb, func(context.Context) (*store.DB, error) { return db, nil })
	return code, out.String(), errb.String()
}

// cliDB is a database RunCLI may close: a second handle on the test's file.
func cliDB(t *testing.T, db *store.DB) *store.DB {
	t.Helper()
	h, err := store.Open(t.Context(), db.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestRunCLI(t *testing.T) {
	db := newDB(t)
	code, out, errOut := runCLI(t, cliDB(t, db), "--member", "ada", "--tz", "Europe/Berlin",
		filepath.Join("testdata", "export.xml"), filepath.Join("testdata", "weight.csv"), "--kind", "auto")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"export.xml: apple",
		"added 18, updated 0, skipped as duplicate 0, repeated in file 2, skipped as unknown 3, rejected 0",
		"BodyMass", "meals: 4 created", "weight.csv: csv-weight", "added 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if len(weights(t, db)) != 5 {
		t.Errorf("weights stored: %d, want 2 from Apple + 3 from CSV", len(weights(t, db)))
	}

	code, out, _ = runCLI(t, cliDB(t, db), "--member", "ada", "--tz", "Europe/Berlin", filepath.Join("testdata", "weight.csv"))
	if code != 0 || !strings.Contains(out, "added 0, updated 0, skipped as duplicate 3") {
		t.Errorf("second run: exit %d\n%s", code, out)
	}
}

func TestRunCLIFailures(t *testing.T) {
	db := newDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no member flag", []string{"testdata/weight.csv"}, 2, "--member is required"},
		{"no files", []string{"--member", "ada"}, 2, "no files given"},
		{"bad kind", []string{"--member", "ada", "--kind", "pdf", "x"}, 2, "unknown import kind"},
		{"bad zone", []string{"--member", "ada", "--tz", "Mars/Base", "x"}, 2, "unknown time zone"},
		{"unknown member", []string{"--member", "zed", "testdata/weight.csv"}, 1, `no member "zed" (members: ada)`},
		{"bad row, strict", []string{"--member", "ada", "--strict", "testdata/weight_bad_row.csv"}, 1, "line 3: weight \"81.x\" is not a number"},
		{"bad unit", []string{"--member", "ada", "--unit", "stone", "x"}, 2, `unknown unit "stone"`},
		{"truncated", []string{"--member", "ada", "testdata/export_truncated.xml"}, 1, "truncated"},
		{"missing file", []string{"--member", "ada", "testdata/nope.csv"}, 1, "cannot open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, cliDB(t, db), tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant %q", code, tt.code, errOut, tt.want)
			}
		})
	}
	if c := counts(t, db); c != [4]int{} {
		t.Errorf("rows stored by failing runs: %v", c)
	}
}

func TestBarRendering(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, true, "export.zip")
	b.update(Progress{BytesRead: 50 << 20, BytesTotal: 100 << 20, Records: 1234})
	b.finish()
	got := buf.String()
	if !strings.Contains(got, "\rexport.zip [###############...............]  50% 50.0 MB/100.0 MB, 1234 records") || !strings.HasSuffix(got, "\n") {
		t.Errorf("terminal bar = %q", got)
	}

	// Not a terminal: a first line, one per tenth of the file (or every 5 s),
	// then a final 100 % line with the totals.
	buf.Reset()
	clock := time.Unix(0, 0)
	b = newBar(&buf, false, "export.zip")
	b.now = func() time.Time { return clock }
	for read := int64(1); read <= 1000; read++ {
		clock = clock.Add(time.Millisecond) // 1 s in all: no line for time alone
		b.update(Progress{BytesRead: read, BytesTotal: 1000, Records: read * 3})
	}
	b.update(Progress{BytesRead: 1000, BytesTotal: 1000, Records: 3000, Done: true})
	b.finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 11 || strings.Contains(buf.String(), "\r") {
		t.Fatalf("log output = %q, want 10 plain lines (0 %% … 90 %%) and the final one", buf.String())
	}
	if lines[1] != "export.zip  10% 100 B/1000 B, 300 records" ||
		lines[10] != "export.zip 100% 1000 B/1000 B, 3000 records, done reading" {
		t.Errorf("first %q, last %q", lines[0], lines[10])
	}

	// Slow progress still shows a sign of life every 5 s.
	buf.Reset()
	b = newBar(&buf, false, "big.zip")
	b.now = func() time.Time { return clock }
	for i := range 4 {
		clock = clock.Add(3 * time.Second)
		b.update(Progress{BytesRead: int64(i), BytesTotal: 1 << 30, Records: int64(i)})
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("12 s of slow progress printed %d lines, want 2: %q", n, buf.String())
	}
}
