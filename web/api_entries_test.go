package web_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"hearth/internal/store/storetest"
)

// doStatus sends a request whose answer may have no body (204).
func doStatus(t *testing.T, method, url string) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestAPIEditAndDeleteEntries(t *testing.T) {
	srv, db := newTestServer(t)
	storetest.Member(t, db, "bo")
	base := srv.URL + "/api/v1/members/"
	var ids []float64
	for d := 4; d >= 1; d-- {
		at := time.Now().AddDate(0, 0, -d).UTC().Format(time.RFC3339)
		code, body := do(t, "POST", base+"ada/weight", fmt.Sprintf(`{"measured_at":%q,"weight_kg":70.5}`, at))
		if code != http.StatusCreated {
			t.Fatalf("weigh-in: %d %v", code, body)
		}
		ids = append(ids, body["id"].(float64))
	}
	newest := fmt.Sprintf("%sada/weight/%.0f", base, ids[len(ids)-1])

	// Far from the trend: 422 with the code and the member's figures.
	code, body := do(t, "PATCH", newest, `{"weight_kg": 6.9}`)
	if code != http.StatusUnprocessableEntity || body["code"] != "implausible" ||
		body["error"] != "Are you sure? 6.9 kg is far from your trend of 70.5 kg." {
		t.Fatalf("implausible edit: %d %v", code, body)
	}
	code, body = do(t, "POST", base+"ada/weight", `{"weight_kg": 6.9}`)
	if code != http.StatusUnprocessableEntity || body["code"] != "implausible" {
		t.Fatalf("implausible weigh-in: %d %v", code, body)
	}
	if n := countRows(t, db, "weight_readings"); n != 4 {
		t.Fatalf("an implausible weigh-in was stored: %d rows", n)
	}
	// Confirmed, it is stored; the answer is the entry as it is now.
	code, body = do(t, "PATCH", newest, `{"weight_kg": 6.9, "confirm": true}`)
	if code != http.StatusOK || body["weight_kg"].(float64) != 6.9 || body["id"].(float64) != ids[3] {
		t.Fatalf("confirmed edit: %d %v", code, body)
	}
	code, body = do(t, "PATCH", newest, `{"weight_kg": 70.9}`)
	if code != http.StatusOK || body["weight_kg"].(float64) != 70.9 || body["measured_at"] == nil {
		t.Fatalf("edit: %d %v", code, body)
	}
	// Another member's id is not found, and nothing changes.
	other := fmt.Sprintf("%sbo/weight/%.0f", base, ids[0])
	if code, body := do(t, "PATCH", other, `{"weight_kg": 80}`); code != http.StatusNotFound || body["code"] != "not_found" {
		t.Fatalf("edit across members: %d %v", code, body)
	}
	if code := doStatus(t, "DELETE", other); code != http.StatusNotFound {
		t.Fatalf("delete across members: %d", code)
	}
	// A meal over 5,000 kcal needs the confirmation too.
	code, body = do(t, "POST", base+"ada/meals", `{"name":"Feast","calories":5400}`)
	if code != http.StatusUnprocessableEntity || body["code"] != "implausible" {
		t.Fatalf("implausible meal: %d %v", code, body)
	}
	code, body = do(t, "POST", base+"ada/meals", `{"name":"Feast","calories":5400,"confirm":true}`)
	if code != http.StatusCreated {
		t.Fatalf("confirmed meal: %d %v", code, body)
	}
	meal := fmt.Sprintf("%sada/meals/%.0f", base, body["id"].(float64))
	if code, body := do(t, "PATCH", meal, `{"name":"Feast (shared)","calories":1800}`); code != http.StatusOK || body["name"] != "Feast (shared)" {
		t.Fatalf("meal edit: %d %v", code, body)
	}
	// Delete: 204, gone from the list, 404 the second time.
	if code := doStatus(t, "DELETE", meal); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if code, body := do(t, "GET", base+"ada/meals", ""); code != 200 || len(body["meals"].([]any)) != 0 {
		t.Fatalf("after delete: %d %v", code, body)
	}
	if code := doStatus(t, "DELETE", meal); code != http.StatusNotFound {
		t.Fatalf("delete twice: %d", code)
	}
	if code, _ := do(t, "PATCH", base+"ada/meals/abc", `{"calories":1}`); code != http.StatusNotFound {
		t.Fatalf("a bad id: %d", code)
	}
}
