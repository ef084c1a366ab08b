package web_test

import (
	"context"
	"net/http"
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
