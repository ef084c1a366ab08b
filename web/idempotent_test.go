package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/household"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A creating request repeated with the same request id (the Datastar client
// re-sends a POST whose reply was lost) stores one entry and gets the first
// answer again; the same id with another body is a conflict.
func TestRepeatedKioskPostStoresOnce(t *testing.T) {
	k := newKiosk(t)
	form := url.Values{"name": {"Oats"}, "calories": {"350"}, "_rid": {"0f1e2d3c4b5a69788796a5b4c3d2e1f0"}}
	first, body1 := k.post("/m/ada/meal", form, "")
	second, body2 := k.post("/m/ada/meal", form, "")
	if first.StatusCode != 200 || second.StatusCode != 200 {
		t.Fatalf("status %d, %d", first.StatusCode, second.StatusCode)
	}
	if n := countRows(t, k.db, "meals"); n != 1 {
		t.Fatalf("%d meals stored, want 1", n)
	}
	if body1 != body2 || !strings.Contains(body2, "Meal saved.") || second.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("repeat was not the first answer:\n%s\n---\n%s", body1, body2)
	}
	form.Set("calories", "400")
	resp, body := k.post("/m/ada/meal", form, "")
	if resp.StatusCode != 200 || !strings.Contains(body, "already used for a different request") {
		t.Fatalf("changed body with the same id: %d %s", resp.StatusCode, body)
	}
	// A fresh id is a new entry; no id at all is the old behaviour.
	form.Set("_rid", "aaaabbbbccccddddeeeeffff00001111")
	k.post("/m/ada/meal", form, "")
	form.Del("_rid")
	k.post("/m/ada/meal", form, "")
	if n := countRows(t, k.db, "meals"); n != 3 {
		t.Fatalf("%d meals stored, want 3", n)
	}
	form.Set("_rid", "short")
	if resp, body := k.send("/m/ada/meal", form, "", false); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("malformed id: %d %s", resp.StatusCode, body)
	}
}

// The JSON API takes the id as an Idempotency-Key header.
func TestAPIIdempotencyKey(t *testing.T) {
	k := newKiosk(t)
	post := func(body, key string) (int, string, http.Header) {
		req, _ := http.NewRequest(http.MethodPost, k.srv.URL+"/api/v1/members/ada/weight", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	key := "api-key-0000000000000001"
	c1, b1, _ := post(`{"weight_kg":73.3}`, key)
	c2, b2, h2 := post(`{"weight_kg":73.3}`, key)
	if c1 != 201 || c2 != 201 || b1 != b2 || h2.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("repeat: %d %s / %d %s", c1, b1, c2, b2)
	}
	if n := countRows(t, k.db, "weight_readings"); n != 1 {
		t.Fatalf("%d readings, want 1", n)
	}
	if c, b, _ := post(`{"weight_kg":74}`, key); c != http.StatusUnprocessableEntity || !strings.Contains(b, `"code":"key_reused"`) {
		t.Fatalf("same key, other body: %d %s", c, b)
	}
	// A refused request records nothing: fixing it and sending again works.
	key2 := "api-key-0000000000000002"
	if c, _, _ := post(`{"weight_kg":7000}`, key2); c != http.StatusBadRequest {
		t.Fatalf("implausible weight: %d", c)
	}
	// (73 kg: within a day's swing of the 73.3 kg a moment ago, which the
	// sudden-change rule would otherwise ask about.)
	if c, _, _ := post(`{"weight_kg":73}`, key2); c != http.StatusCreated {
		t.Fatalf("corrected request: %d", c)
	}
	if n := countRows(t, k.db, "weight_readings"); n != 2 {
		t.Fatalf("%d readings, want 2", n)
	}
}

// The same request id on another resource is a different request: 422,
// never the first one's answer. On the kiosk, one id sent to delete meal A
// and then meal B must not answer B with A's receipt and leave B in place.
func TestRequestIDIsBoundToItsResource(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	a, err := k.hh.LogMeal(ctx, "ada", household.MealInput{Name: "Oats", Calories: 350})
	if err != nil {
		t.Fatal(err)
	}
	b, err := k.hh.LogMeal(ctx, "ada", household.MealInput{Name: "Soup", Calories: 300})
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"_rid": {"reused-id-0000000000000001"}}
	if resp, body := k.send(fmt.Sprintf("/m/ada/entry/meal/%d/delete", a.ID), form, "", false); resp.StatusCode >= 400 {
		t.Fatalf("delete A: %d %s", resp.StatusCode, body)
	}
	resp, body := k.send(fmt.Sprintf("/m/ada/entry/meal/%d/delete", b.ID), form, "", false)
	if resp.StatusCode != http.StatusUnprocessableEntity || resp.Header.Get("Idempotent-Replayed") != "" ||
		!strings.Contains(body, "already used for a different request") {
		t.Fatalf("the same id on meal B: %d replayed=%q %s", resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), body)
	}
	if _, err := k.hh.Meal(ctx, "ada", b.ID); err != nil {
		t.Fatalf("meal B is gone or unreadable: %v", err)
	}
	if n := countRows(t, k.db, "meals"); n != 1 {
		t.Fatalf("%d meals left, want 1 (A deleted, B kept)", n)
	}
}

