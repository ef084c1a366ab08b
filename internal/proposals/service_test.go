package proposals_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/proposals"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/internal/testkit"
)

// fakeApplier counts its calls and records the payloads; fail makes the
// next calls fail, gate (when set) holds each call until it is closed.
type fakeApplier struct {
	calls    atomic.Int64
	fail     atomic.Bool
	gate     chan struct{}
	mu       sync.Mutex
	payloads []string
}

func (f *fakeApplier) apply(_ context.Context, payload json.RawMessage) (string, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.payloads = append(f.payloads, string(payload))
	f.mu.Unlock()
	if f.gate != nil {
		<-f.gate
	}
	if f.fail.Load() {
		return "", errors.New("plex answered 503")
	}
	return "collection created with 3 items", nil
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// stage stages p in run runID as a run's tool would and commits it as
// the run's commit does; it returns the new proposal's id.
func stage(t *testing.T, db *store.DB, runID int64, p proposals.Proposal) int64 {
	t.Helper()
	ctx := context.Background()
	st := agent.NewStager()
	if err := proposals.Stage(agent.Scope{AgentID: "media-curator", RunID: runID, Now: t0}.WithStager(st), p); err != nil {
		t.Fatal(err)
	}
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		_, err := st.Apply(ctx, tx, 0, store.FormatTime(t0))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := db.Read.QueryRow(`SELECT max(id) FROM proposals`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func collection(name string) proposals.Proposal {
	return proposals.Proposal{Kind: "plex.collection", Summary: "Collection “" + name + "” gets 3 items",
		Lines: []string{"Hip opener", "Sun salutation", "Neck release"}, Payload: map[string]any{"title": name, "keys": []int{1, 2, 3}}}
}

// counter counts the proposal events published on the admin topic.
type counter struct{ n atomic.Int64 }

func (c *counter) Publish(topic string, kind live.Kind, _ any) {
	if topic == live.TopicAdmin && kind == live.KindProposal {
		c.n.Add(1)
	}
}

func newService(t *testing.T) (*proposals.Service, *store.DB, *fakeApplier, *counter) {
	db := storetest.Open(t)
	pub := &counter{}
	svc := proposals.NewService(db, pub)
	f := &fakeApplier{}
	svc.Register("plex.collection", f.apply)
	return svc, db, f, pub
}

// Confirmed many times at once (a double click, two admins), a proposal
// is applied once: the confirmations that come while it is being applied
// say so, and one made after it was applied returns the recorded outcome.
func TestConfirmAppliesOnceUnderConcurrentConfirms(t *testing.T) {
	svc, db, f, pub := newService(t)
	f.gate = make(chan struct{})
	id := stage(t, db, 7, collection("Warm-ups"))
	ctx := context.Background()

	const n = 8
	results := make(chan proposals.Record, n)
	var returned atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := svc.Confirm(ctx, id, "admin")
			if err != nil {
				t.Error(err)
			}
			returned.Add(1)
			results <- r
		}()
	}
	// One confirmation holds the applier; every other one answers.
	testkit.WaitFor(t, testkit.Patience, "the other confirmations to answer", func() bool {
		return f.calls.Load() == 1 && returned.Load() == n-1
	})
	close(f.gate)
	wg.Wait()
	close(results)
	var statuses []proposals.Status
	for r := range results {
		statuses = append(statuses, r.Status)
	}
	slices.Sort(statuses)
	want := []proposals.Status{proposals.StatusApplied}
	for range n - 1 {
		want = append(want, proposals.StatusApplying)
	}
	slices.Sort(want)
	if !slices.Equal(statuses, want) {
		t.Fatalf("statuses = %v, want one applied and the rest applying", statuses)
	}
	if got := f.calls.Load(); got != 1 {
		t.Fatalf("applier called %d times, want 1", got)
	}

	// Retried after it was applied: the recorded outcome, no second call.
	r, err := svc.Confirm(ctx, id, "other-admin")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != proposals.StatusApplied || r.Result != "collection created with 3 items" || r.AppliedAt == nil || r.DecidedBy != "admin" {
		t.Fatalf("after apply: %+v", r)
	}
	if got := f.calls.Load(); got != 1 {
		t.Fatalf("a retried confirmation called the applier again (%d calls)", got)
	}
	if f.payloads[0] != `{"keys":[1,2,3],"title":"Warm-ups"}` {
		t.Fatalf("payload = %s", f.payloads[0])
	}
	if pub.n.Load() != 2 { // applying, then applied
		t.Fatalf("%d proposal events, want 2", pub.n.Load())
	}
}

// A failed apply is recorded with its reason and can be confirmed again;
// so can a proposal a crash left applying.
func TestConfirmFailedIsRecordedAndRetryable(t *testing.T) {
	svc, db, f, _ := newService(t)
	ctx := context.Background()
	id := stage(t, db, 7, collection("Cool-downs"))

	f.fail.Store(true)
	r, err := svc.Confirm(ctx, id, "admin")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != proposals.StatusFailed || r.Result != "plex answered 503" || r.AppliedAt == nil {
		t.Fatalf("failed apply: %+v", r)
	}
	f.fail.Store(false)
	if r, err = svc.Confirm(ctx, id, "admin"); err != nil || r.Status != proposals.StatusApplied {
		t.Fatalf("retry: %+v %v", r, err)
	}
	if f.calls.Load() != 2 {
		t.Fatalf("%d calls, want 2 (the failure and the retry)", f.calls.Load())
	}

	// A crash between "applying" and its outcome: a new process (a new
	// Service) shows it as applying and applies it again when confirmed.
	id2 := stage(t, db, 8, collection("Mains"))
	if _, err := db.Write.Exec(`UPDATE proposals SET status = 'applying' WHERE id = ?`, id2); err != nil {
		t.Fatal(err)
	}
	after := proposals.NewService(db, nil)
	after.Register("plex.collection", f.apply)
	l, err := after.List(ctx, proposals.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Waiting) != 1 || l.Waiting[0].Items[0].ID != id2 || l.Waiting[0].Items[0].Status != proposals.StatusApplying {
		t.Fatalf("waiting after a crash: %+v", l.Waiting)
	}
	if r, err = after.Confirm(ctx, id2, "admin"); err != nil || r.Status != proposals.StatusApplied {
		t.Fatalf("confirm after a crash: %+v %v", r, err)
	}
	if f.calls.Load() != 3 {
		t.Fatalf("%d calls, want 3", f.calls.Load())
	}
}

// Discard only from pending: a discarded proposal is never applied, a
// repeated discard changes nothing, an applied one cannot be discarded.
func TestDiscard(t *testing.T) {
	svc, db, f, _ := newService(t)
	ctx := context.Background()
	id := stage(t, db, 7, collection("Warm-ups"))
	r, err := svc.Discard(ctx, id, "admin")
	if err != nil || r.Status != proposals.StatusDiscarded || r.DecidedBy != "admin" || r.DecidedAt == nil {
		t.Fatalf("discard: %+v %v", r, err)
	}
	if _, err := svc.Discard(ctx, id, "admin"); err != nil {
		t.Fatalf("a repeated discard: %v", err)
	}
	if _, err := svc.Confirm(ctx, id, "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("confirming a discarded proposal: %v, want a conflict", err)
	}
	if f.calls.Load() != 0 {
		t.Fatal("a discarded proposal was applied")
	}

	applied := stage(t, db, 8, collection("Mains"))
	if _, err := svc.Confirm(ctx, applied, "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Discard(ctx, applied, "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("discarding an applied proposal: %v, want a conflict", err)
	}
	if _, err := svc.Discard(ctx, 999, "admin"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("discarding an unknown proposal: %v", err)
	}
}

// A kind nobody registered is refused clearly and stays pending.
func TestConfirmUnknownKindStaysPending(t *testing.T) {
	svc, db, f, _ := newService(t)
	ctx := context.Background()
	id := stage(t, db, 7, proposals.Proposal{Kind: "plex.label", Summary: "Label “10 min” added to 2 items", Payload: []int{4, 5}})
	_, err := svc.Confirm(ctx, id, "admin")
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), `"plex.label"`) {
		t.Fatalf("unknown kind: %v", err)
	}
	r, err := svc.Get(ctx, id)
	if err != nil || r.Status != proposals.StatusPending || r.DecidedAt != nil {
		t.Fatalf("after an unknown kind: %+v %v", r, err)
	}
	if f.calls.Load() != 0 {
		t.Fatal("applied through another kind's applier")
	}
}

