package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func TestMemoryTTL(t *testing.T) {
	c := newClock()
	m := agent.NewMemory("coach", "ada", c.Now)
	if err := m.Set("style", "direct", 0); err != nil {
		t.Fatal(err)
	}
	if err := m.Set("flu", "recovering", time.Hour); err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Get("flu"); !ok || v != "recovering" {
		t.Fatalf("before expiry: %q %v", v, ok)
	}
	if s := m.Serialize(); !strings.Contains(s, `- **flu**: "recovering" (expires in 1h 0m)`) {
		t.Fatalf("serialize before expiry:\n%s", s)
	}
	c.Advance(time.Hour)
	if _, ok := m.Get("flu"); ok {
		t.Fatal("entry visible at its expiry instant")
	}
	if s := m.Serialize(); strings.Contains(s, "flu") {
		t.Fatalf("expired entry serialised:\n%s", s)
	}
	if all := m.All(); len(all) != 1 || all[0].Key != "style" {
		t.Fatalf("All = %+v", all)
	}
}

func TestMemoryPruneAndRemove(t *testing.T) {
	c := newClock()
	m := agent.NewMemory("coach", "ada", c.Now)
	_ = m.Set("a", "1", time.Minute)
	_ = m.Set("b", "2", time.Minute)
	_ = m.Set("c", "3", time.Hour)
	c.Advance(2 * time.Minute)
	mustEqual(t, "pruned", m.Prune(), 2)
	m.Remove("c")
	m.Remove("missing")
	mustEqual(t, "entries", len(m.All()), 0)
}

func TestMemorySerialize(t *testing.T) {
	c := newClock()
	m := agent.NewMemory("coach", "ada", c.Now)
	want := "### Persistent\n(empty)\n\n### Expiring\n(empty)"
	mustEqual(t, "empty", m.Serialize(), want)
	_ = m.Set("note", "line one\nline \"two\"", 0)
	_ = m.Set("skipped", "2 sessions", 50*time.Hour)
	want = "### Persistent\n- **note**: \"line one\\nline \\\"two\\\"\"\n\n### Expiring\n- **skipped**: \"2 sessions\" (expires in 2d 2h)"
	mustEqual(t, "serialized", m.Serialize(), want)
}

func TestMemorySetLimits(t *testing.T) {
	m := agent.NewMemory("coach", "ada", nil)
	for _, tc := range []struct {
		key, value string
		ttl        time.Duration
	}{
		{"", "x", 0}, {"a\nb", "x", 0}, {strings.Repeat("k", agent.MaxMemoryKeyLen+1), "x", 0},
		{"k", strings.Repeat("v", agent.MaxMemoryValueLen+1), 0}, {"k", "v", -time.Second},
	} {
		if err := m.Set(tc.key, tc.value, tc.ttl); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("Set(%q, %d chars, %v) = %v, want Invalid", tc.key, len(tc.value), tc.ttl, err)
		}
	}
	for i := range agent.MaxMemoryEntries {
		if err := m.Set("k"+strings.Repeat("x", i%50)+string(rune('a'+i/50)), "v", 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Set("one-too-many", "v", 0); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("full memory accepted a new key: %v", err)
	}
}

