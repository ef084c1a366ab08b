package idempotency

import (
	"context"
	"sync"
	"testing"
	"time"

	"hearth/internal/store/storetest"
)

func TestReplayMismatchAbandon(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	s := New(db)
	k := Key{Member: "maya", Kind: "POST /m/:member/weight", Key: "0123456789abcdef"}

	st, _, err := s.Begin(ctx, k, "h1")
	if err != nil || st != Fresh {
		t.Fatalf("first Begin = %v, %v", st, err)
	}
	want := Response{Status: 201, ContentType: "application/json", Body: []byte(`{"id":7}`)}
	if err := s.Finish(ctx, k, want); err != nil {
		t.Fatal(err)
	}
	st, got, err := s.Begin(ctx, k, "h1")
	if err != nil || st != Done || got.Status != 201 || string(got.Body) != `{"id":7}` || got.ContentType != "application/json" {
		t.Fatalf("repeat = %v %+v %v", st, got, err)
	}
	if st, _, _ := s.Begin(ctx, k, "h2"); st != Mismatch {
		t.Fatalf("different body = %v, want Mismatch", st)
	}
	// Same key, another member or another route: independent.
	for _, other := range []Key{{Member: "theo", Kind: k.Kind, Key: k.Key}, {Member: "maya", Kind: "POST /m/:member/meal", Key: k.Key}} {
		if st, _, _ := s.Begin(ctx, other, "h9"); st != Fresh {
			t.Fatalf("%+v = %v, want Fresh", other, st)
		}
		_ = s.Abandon(ctx, other)
	}
	// A failed request leaves nothing: the repeat runs.
	k2 := Key{Member: "maya", Kind: k.Kind, Key: "fedcba9876543210"}
	if st, _, _ := s.Begin(ctx, k2, "h"); st != Fresh {
		t.Fatal("k2 not fresh")
	}
	if err := s.Abandon(ctx, k2); err != nil {
		t.Fatal(err)
	}
	if st, _, _ := s.Begin(ctx, k2, "h-other"); st != Fresh {
		t.Fatal("abandoned key not reusable")
	}
}

// A repeat that arrives while the first request still runs waits for it and
// gets its answer; exactly one of them does the work.
func TestConcurrentRepeatWaits(t *testing.T) {
	ctx := context.Background()
	s := New(storetest.Open(t))
	k := Key{Kind: "POST /api/x", Key: "aaaaaaaaaaaaaaaa"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	fresh, done := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, r, err := s.Begin(ctx, k, "h")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			switch st {
			case Fresh:
				fresh++
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
				_ = s.Finish(ctx, k, Response{Status: 200, Body: []byte("ok")})
				mu.Lock()
			case Done:
				if string(r.Body) != "ok" {
					t.Errorf("replayed %q", r.Body)
				}
				done++
			default:
				t.Errorf("state %v", st)
			}
		}()
	}
	wg.Wait()
	if fresh != 1 || done != 7 {
		t.Fatalf("fresh=%d done=%d, want 1 and 7", fresh, done)
	}
}

// A key left pending by a process that died is not run again: the work may
// have been committed.
func TestPendingFromDeadProcessIsInterrupted(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	k := Key{Member: "maya", Kind: "POST /m/:member/meal", Key: "bbbbbbbbbbbbbbbb"}
	if st, _, _ := New(db).Begin(ctx, k, "h"); st != Fresh {
		t.Fatal("not fresh")
	}
	// A new Store is a new process: nothing of this one holds the key.
	if st, _, err := New(db).Begin(ctx, k, "h"); err != nil || st != Interrupted {
		t.Fatalf("after restart = %v, %v; want Interrupted", st, err)
	}
}

func TestOldKeysAreCollected(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	s := New(db)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	k := Key{Kind: "POST /x", Key: "cccccccccccccccc"}
	if st, _, _ := s.Begin(ctx, k, "h"); st != Fresh {
		t.Fatal("not fresh")
	}
	_ = s.Finish(ctx, k, Response{Status: 200})
	now = now.Add(Retention - time.Minute)
	s.lastGC.Store(0)
	if st, _, _ := s.Begin(ctx, k, "h"); st != Done {
		t.Fatalf("within retention = %v, want Done", st)
	}
	now = now.Add(2 * time.Hour)
	s.lastGC.Store(0)
	if st, _, _ := s.Begin(ctx, k, "h"); st != Fresh {
		t.Fatalf("after retention = %v, want Fresh", st)
	}
}