// List: the waiting proposals by run, newest run first, each with its
// agent, time and lines; then the decided ones, newest decision first.
func TestListGroupsByRun(t *testing.T) {
	svc, db, _, _ := newService(t)
	ctx := context.Background()
	a := stage(t, db, 7, collection("Warm-ups"))
	b := stage(t, db, 7, proposals.Proposal{Kind: "plex.label", Summary: "Label “10 min” added to 2 items",
		Lines: []string{"Hip opener", "Neck release"}, Payload: []int{1, 3}})
	c := stage(t, db, 9, collection("Mains"))
	d := stage(t, db, 5, collection("Old"))
	if _, err := svc.Confirm(ctx, d, "admin"); err != nil {
		t.Fatal(err)
	}
	l, err := svc.List(ctx, proposals.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(gs []proposals.Group) (out [][]int64) {
		for _, g := range gs {
			var row []int64
			for _, r := range g.Items {
				row = append(row, r.ID)
			}
			out = append(out, row)
		}
		return out
	}
	if got := ids(l.Waiting); len(got) != 2 || !slices.Equal(got[0], []int64{c}) || !slices.Equal(got[1], []int64{a, b}) {
		t.Fatalf("waiting = %v", got)
	}
	g := l.Waiting[1]
	if g.RunID != 7 || g.AgentID != "media-curator" || !g.At.Equal(t0) || !slices.Equal(g.Items[1].Lines, []string{"Hip opener", "Neck release"}) {
		t.Fatalf("run 7's group: %+v", g)
	}
	if got := ids(l.Decided); len(got) != 1 || !slices.Equal(got[0], []int64{d}) || l.Decided[0].Items[0].Status != proposals.StatusApplied {
		t.Fatalf("decided = %v", got)
	}
}
