package sensors

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

const token = "ha-test-token-0123456789"

// env is a migrated database with members ada and bo, a fake Home
// Assistant and the service over both, on a clock the test moves.
type env struct {
	t   testing.TB
	db  *store.DB
	ha  *hatest.Server
	svc *Service
	now time.Time
	log *bytes.Buffer
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{t: t, db: storetest.Open(t), ha: hatest.New(t, token), now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC), log: &bytes.Buffer{}}
	e.db.Now = func() time.Time { return e.now }
	storetest.Member(t, e.db, "ada")
	storetest.Member(t, e.db, "bo")
	e.svc = New(e.db, e.ha.Connect(), time.UTC, nil, slog.New(slog.NewTextHandler(e.log, nil)))
	return e
}

// add gives entity the state (with its unit) at time at, as the sensor
// reported it.
func (e *env) add(entity, state, unit string, at time.Time) {
	attrs := map[string]any{"friendly_name": entity}
	if unit != "" {
		attrs["unit_of_measurement"] = unit
	}
	e.ha.SetState(entity, state, attrs, at)
}

// historyRequests are the paths of the history requests so far.
func (e *env) historyRequests() []string {
	var out []string
	for _, r := range e.ha.Requests() {
		if strings.HasPrefix(r.Path, "/api/history/period/") {
			out = append(out, r.Path)
		}
	}
	return out
}

// sinceOf is the start time of a history request's path.
func sinceOf(t *testing.T, path string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, strings.TrimPrefix(path, "/api/history/period/"))
	if err != nil {
		t.Fatalf("history request %q: %v", path, err)
	}
	return at
}

func (e *env) mapping(entity, member string, kind Kind) Mapping {
	e.t.Helper()
	m, err := e.svc.AddMapping(context.Background(), MappingInput{EntityID: entity, MemberID: member, Kind: kind})
	if err != nil {
		e.t.Fatalf("map %s: %v", entity, err)
	}
	return m
}

func (e *env) poll() Result {
	e.t.Helper()
	res, err := e.svc.Poll(context.Background())
	if err != nil {
		e.t.Fatalf("poll: %v", err)
	}
	return res
}

func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.Read.QueryRow(query, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// weights is the member's weigh-ins from Home Assistant, oldest first.
func (e *env) weights(member string) []float64 {
	e.t.Helper()
	rows, err := e.db.Read.Query(`SELECT weight_kg FROM weight_readings WHERE member_id = ? AND source = 'homeassistant' ORDER BY measured_at`, member)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []float64
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, math.Round(v*100)/100)
	}
	return out
}

