package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
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

// TestCatalogMetadataShownAndEdited: the catalog page shows each item's
// intensity, impact and loaded areas (guesses marked), the edit form saves
// an admin's values (checked: they reach the catalog), refuses unknown
// ones with nothing saved, and hands them back to the catalog on request.
func TestCatalogMetadataShownAndEdited(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	good, err := os.ReadFile("../internal/content/testdata/good.json")
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := env.upload("/admin/catalog/import", nil, "catalog", "good.json", good, false); resp.StatusCode != 200 {
		t.Fatalf("import: %d %s", resp.StatusCode, body)
	}
	_, body := env.page("/admin/catalog?program=mini-3")
	mustContain(t, "listing", body, "<th>Intensity</th>", "<th>Loads</th>", "back, hip, knee, shoulder",
		"guessed from the kind: intensity, impact, areas", `href="/admin/catalog?edit=local%3Amini-1#catalog-meta"`)

	_, body = env.page("/admin/catalog?edit=local%3Amini-1")
	mustContain(t, "form", body, `id="catalog-meta"`, "Metadata of Mini Day 1: Legs", `name="areas" value="knee"`,
		`name="areas_guessed" value="1" checked`)

	resp, body := env.form("/admin/catalog/meta", url.Values{"id": {"local:mini-1"}, "intensity": {"high"},
		"impact": {"low"}, "areas": {"knee", "hip"}}, false)
	if resp.StatusCode != 200 {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	mustContain(t, "saved", body, "Metadata saved.", "edited here", "Use the catalog")
	it, err := env.cat.Get(ctx, "local:mini-1")
	if err != nil || it.Intensity != "high" || it.Impact != "low" || strings.Join(it.Areas, ",") != "hip,knee" || !it.MetaEdited {
		t.Fatalf("stored %+v, %v", it, err)
	}

	resp, body = env.form("/admin/catalog/meta", url.Values{"id": {"local:mini-1"}, "intensity": {"brutal"}}, false)
	if resp.StatusCode != 400 || !strings.Contains(body, "Nothing was saved") || !strings.Contains(body, `unknown intensity &#34;brutal&#34;`) {
		t.Fatalf("bad value: %d %s", resp.StatusCode, body)
	}
	if it, _ = env.cat.Get(ctx, "local:mini-1"); it.Intensity != "high" {
		t.Fatalf("a refused edit changed the item: %+v", it)
	}

	resp, body = env.form("/admin/catalog/meta", url.Values{"id": {"local:mini-1"}, "release": {"1"}, "areas_guessed": {"1"}}, false)
	if resp.StatusCode != 200 || !strings.Contains(body, "catalog&#39;s values apply again") {
		t.Fatalf("release: %d %s", resp.StatusCode, body)
	}
	if it, _ = env.cat.Get(ctx, "local:mini-1"); it.MetaEdited || it.Areas != nil || it.Intensity != "" {
		t.Fatalf("released item %+v", it)
	}
	if resp, _ := env.form("/admin/catalog/meta", url.Values{"id": {"local:ghost"}}, false); resp.StatusCode != 404 {
		t.Fatalf("unknown id: %d", resp.StatusCode)
	}
}
