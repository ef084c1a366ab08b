package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// newTestServer is the real app (newTestApp) with member ada, served.
func newTestServer(t *testing.T) (*served, *store.DB) {
	t.Helper()
	ta := newTestApp(t)
	storetest.Member(t, ta.app.DB, "ada")
	return ta.serve(), ta.app.DB
}

func countRows(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func do(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: non-JSON answer %q", method, url, raw)
	}
	return resp.StatusCode, out
}

func TestAPICreateAndList(t *testing.T) {
	srv, db := newTestServer(t)
	code, body := do(t, "POST", srv.URL+"/api/v1/members/ada/weight", `{"measured_at":"2026-02-01T07:00:00Z","weight_kg":70.2,"body_fat_pct":22.5}`)
	if code != http.StatusCreated || body["id"] == nil || body["weight_kg"].(float64) != 70.2 {
		t.Fatalf("create weight: %d %v", code, body)
	}
	code, body = do(t, "POST", srv.URL+"/api/v1/members/ada/meals", `{"name":"Oats","calories":350,"protein_g":12,"carbs_g":60,"fat_g":6}`)
	if code != http.StatusCreated || body["name"] != "Oats" {
		t.Fatalf("create meal: %d %v", code, body)
	}
	code, body = do(t, "POST", srv.URL+"/api/v1/members/ada/workouts", `{"type":"run","title":"Easy run","duration_min":30,"avg_hr":140}`)
	if code != http.StatusCreated || body["avg_hr"].(float64) != 140 {
		t.Fatalf("create workout: %d %v", code, body)
	}
	code, body = do(t, "POST", srv.URL+"/api/v1/members/ada/body-scans", `{"body_fat_pct":21,"lean_mass_kg":52.5,"visceral_fat":0.4}`)
	if code != http.StatusCreated || body["lean_mass_kg"].(float64) != 52.5 {
		t.Fatalf("create scan: %d %v", code, body)
	}
	for path, key := range map[string]string{"weight": "readings", "meals": "meals", "workouts": "workouts", "body-scans": "scans"} {
		code, body := do(t, "GET", srv.URL+"/api/v1/members/ada/"+path, "")
		if list, _ := body[key].([]any); code != 200 || len(list) != 1 {
			t.Errorf("GET %s: %d %v", path, code, body)
		}
	}
	code, body = do(t, "GET", srv.URL+"/api/v1/members", "")
	if ms, _ := body["members"].([]any); code != 200 || len(ms) != 1 || ms[0].(map[string]any)["id"] != "ada" {
		t.Fatalf("members: %d %v", code, body)
	}
	if n := countRows(t, db, "weight_readings"); n != 1 {
		t.Fatalf("weights stored = %d", n)
	}
}

func TestAPIBadInputChangesNothing(t *testing.T) {
	srv, db := newTestServer(t)
	huge := `{"name":"` + strings.Repeat("x", 2<<20) + `","calories":1}`
	cases := []struct {
		name, path, body string
		status           int
		msg              string // substring of "error"
		field            string // key expected in "fields"
	}{
		{"malformed JSON", "weight", `{"weight_kg": 70,`, 400, "malformed JSON", ""},
		{"not an object", "weight", `[1,2]`, 400, "malformed JSON", ""},
		{"negative weight", "weight", `{"weight_kg": -70}`, 400, "invalid input", "weight_kg"},
		{"missing weight", "weight", `{}`, 400, "invalid input", "weight_kg"},
		{"weight as string", "weight", `{"weight_kg": "heavy"}`, 400, "invalid input", "weight_kg"},
		{"bad time", "weight", `{"weight_kg": 70, "measured_at": "yesterday"}`, 400, "invalid input", "measured_at"},
		{"future time", "weight", `{"weight_kg": 70, "measured_at": "2999-01-01T00:00:00Z"}`, 400, "invalid input", "measured_at"},
		{"unknown field", "weight", `{"weight": 70}`, 400, "unknown field", ""},
		{"trailing data", "weight", `{"weight_kg": 70} {}`, 400, "unexpected data", ""},
		{"meal without name", "meals", `{"calories": 100}`, 400, "invalid input", "name"},
		{"negative calories", "meals", `{"name":"x","calories": -1}`, 400, "invalid input", "calories"},
		{"workout zero minutes", "workouts", `{"type":"run","duration_min":0}`, 400, "invalid input", "duration_min"},
		{"scan fat out of range", "body-scans", `{"body_fat_pct":120,"lean_mass_kg":50}`, 400, "invalid input", "body_fat_pct"},
		{"huge body", "meals", huge, 413, "too large", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := do(t, "POST", srv.URL+"/api/v1/members/ada/"+tc.path, tc.body)
			if code != tc.status {
				t.Fatalf("status = %d, want %d (%v)", code, tc.status, body)
			}
			msg, _ := body["error"].(string)
			if !strings.Contains(msg, tc.msg) {
				t.Fatalf("error = %q, want it to contain %q", msg, tc.msg)
			}
			if tc.field != "" {
				fields, _ := body["fields"].(map[string]any)
				if _, ok := fields[tc.field]; !ok {
					t.Fatalf("fields = %v, want %q", fields, tc.field)
				}
			}
		})
	}
	t.Run("unknown member", func(t *testing.T) {
		code, body := do(t, "POST", srv.URL+"/api/v1/members/nobody/weight", `{"weight_kg": 70}`)
		if code != 404 || !strings.Contains(body["error"].(string), "nobody") {
			t.Fatalf("%d %v", code, body)
		}
		code, _ = do(t, "GET", srv.URL+"/api/v1/members/nobody/meals", "")
		if code != 404 {
			t.Fatalf("GET unknown member: %d", code)
		}
	})
	for _, table := range []string{"weight_readings", "meals", "workouts", "body_scans"} {
		if n := countRows(t, db, table); n != 0 {
			t.Errorf("%s has %d rows after bad input", table, n)
		}
	}
}

