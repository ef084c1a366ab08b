package web_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/importer"
)

// widgetHTML cuts one widget's section out of a page.
func widgetHTML(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<section id="` + id + `".*?</section>`).FindString(page)
	if m == "" {
		t.Fatalf("no %s in the page", id)
	}
	return m
}

// What an Apple import reports as added is what the member sees: a body-fat
// reading without a weigh-in shows in the body widget, and a workout's
// distance shows with it, in the member's unit system.
func TestImportedReadingsShowOnTheKiosk(t *testing.T) {
	k := newKiosk(t)
	path := filepath.Join("..", "internal", "importer", "testdata", "export_messy.xml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, member := range []string{"ada", "bo"} {
		sum, err := importer.Import(context.Background(), k.db, importer.Options{Member: member, Location: time.UTC},
			"export.xml", strings.NewReader(string(data)), int64(len(data)))
		if err != nil || sum.BodyCompEntries != 2 {
			t.Fatalf("import for %s: %v, %d body-composition entries", member, err, sum.BodyCompEntries)
		}
	}
	code, page := k.get("/m/ada")
	if code != http.StatusOK {
		t.Fatalf("GET /m/ada: %d", code)
	}
	// The newest reading is the lean mass alone (7 March), after the body fat (6 March).
	body := widgetHTML(t, page, "w-body")
	mustContain(t, "body widget", body, "60.9 kg", "Measured ")
	if strings.Contains(body, "No body scan yet") {
		t.Errorf("imported body composition not shown: %s", body)
	}
	mustContain(t, "workouts (kg)", widgetHTML(t, page, "w-workouts"), "32 min · 5.0 km", "62 min · 20.0 km")
	_, page = k.get("/m/bo")
	mustContain(t, "workouts (lb)", widgetHTML(t, page, "w-workouts"), "32 min · 3.1 mi", "62 min · 12.4 mi")
	mustContain(t, "body widget (lb)", widgetHTML(t, page, "w-body"), "134.3 lb")
}
