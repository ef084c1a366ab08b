package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/health"
	"hearth/internal/store"
)

func TestImportSubcommandIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateMember(context.Background(), health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	csv := filepath.Join(dir, "weights.csv")
	if err := os.WriteFile(csv, []byte("date,weight,unit\n2026-01-01,70.5,kg\n2026-01-02,155,lb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string { return map[string]string{"HEARTH_DATA": dir}[k] }
	for i, want := range []string{"added 2, updated 0, skipped as duplicate 0", "added 0, updated 0, skipped as duplicate 2"} {
		var out, errb bytes.Buffer
		if code := runImport([]string{"--member", "ada", csv}, env, &out, &errb); code != 0 {
			t.Fatalf("import %d exit %d: %s %s", i, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Fatalf("import %d summary: %q", i, out.String())
		}
	}
	db, err = store.Open(context.Background(), filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws, err := db.Weights(context.Background(), "ada", store.Range{})
	if err != nil || len(ws) != 2 {
		t.Fatalf("weights after two imports = %d, %v", len(ws), err)
	}
	var errb bytes.Buffer
	if code := runImport([]string{"--member", "nobody", csv}, env, &bytes.Buffer{}, &errb); code == 0 {
		t.Fatal("unknown member imported")
	}
}
