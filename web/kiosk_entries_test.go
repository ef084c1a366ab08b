package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/household"
)

// Correcting from the kiosk: a row opens the entry's sheet with its values,
// saving is checked like a new entry (an implausible figure asks first),
// and a delete offers Undo.
func TestKioskCorrectsAnEntry(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	for d := 4; d >= 1; d-- {
		if _, err := k.hh.LogWeight(ctx, "ada", household.WeightInput{MeasuredAt: time.Now().AddDate(0, 0, -d), Weight: 70.5}); err != nil {
			t.Fatal(err)
		}
	}
	w, err := k.hh.LogWeight(ctx, "ada", household.WeightInput{Weight: 70.4})
	if err != nil {
		t.Fatal(err)
	}
	entry := fmt.Sprintf("/m/ada/entry/weight/%d", w.ID)
	_, page := k.get("/m/ada")
	if !strings.Contains(page, `data-on:click="@get(&#39;`+entry+`&#39;)"`) {
		t.Fatalf("the weight widget has no row that opens %s", entry)
	}
	// Datastar: the sheet is filled and opened.
	resp, body := datastarGet(t, k, entry)
	if resp.StatusCode != 200 || !strings.Contains(body, `id="form-entry"`) || !strings.Contains(body, `value="70.4"`) ||
		!strings.Contains(body, `"_sheet":"entry"`) {
		t.Fatalf("entry sheet: %d\n%s", resp.StatusCode, body)
	}
	// A plain GET shows the dashboard with the sheet open.
	if code, page := k.get(entry); code != 200 || !strings.Contains(page, "Edit weigh-in") {
		t.Fatalf("plain entry page: %d", code)
	}
	// Implausible: asked, nothing stored; "Save anyway" stores it.
	_, body = k.post(entry, formOf("weight", "6.9", "when", time.Now().UTC().Format("2006-01-02T15:04")), "")
	if !strings.Contains(body, "Are you sure? 6.9 kg is far from your trend of 70.5 kg.") || !strings.Contains(body, "Save anyway") {
		t.Fatalf("implausible edit not asked:\n%s", body)
	}
	if got, _ := k.hh.Weight(ctx, "ada", w.ID); got.WeightKg != 70.4 {
		t.Fatalf("stored before confirming: %v", got.WeightKg)
	}
	_, body = k.post(entry, formOf("weight", "69.9", "confirm", ""), "")
	if !strings.Contains(body, "Changes saved.") || !strings.Contains(body, `"_sheet":""`) {
		t.Fatalf("edit: %s", body)
	}
	if got, _ := k.hh.Weight(ctx, "ada", w.ID); got.WeightKg != 69.9 {
		t.Fatalf("edited weight %v", got.WeightKg)
	}
	// bo cannot reach ada's entry through his own dashboard.
	if resp, _ := k.send(fmt.Sprintf("/m/bo/entry/weight/%d/delete", w.ID), formOf(), "", false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bo deleting ada's weigh-in: %d", resp.StatusCode)
	}
	// Delete, then Undo from the toast.
	_, body = k.post(entry+"/delete", formOf(), "")
	undo := regexp.MustCompile(`action="(/m/ada/undo/\d+)"`).FindStringSubmatch(body)
	if !strings.Contains(body, "Weigh-in deleted.") || undo == nil {
		t.Fatalf("delete: no toast with Undo:\n%s", body)
	}
	if _, err := k.hh.Weight(ctx, "ada", w.ID); err == nil {
		t.Fatal("the weigh-in is still there")
	}
	_, body = k.post(undo[1], formOf(), "")
	if !strings.Contains(body, "Weigh-in restored.") {
		t.Fatalf("undo: %s", body)
	}
	if got, err := k.hh.Weight(ctx, "ada", w.ID); err != nil || got.WeightKg != 69.9 {
		t.Fatalf("restored %+v, %v", got, err)
	}
}

// The meal sheet backfills: a date and time in the household's zone.
func TestMealSheetTakesADateAndTime(t *testing.T) {
	k := newKiosk(t)
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	at := time.Date(yesterday.Year(), yesterday.Month(), yesterday.Day(), 19, 30, 0, 0, time.UTC)
	_, body := k.post("/m/ada/meal", formOf("name", "Curry", "calories", "650", "when", at.Format("2006-01-02T15:04")), "")
	if !strings.Contains(body, "Meal saved.") {
		t.Fatalf("backfilled meal: %s", body)
	}
	ms, _ := k.hh.Meals(context.Background(), "ada", 1)
	if len(ms) != 1 || !ms[0].EatenAt.Equal(at) {
		t.Fatalf("meals %+v, want eaten at %v", ms, at)
	}
	_, body = k.post("/m/ada/meal", formOf("name", "Later", "calories", "300", "when", time.Now().Add(3*time.Hour).UTC().Format("2006-01-02T15:04")), "")
	if !strings.Contains(body, "must not be in the future") {
		t.Fatalf("a meal in the future: %s", body)
	}
	// A body scan sheet exists, in the member's unit.
	_, body = k.post("/m/bo/scan", formOf("body_fat_pct", "18.5", "lean_mass", "150"), "")
	if !strings.Contains(body, "Body scan saved.") {
		t.Fatalf("scan: %s", body)
	}
	bs, _ := k.hh.BodyScans(context.Background(), "bo", 1)
	if len(bs) != 1 || *bs[0].LeanMassKg < 68 || *bs[0].LeanMassKg > 68.1 {
		t.Fatalf("bo's 150 lb of lean mass: %+v", bs)
	}
}

// datastarGet sends a GET as a Datastar action and reads the whole answer.
func datastarGet(t *testing.T, k *kiosk, path string) (*http.Response, string) {
	t.Helper()
	return datastarGetWith(t, k.client, k.srv.URL+path)
}

func datastarGetWith(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