func TestCrossSiteAndTokenlessBrowserPostsRefused(t *testing.T) {
	srv, db := newTestServer(t)
	post := func(hdr map[string]string, body string, ct string) int {
		req, _ := http.NewRequest("POST", srv.URL+"/m/ada/weight", strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	form := "application/x-www-form-urlencoded"
	if got := post(map[string]string{"Sec-Fetch-Site": "cross-site"}, "weight=70", form); got != 403 {
		t.Errorf("cross-site form post = %d, want 403", got)
	}
	if got := post(map[string]string{"Origin": "http://evil.example"}, "weight=70", form); got != 403 {
		t.Errorf("foreign origin = %d, want 403", got)
	}
	if got := post(map[string]string{"Sec-Fetch-Site": "same-origin", "Cookie": "hearth_csrf=0123456789abcdef0123456789abcdef"}, "weight=70", form); got != 403 {
		t.Errorf("same-origin without token = %d, want 403", got)
	}
	if got := post(map[string]string{"Sec-Fetch-Site": "same-origin", "Cookie": "hearth_csrf=0123456789abcdef0123456789abcdef"},
		"weight=70&_csrf=0123456789abcdef0123456789abcdef", form); got != http.StatusSeeOther {
		t.Errorf("same-origin with token = %d, want 303", got)
	}
	if got := post(map[string]string{"Sec-Fetch-Site": "cross-site"}, `{"weight_kg":70}`, "application/json"); got != 403 {
		t.Errorf("cross-site JSON = %d", got)
	}
	if n := countRows(t, db, "weight_readings"); n != 1 {
		t.Fatalf("weights = %d, want exactly the one accepted post", n)
	}
}

func TestHealthz(t *testing.T) {
	srv, db := newTestServer(t)
	code, body := do(t, "GET", srv.URL+"/healthz", "")
	if code != 200 || body["status"] != "ok" {
		t.Fatalf("%d %v", code, body)
	}
	_ = db.Close()
	code, _ = do(t, "GET", srv.URL+"/healthz", "")
	if code != 503 {
		t.Fatalf("healthz with closed DB = %d, want 503", code)
	}
}

func TestFormBodiesAreCappedBeforeParsing(t *testing.T) {
	srv, db := newTestServer(t)
	body := strings.NewReader("weight=70&_csrf=0123456789abcdef0123456789abcdef&pad=" + strings.Repeat("x", 3<<20))
	req, _ := http.NewRequest("POST", srv.URL+"/m/ada/weight", body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", "hearth_csrf=0123456789abcdef0123456789abcdef")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("3 MiB form = %d, want 413", resp.StatusCode)
	}
	if n := countRows(t, db, "weight_readings"); n != 0 {
		t.Fatalf("weights = %d after an oversized form", n)
	}
}

// The API returns measured values at the precision they mean, not the float
// noise of a unit conversion (an import of 140 lb stores 63.502931800000006 kg).
func TestAPIRoundsMeasuredValues(t *testing.T) {
	srv, db := newTestServer(t)
	if _, err := db.Write.Exec(`INSERT INTO weight_readings (member_id, measured_at, weight_kg, body_fat_pct, lean_mass_kg, source, created_at)
		VALUES ('ada', '2026-02-01T07:00:00.000Z', 63.502931800000006, 22.149999999, 49.532286804000006, 'csv', '2026-02-01T07:00:00.000Z')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.Exec(`INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g, source, created_at)
		VALUES ('ada', '2026-02-01T12:00:00.000Z', 'Lunch', 599.9999999999999, 18.000000000000004, 0.30000000000000004, 12.349, 'csv', '2026-02-01T12:00:00.000Z')`); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]string{
		"/api/v1/members/ada/weight": {`"weight_kg":63.5,`, `"body_fat_pct":22.1,`, `"lean_mass_kg":49.53,`},
		"/api/v1/members/ada/meals":  {`"calories":600,`, `"protein_g":18,`, `"carbs_g":0.3,`, `"fat_g":12.3,`},
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if !strings.Contains(string(raw), w) {
				t.Errorf("GET %s: %s lacks %s", path, raw, w)
			}
		}
	}
}