// On the JSON API, one Idempotency-Key sent to two threads answers the
// second with 422 (code key_reused) and sends nothing to it.
func TestIdempotencyKeyAcrossThreads(t *testing.T) {
	a, hs := modelApp(t, llmtest.New(t, llmtest.Reply{Content: "Noted."}))
	ctx := context.Background()
	maya, err := a.Agents.CreateThread(ctx, "health-coach", "maya", "")
	if err != nil {
		t.Fatal(err)
	}
	theo, err := a.Agents.CreateThread(ctx, "health-coach", "theo", "")
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]string{"Idempotency-Key": "0196f1a2-7c3b-7d4e-9f10-123456789abc"} // a UUID, as clients send
	resp := apiDo(t, ctx, hs, "POST", "/api/threads/"+itoa(maya.ID)+"/messages", `{"content":"Hello"}`, key)
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("first message: %d %s", resp.StatusCode, first)
	}
	resp = apiDo(t, ctx, hs, "POST", "/api/threads/"+itoa(theo.ID)+"/messages", `{"content":"Hello"}`, key)
	second, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var e struct{ Code string }
	_ = json.Unmarshal(second, &e)
	if resp.StatusCode != http.StatusUnprocessableEntity || e.Code != "key_reused" || resp.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the same key on Theo's thread: %d %s (replayed %q)", resp.StatusCode, second, resp.Header.Get("Idempotent-Replayed"))
	}
	if msgs, _ := a.Agents.Threads().Messages(ctx, theo.ID, 0, 0); len(msgs) != 0 {
		t.Fatalf("Theo's thread got %d messages", len(msgs))
	}
}

// A request id is unique on its own, not per member: the same id sent for
// Ada and then for Bo (a script reusing its key, a form re-sent on another
// member's screen) answers Bo 422 key_reused, replays nothing and stores
// nothing for Bo; on the kiosk's forms and on the JSON API alike.
func TestRequestIDAcrossMembers(t *testing.T) {
	k := newKiosk(t)
	boRows := func(table string) int {
		t.Helper()
		var n int
		if err := k.db.Read.QueryRow(`SELECT count(*) FROM ` + table + ` WHERE member_id = 'bo'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	form := url.Values{"weight": {"70.5"}, "_rid": {"shared-id-00000000000000001"}}
	if resp, body := k.send("/m/ada/weight", form, "", false); resp.StatusCode >= 400 {
		t.Fatalf("Ada's weight: %d %s", resp.StatusCode, body)
	}
	resp, body := k.send("/m/bo/weight", form, "", false)
	if resp.StatusCode != http.StatusUnprocessableEntity || resp.Header.Get("Idempotent-Replayed") != "" ||
		!strings.Contains(body, "already used for a different request") {
		t.Fatalf("the same id on Bo's weight: %d replayed=%q %s", resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), body)
	}
	if n := boRows("weight_readings"); n != 0 {
		t.Fatalf("Bo got %d weigh-ins", n)
	}

	key := "0196f1a2-7c3b-7d4e-9f10-cba987654321"
	post := func(member string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, k.srv.URL+"/api/v1/members/"+member+"/meals",
			strings.NewReader(`{"name":"Soup","calories":300}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("Idempotent-Replayed") != "" && member == "bo" {
			t.Errorf("Bo got Ada's reply replayed")
		}
		return resp.StatusCode, string(b)
	}
	if c, b := post("ada"); c != http.StatusCreated {
		t.Fatalf("Ada's meal: %d %s", c, b)
	}
	var e struct{ Code string }
	c, b := post("bo")
	_ = json.Unmarshal([]byte(b), &e)
	if c != http.StatusUnprocessableEntity || e.Code != "key_reused" {
		t.Fatalf("the same key on Bo's meals: %d %s", c, b)
	}
	if n := boRows("meals"); n != 0 {
		t.Fatalf("Bo got %d meals", n)
	}
}