func (e *env) mappingNow(id int64) Mapping {
	e.t.Helper()
	ms, err := e.svc.Mappings(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	e.t.Fatalf("no mapping %d", id)
	return Mapping{}
}

func at(day, hour, min int) time.Time { return time.Date(2026, 3, day, hour, min, 0, 0, time.UTC) }

// A scale's new state becomes one weigh-in (kg and lb entities); an
// unavailable or unknown state is skipped; polling again adds nothing.
func TestScaleStatesBecomeWeighIns(t *testing.T) {
	e := newEnv(t)
	ada := e.mapping("sensor.scale_ada_weight", "ada", KindWeight)
	bo := e.mapping("sensor.scale_bo_weight", "bo", KindWeight)
	e.add("sensor.scale_ada_weight", "81.0", "kg", time.Date(2026, 2, 1, 7, 0, 0, 0, time.UTC)) // before the 30 days read first: in force, clamped
	e.add("sensor.scale_ada_weight", "80.2", "kg", at(9, 7, 0))
	e.add("sensor.scale_ada_weight", "unavailable", "", at(9, 9, 0))
	e.add("sensor.scale_ada_weight", "unknown", "kg", at(9, 10, 0))
	e.add("sensor.scale_ada_weight", "80.0", "kg", at(10, 7, 0))
	e.add("sensor.scale_bo_weight", "176.4", "lb", at(10, 7, 30))

	res := e.poll()
	if res.Mappings != 2 || res.Added != 3 || res.Failed != 0 {
		t.Fatalf("first poll: %+v", res)
	}
	// 81.0 was in force before the period: its time is not known, not a weigh-in.
	if got := e.weights("ada"); len(got) != 2 || got[0] != 80.2 || got[1] != 80.0 {
		t.Errorf("ada's weigh-ins = %v, want [80.2 80]", got)
	}
	if got := e.weights("bo"); len(got) != 1 || got[0] != 80.01 {
		t.Errorf("bo's weigh-ins = %v, want [80.01] (176.4 lb)", got)
	}
	if m := e.mappingNow(ada.ID); m.Cursor == nil || !m.Cursor.Equal(at(10, 7, 0)) || m.Added != 2 || m.Error != "" || m.PolledAt == nil {
		t.Errorf("ada's mapping after the poll: %+v", m)
	}
	if n := e.count(`SELECT count(*) FROM imports WHERE member_id = 'ada' AND kind = 'readings' AND status = 'complete'`); n != 1 {
		t.Errorf("ada's imports rows = %d, want 1", n)
	}

	// Again, 15 minutes later: nothing new, and the history is read from the cursor.
	e.now = e.now.Add(Every)
	if res := e.poll(); res.Added != 0 || res.Failed != 0 {
		t.Errorf("second poll: %+v", res)
	}
	reqs := e.historyRequests()
	if len(reqs) != 4 {
		t.Fatalf("history requests = %v", reqs)
	}
	if got := sinceOf(t, reqs[0]); !got.Equal(at(10, 12, 0).Add(-FirstPoll)) {
		t.Errorf("the first poll read from %s, want 30 days back", got)
	}
	last := reqs[2]
	if strings.Contains(reqs[3], "scale_ada") {
		last = reqs[3]
	}
	if got := sinceOf(t, last); !got.Equal(at(10, 7, 0)) {
		t.Errorf("the second poll of ada read from %s, want the cursor %s", got, at(10, 7, 0))
	}
	if got := e.weights("ada"); len(got) != 2 {
		t.Errorf("after polling again ada has %v", got)
	}
	// A new weigh-in arrives.
	e.add("sensor.scale_ada_weight", "79.8", "kg", at(10, 12, 5))
	e.now = e.now.Add(Every)
	if res := e.poll(); res.Added != 1 {
		t.Errorf("third poll: %+v", res)
	}
	_ = bo
}

// The ledger, not the cursor, makes polls idempotent: with the cursor
// lost, every state is read again and nothing is added twice; a member's
// edit and deletion of imported weigh-ins are kept.
func TestPollingAgainAddsNothingAndKeepsEdits(t *testing.T) {
	e := newEnv(t)
	m := e.mapping("sensor.scale_weight", "ada", KindWeight)
	e.add("sensor.scale_weight", "80.2", "kg", at(8, 7, 0))
	e.add("sensor.scale_weight", "80.0", "kg", at(9, 7, 0))
	e.add("sensor.scale_weight", "79.9", "kg", at(10, 7, 0))
	if res := e.poll(); res.Added != 3 {
		t.Fatalf("first poll: %+v", res)
	}
	// Ada fixes one (she weighed in clothes) and deletes another.
	if _, err := e.db.Write.Exec(`UPDATE weight_readings SET weight_kg = 79.0 WHERE member_id = 'ada' AND weight_kg = 80.0`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Write.Exec(`DELETE FROM weight_readings WHERE member_id = 'ada' AND weight_kg = 79.9`); err != nil {
		t.Fatal(err)
	}
	importsBefore := e.count(`SELECT count(*) FROM imports WHERE member_id = 'ada'`)
	if _, err := e.db.Write.Exec(`UPDATE sensor_mappings SET cursor_at = NULL WHERE id = ?`, m.ID); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(Every)
	if res := e.poll(); res.Added != 0 {
		t.Errorf("polling everything again added %d", res.Added)
	}
	if got := e.weights("ada"); len(got) != 2 || got[0] != 80.2 || got[1] != 79.0 {
		t.Errorf("ada's weigh-ins = %v, want [80.2 79] (her edit and deletion kept)", got)
	}
	// A batch that brought nothing new is not import history (a step
	// sensor is re-read every 15 minutes all day).
	if n := e.count(`SELECT count(*) FROM imports WHERE member_id = 'ada'`); n != importsBefore {
		t.Errorf("re-reading recorded %d imports rows, had %d", n, importsBefore)
	}
}

// A step sensor's day is its largest reading (it resets at midnight);
// sleep in minutes is the day's last reading in hours; a day's figure
// grows as the day goes on.
func TestStepsAndSleepBecomeDailyFigures(t *testing.T) {
	e := newEnv(t)
	e.mapping("sensor.ada_steps", "ada", KindSteps)
	e.mapping("sensor.ada_sleep", "ada", KindSleep)
	e.add("sensor.ada_steps", "1200", "steps", at(9, 9, 0))
	e.add("sensor.ada_steps", "8400", "steps", at(9, 18, 0))
	e.add("sensor.ada_steps", "0", "steps", at(10, 0, 1)) // the reset
	e.add("sensor.ada_steps", "2300", "steps", at(10, 11, 0))
	e.add("sensor.ada_sleep", "450", "min", at(10, 7, 0))
	e.add("sensor.ada_sleep", "465", "min", at(10, 8, 0)) // corrected later that morning
	e.poll()
	figure := func(kind, day string) float64 {
		var v float64
		if err := e.db.Read.QueryRow(`SELECT value FROM daily_figures WHERE member_id = 'ada' AND kind = ? AND day = ? AND source = 'homeassistant'`,
			kind, day).Scan(&v); err != nil {
			t.Fatalf("%s on %s: %v", kind, day, err)
		}
		return v
	}
	if got := figure("steps", "2026-03-09"); got != 8400 {
		t.Errorf("steps on the 9th = %v, want 8400", got)
	}
	if got := figure("steps", "2026-03-10"); got != 2300 {
		t.Errorf("steps on the 10th = %v, want 2300", got)
	}
	if got := figure("sleep", "2026-03-10"); got != 7.75 {
		t.Errorf("sleep on the 10th = %v h, want 7.75", got)
	}
	e.add("sensor.ada_steps", "5100", "steps", at(10, 12, 10))
	e.now = e.now.Add(Every)
	if res := e.poll(); res.Added != 1 {
		t.Errorf("the day's figure grew: poll says %+v", res)
	}
	if got := figure("steps", "2026-03-10"); got != 5100 {
		t.Errorf("steps on the 10th after the new reading = %v, want 5100", got)
	}
	if n := e.count(`SELECT count(*) FROM daily_figures WHERE member_id = 'ada'`); n != 3 {
		t.Errorf("daily figures = %d, want 3", n)
	}
}

// A scale's body fat goes on its weigh-in; without one it is a
// body-composition entry of its own.
func TestBodyFatJoinsTheWeighIn(t *testing.T) {
	e := newEnv(t)
	e.mapping("sensor.scale_body_fat", "ada", KindBodyFat)
	e.mapping("sensor.scale_weight", "ada", KindWeight)
	e.add("sensor.scale_weight", "80.2", "kg", at(9, 7, 0))
	e.add("sensor.scale_body_fat", "21.4", "%", at(9, 7, 0))
	e.add("sensor.scale_body_fat", "21.9", "%", at(10, 7, 0)) // the weight never came
	if res := e.poll(); res.Added != 3 {
		t.Errorf("poll: %+v, want 3 added (a weigh-in, its body fat, a body-composition entry)", res)
	}
	var bf float64
	if err := e.db.Read.QueryRow(`SELECT body_fat_pct FROM weight_readings WHERE member_id = 'ada' AND source = 'homeassistant'`).Scan(&bf); err != nil {
		t.Fatal(err)
	}
	if bf != 21.4 {
		t.Errorf("the weigh-in's body fat = %v, want 21.4", bf)
	}
	if n := e.count(`SELECT count(*) FROM body_scans WHERE member_id = 'ada' AND source = 'homeassistant' AND body_fat_pct = 21.9`); n != 1 {
		t.Errorf("body-composition entries = %d, want 1", n)
	}
	if _, err := e.db.Write.Exec(`UPDATE sensor_mappings SET cursor_at = NULL`); err != nil {
		t.Fatal(err)
	}
	if res := e.poll(); res.Added != 0 {
		t.Errorf("polling again: %+v", res)
	}
}

// Readings outside the hard limits are refused, the rest imported; a
// weight in an unknown unit is an error on the mapping.
func TestImplausibleReadingsAreRefused(t *testing.T) {
	e := newEnv(t)
	e.mapping("sensor.scale_weight", "ada", KindWeight)
	odd := e.mapping("sensor.odd_weight", "bo", KindWeight)
	e.add("sensor.scale_weight", "0.4", "kg", at(9, 7, 0)) // the scale woke under a cat
	e.add("sensor.scale_weight", "80.1", "kg", at(10, 7, 0))
	e.add("sensor.odd_weight", "12", "furlong", at(10, 7, 0))
	e.poll()
	if got := e.weights("ada"); len(got) != 1 || got[0] != 80.1 {
		t.Errorf("ada's weigh-ins = %v, want [80.1]", got)
	}
	if n := e.count(`SELECT rejected FROM imports WHERE member_id = 'ada'`); n != 1 {
		t.Errorf("rejected = %d, want 1", n)
	}
	if m := e.mappingNow(odd.ID); !strings.Contains(m.Error, `"furlong"`) {
		t.Errorf("the odd mapping's error = %q", m.Error)
	}
}

// Without Home Assistant configured, Poll reads nothing, says so and
// leaves the mappings as they were.
func TestPollWithoutHomeAssistant(t *testing.T) {
	e := newEnv(t)
	e.svc = New(e.db, func(context.Context) (*homeassistant.Client, error) {
		return homeassistant.New(homeassistant.Config{})
	}, time.UTC, nil, nil)
	m := e.mapping("sensor.scale_weight", "ada", KindWeight)
	res, err := e.svc.Poll(context.Background())
	if !errors.Is(err, homeassistant.ErrNotConfigured) || !res.NotConfigured {
		t.Fatalf("poll = %+v, %v; want not configured", res, err)
	}
	if !strings.Contains(res.Headline(), "not configured") {
		t.Errorf("headline %q", res.Headline())
	}
	if got := e.mappingNow(m.ID); got.PolledAt != nil || got.Error != "" {
		t.Errorf("the mapping changed: %+v", got)
	}
	if e.svc.Configured(context.Background()) {
		t.Error("Configured() = true")
	}
	if n := e.count(`SELECT count(*) FROM imports`); n != 0 {
		t.Errorf("imports = %d", n)
	}
}

// A failing Home Assistant is recorded on the mapping and logged once per
// change of state, never returned as the poll's error; it recovers.
func TestFailingHomeAssistantIsRecordedAndLoggedOnce(t *testing.T) {
	e := newEnv(t)
	m := e.mapping("sensor.scale_weight", "ada", KindWeight)
	e.add("sensor.scale_weight", "80.1", "kg", at(10, 7, 0))
	e.ha.FailWith(http.StatusInternalServerError)
	for range 3 {
		if res := e.poll(); res.Failed != 1 {
			t.Fatalf("poll: %+v", res)
		}
		e.now = e.now.Add(Every)
	}
	if got := e.mappingNow(m.ID); !strings.Contains(got.Error, "500") || got.Cursor != nil {
		t.Errorf("the mapping after failing polls: %+v", got)
	}
	if n := strings.Count(e.log.String(), "sensors: poll failed"); n != 1 {
		t.Errorf("logged the failure %d times, want once:\n%s", n, e.log.String())
	}
	if strings.Contains(e.log.String(), token) {
		t.Error("the token was logged")
	}
	e.ha.FailWith(0)
	if res := e.poll(); res.Added != 1 || res.Failed != 0 {
		t.Errorf("after recovery: %+v", res)
	}
	if got := e.mappingNow(m.ID); got.Error != "" {
		t.Errorf("error kept after recovery: %q", got.Error)
	}
	if !strings.Contains(e.log.String(), "poll works again") {
		t.Error("the recovery was not logged")
	}
}

// Mappings are checked as typed.
func TestAddMappingChecksItsFields(t *testing.T) {
	e := newEnv(t)
	_, err := e.svc.AddMapping(context.Background(), MappingInput{EntityID: "Scale Weight", MemberID: "zed", Kind: "mood"})
	var fields map[string]string
	if ae := apperrFields(err); ae != nil {
		fields = ae
	}
	for _, f := range []string{"entity", "member", "kind"} {
		if fields[f] == "" {
			t.Errorf("no error for %s: %v", f, err)
		}
	}
	e.mapping("sensor.scale_weight", "ada", KindWeight)
	_, err = e.svc.AddMapping(context.Background(), MappingInput{EntityID: "sensor.scale_weight", MemberID: "ada", Kind: KindWeight})
	if f := apperrFields(err); !strings.Contains(f["entity"], "already mapped") {
		t.Errorf("a second identical mapping: %v", err)
	}
}

func apperrFields(err error) map[string]string {
	if ae := apperr.As(err); ae != nil {
		return ae.Fields
	}
	return nil
}

// A member's change to the body fat on a scale's weigh-in is kept when
// both sensors are read again.
func TestBodyFatEditIsKept(t *testing.T) {
	e := newEnv(t)
	e.mapping("sensor.scale_weight", "ada", KindWeight)
	e.mapping("sensor.scale_body_fat", "ada", KindBodyFat)
	e.add("sensor.scale_weight", "80.2", "kg", at(9, 7, 0))
	e.add("sensor.scale_body_fat", "21.4", "%", at(9, 7, 0))
	e.poll()
	if _, err := e.db.Write.Exec(`UPDATE weight_readings SET body_fat_pct = 22.0 WHERE member_id = 'ada'`); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := e.db.Write.Exec(`UPDATE sensor_mappings SET cursor_at = NULL`); err != nil {
			t.Fatal(err)
		}
		e.now = e.now.Add(Every)
		if res := e.poll(); res.Added != 0 {
			t.Errorf("polling again: %+v", res)
		}
	}
	var bf float64
	if err := e.db.Read.QueryRow(`SELECT body_fat_pct FROM weight_readings WHERE member_id = 'ada'`).Scan(&bf); err != nil {
		t.Fatal(err)
	}
	if bf != 22.0 {
		t.Errorf("body fat = %v, want ada's 22", bf)
	}
}
