package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"hearth/internal/importer"
)

// A smart scale's body fat read from Home Assistant shows on the kiosk as
// Apple Health's does: measured, not scanned.
func TestHomeAssistantBodyFatShowsAsMeasured(t *testing.T) {
	k := newKiosk(t)
	sum, err := importer.WriteReadings(context.Background(), k.db, importer.Readings{Member: "ada", Source: importer.SourceHomeAssistant,
		Name: "Home Assistant sensor.scale_body_fat", Readings: []importer.Reading{
			{Kind: importer.ReadingBodyFat, At: time.Now().Add(-2 * time.Hour), Value: 23.4},
		}})
	if err != nil || sum.Added != 1 {
		t.Fatalf("write: %+v, %v", sum, err)
	}
	code, page := k.get("/m/ada")
	if code != http.StatusOK {
		t.Fatalf("GET /m/ada: %d", code)
	}
	body := widgetHTML(t, page, "w-body")
	mustContain(t, "body widget", body, "23.4", "Measured ")
	mustNotContain(t, "body widget", body, "Scanned ")
}

// A weigh-in from a device says where it came from in the weight widget's
// list; one typed in Hearth does not.
func TestWeighInsNameTheirSource(t *testing.T) {
	k := newKiosk(t)
	sum, err := importer.WriteReadings(context.Background(), k.db, importer.Readings{Member: "ada", Source: importer.SourceHomeAssistant,
		Name: "Home Assistant sensor.scale_weight", Readings: []importer.Reading{
			{Kind: importer.ReadingWeight, At: time.Now().Add(-time.Hour), Value: 70.4},
		}})
	if err != nil || sum.Added != 1 {
		t.Fatalf("write: %+v, %v", sum, err)
	}
	code, page := k.get("/m/ada")
	if code != http.StatusOK {
		t.Fatalf("GET /m/ada: %d", code)
	}
	list := widgetHTML(t, page, "w-weight")
	mustContain(t, "weight widget", list, `<span class="entry-source">Home Assistant</span>`)
	if n := strings.Count(list, `class="entry-source"`); n != 1 {
		t.Fatalf("%d rows name a source, want only the device's", n)
	}
}
