package web_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
)

func TestCatalogImportAndBrowse(t *testing.T) {
	env := newAdminEnv(t)
	good, err := os.ReadFile("../internal/content/testdata/good.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, body := env.upload("/admin/catalog/import", nil, "catalog", "good.json", good, false)
	if resp.StatusCode != 200 {
		t.Fatalf("import: %d %s", resp.StatusCode, body)
	}
	mustContain(t, "imported", body, "Imported:", "items added", "Five Minute Warm-Up", "Mini Day 1: Legs")
	_, body = env.page("/admin/catalog?q=stretch")
	mustContain(t, "search", body, "Full Body Stretch")
	mustNotContain(t, "search", body, "Five Minute Warm-Up")
	_, body = env.page("/admin/catalog?program=mini-3")
	mustContain(t, "program filter", body, "Mini Day 1: Legs", " day 1")
	mustNotContain(t, "program filter", body, "Full Body Stretch")
}

func TestCatalogImportRefusesBadFilesWhole(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	bad := []byte(`{"items":[{"id":"local:a","title":"A","duration":5,"kind":"warm-up"},{"id":"local:b","title":"","duration":-1,"kind":"nope"}]}`)
	resp, body := env.upload("/admin/catalog/import", nil, "catalog", "bad.json", bad, false)
	if resp.StatusCode != 400 {
		t.Fatalf("bad file: %d", resp.StatusCode)
	}
	mustContain(t, "bad file", body, "Nothing was imported", `class="problems`, "items[1]")
	if n, _ := env.cat.Count(ctx); n != 0 {
		t.Fatalf("a bad file imported %d items", n)
	}
	resp, body = env.upload("/admin/catalog/import", nil, "catalog", "broken.json", []byte(`{"items": [`), false)
	if resp.StatusCode != 400 || !strings.Contains(body, "Nothing was imported") {
		t.Fatalf("truncated file: %d", resp.StatusCode)
	}
	resp, body = env.upload("/admin/catalog/import", nil, "", "", nil, false)
	if resp.StatusCode != 400 || !strings.Contains(body, "choose a catalog file") {
		t.Fatalf("no file: %d", resp.StatusCode)
	}
	huge := append([]byte(`{"items":[`), bytes.Repeat([]byte(" "), 9<<20)...)
	resp, body = env.upload("/admin/catalog/import", nil, "catalog", "huge.json", huge, false)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than") {
		t.Fatalf("huge file: %d", resp.StatusCode)
	}
	if n, _ := env.cat.Count(ctx); n != 0 {
		t.Fatalf("refused files imported %d items", n)
	}
}