// saveMemory saves m in its own transaction as run-less actor.
func saveMemory(t *testing.T, s *agent.MemoryStore, db interface {
	Tx(context.Context, func(*store.Tx) error) error
}, m *agent.Memory, actor string) {
	t.Helper()
	if err := db.Tx(context.Background(), func(tx *store.Tx) error {
		skipped, err := s.Save(context.Background(), tx, m, actor, 0)
		if len(skipped) > 0 {
			t.Errorf("keys not saved: %v", skipped)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryStoreTTLAcrossSaves(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	c := newClock()
	s := agent.NewMemoryStore(db, c.Now)
	ctx := context.Background()

	m, err := s.Load(ctx, "coach", "ada")
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Set("style", "direct", 0)
	_ = m.Set("flu", "recovering", time.Hour)
	saveMemory(t, s, db, m, "admin:test")

	c.Advance(30 * time.Minute)
	m, _ = s.Load(ctx, "coach", "ada")
	if v, ok := m.Get("flu"); !ok || v != "recovering" {
		t.Fatalf("before expiry after reload: %q %v", v, ok)
	}

	c.Advance(time.Hour)
	m, _ = s.Load(ctx, "coach", "ada")
	if _, ok := m.Get("flu"); ok || strings.Contains(m.Serialize(), "flu") {
		t.Fatal("expired entry loaded")
	}
	var n int
	_ = db.Read.QueryRow(`SELECT count(*) FROM agent_memory WHERE key = 'flu'`).Scan(&n)
	mustEqual(t, "expired rows before the next save", n, 1)
	saveMemory(t, s, db, m, "admin:test")
	_ = db.Read.QueryRow(`SELECT count(*) FROM agent_memory WHERE key = 'flu'`).Scan(&n)
	mustEqual(t, "expired rows after the next save", n, 0)
	hist, _ := s.History(ctx, "coach", "ada", 0)
	mustEqual(t, "history rows (expiry is not a change)", len(hist), 2)
}

func TestMemoryStoreSaveOnlyTouchesChangedKeys(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	s := agent.NewMemoryStore(db, nil)
	ctx := context.Background()
	m, _ := s.Load(ctx, "coach", "ada")
	_ = m.Set("a", "1", 0)
	saveMemory(t, s, db, m, "admin:x")

	run, _ := s.Load(ctx, "coach", "ada") // a run loads…
	if _, err := s.Set(ctx, "coach", "ada", "b", "admin wrote this", 0, agent.AdminActor("eve")); err != nil {
		t.Fatal(err) // …an admin edits another key meanwhile…
	}
	_ = run.Set("a", "2", 0)
	saveMemory(t, s, db, run, agent.RunActor(7)) // …and the run's save keeps it.
	got, _ := s.Entries(ctx, "coach", "ada")
	if len(got) != 2 || got[0].Value != "2" || got[1].Value != "admin wrote this" {
		t.Fatalf("entries = %+v", got)
	}
}

func TestMemoryHistoryAndUndo(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	c := newClock()
	s := agent.NewMemoryStore(db, c.Now)
	ctx := context.Background()

	set, err := s.Set(ctx, "coach", "ada", "goal", "run a 10k", 0, agent.AdminActor("eve"))
	if err != nil {
		t.Fatal(err)
	}
	if set.OldValue != nil || *set.NewValue != "run a 10k" || set.Actor != "admin:eve" {
		t.Fatalf("first change = %+v", set)
	}
	m, _ := s.Load(ctx, "coach", "ada")
	_ = m.Set("goal", "run a marathon", 0)
	if err := db.Tx(ctx, func(tx *store.Tx) error { _, err := s.Save(ctx, tx, m, agent.RunActor(0), 0); return err }); err != nil {
		t.Fatal(err)
	}
	hist, _ := s.History(ctx, "coach", "ada", 10)
	if len(hist) != 2 || *hist[0].OldValue != "run a 10k" || *hist[0].NewValue != "run a marathon" || hist[0].Actor != "run:0" {
		t.Fatalf("history = %+v", hist)
	}

	undo, err := s.Undo(ctx, hist[0].ID, agent.AdminActor("eve"))
	if err != nil {
		t.Fatal(err)
	}
	if undo.UndoOf == nil || *undo.UndoOf != hist[0].ID || *undo.NewValue != "run a 10k" {
		t.Fatalf("undo change = %+v", undo)
	}
	entries, _ := s.Entries(ctx, "coach", "ada")
	if len(entries) != 1 || entries[0].Value != "run a 10k" {
		t.Fatalf("after undo: %+v", entries)
	}

	// Undoing the creation deletes the entry.
	if _, err := s.Undo(ctx, set.ID, agent.AdminActor("eve")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := s.Entries(ctx, "coach", "ada"); len(entries) != 0 {
		t.Fatalf("after undoing creation: %+v", entries)
	}

	// Delete is recorded and can be undone; deleting nothing is NotFound.
	_, _ = s.Set(ctx, "coach", "ada", "k", "v", time.Hour, "admin:eve")
	del, err := s.Delete(ctx, "coach", "ada", "k", "admin:eve")
	if err != nil || del.NewValue != nil || *del.OldValue != "v" {
		t.Fatalf("delete = %+v, %v", del, err)
	}
	if _, err := s.Delete(ctx, "coach", "ada", "k", "admin:eve"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("second delete = %v", err)
	}
	c.Advance(2 * time.Hour)
	if _, err := s.Undo(ctx, del.ID, "admin:eve"); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("undo of an expired value = %v, want Invalid", err)
	}
	if _, err := s.Undo(ctx, 9999, "admin:eve"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("undo of unknown change = %v", err)
	}
	if _, err := s.Set(ctx, "coach", "nobody", "k", "v", 0, "admin:eve"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("set for unknown member = %v", err)
	}
}

// The cap on memory entries holds across runs committing together: 20
// runs loaded the member's memory 5 entries short of the cap and each
// adds a new key. Through the remember tool the commits that find no
// room refuse the staged write (reported as refused); a key set by code
// past the cap is left out of the save and reported by Save.
func TestMemoryCapHoldsAcrossParallelRuns(t *testing.T) {
	for _, viaTool := range []bool{true, false} {
		name := map[bool]string{true: "remember", false: "code"}[viaTool]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.Open(t)
			storetest.Member(t, db, "ada")
			ms := agent.NewMemoryStore(db, nil)
			for i := range agent.MaxMemoryEntries - 5 {
				if _, err := ms.Set(ctx, "coach", "ada", fmt.Sprintf("fact-%03d", i), "v", 0, agent.AdminActor("t")); err != nil {
					t.Fatal(err)
				}
			}
			box, err := agent.NewToolbox(agent.MemoryTools())
			if err != nil {
				t.Fatal(err)
			}
			const runs = 20
			mems := make([]*agent.Memory, runs)
			stagers := make([]*agent.Stager, runs)
			for i := range runs {
				if mems[i], err = ms.Load(ctx, "coach", "ada"); err != nil {
					t.Fatal(err)
				}
				stagers[i] = agent.NewStager()
				key := fmt.Sprintf("new-%02d", i)
				if !viaTool {
					if err := mems[i].Set(key, "v", 0); err != nil {
						t.Fatal(err)
					}
					continue
				}
				scope := agent.Scope{AgentID: "coach", MemberID: "ada", RunID: int64(i + 1), Memory: mems[i]}.WithStager(stagers[i])
				if _, err := box.Call(ctx, scope, "remember", json.RawMessage(`{"key":"`+key+`","value":"v","ttl_hours":0}`)); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			refused, skipped := 0, 0
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range runs {
				wg.Go(func() {
					<-start
					err := db.Tx(ctx, func(tx *store.Tx) error { // as a run's commit: staged writes, then the memory
						out, err := stagers[i].Apply(ctx, tx, 0, store.FormatTime(db.Now()))
						if err != nil {
							return err
						}
						sk, err := ms.Save(ctx, tx, mems[i], agent.RunActor(int64(i+1)), 0)
						mu.Lock()
						defer mu.Unlock()
						skipped += len(sk)
						for _, o := range out {
							if o.Outcome == agent.EffectRefused && strings.Contains(o.Reason, "memory is full") {
								refused++
							}
						}
						return err
					})
					if err != nil {
						t.Errorf("commit %d: %v", i, err)
					}
				})
			}
			close(start)
			wg.Wait()
			entries, err := ms.Entries(ctx, "coach", "ada")
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != agent.MaxMemoryEntries {
				t.Fatalf("%d entries stored after %d parallel runs; the cap is %d", len(entries), runs, agent.MaxMemoryEntries)
			}
			wantRefused, wantSkipped := runs-5, 0
			if !viaTool {
				wantRefused, wantSkipped = 0, runs-5
			}
			if refused != wantRefused || skipped != wantSkipped {
				t.Errorf("%d writes refused, %d keys skipped; want %d and %d", refused, skipped, wantRefused, wantSkipped)
			}
		})
	}
}
