package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func TestMigrationsOnEmptyDB(t *testing.T) {
	db := storetest.Open(t)
	var n int
	if err := db.Read.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN
		('members','weight_readings','meals','workouts','body_scans','goals')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Fatalf("household tables = %d, want 6", n)
	}
	var mode string
	if err := db.Write.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	var fk int
	if err := db.Read.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v", fk, err)
	}
}

func TestRestartKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Member(t, db, "ada")
	at := time.Date(2026, 3, 1, 7, 30, 0, 0, time.UTC)
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: at, WeightKg: 70.5}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	ws, err := db2.Weights(ctx, "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].WeightKg != 70.5 || !ws[0].MeasuredAt.Equal(at) {
		t.Fatalf("after reopen got %+v", ws)
	}
}

func TestConcurrentWritersNoLockErrors(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	const writers, each = 50, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				at := base.Add(time.Duration(g*each+i) * time.Minute)
				if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: at, WeightKg: 70}); err != nil {
					errs <- fmt.Errorf("writer %d: %w", g, err)
				}
				// interleave reads to exercise the reader pool alongside the writer
				if _, err := db.Weights(ctx, "ada", store.Range{Limit: 5, Desc: true}); err != nil {
					errs <- err
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ws, err := db.Weights(ctx, "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != writers*each {
		t.Fatalf("rows = %d, want %d", len(ws), writers*each)
	}
}

func TestSourceKeyIsIdempotent(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	r := health.WeightReading{MemberID: "ada", MeasuredAt: time.Now(), WeightKg: 70, Source: "apple", SourceKey: "k1"}
	added, err := store.InsertWeight(ctx, db.Write, time.Now(), &r)
	if err != nil || !added {
		t.Fatalf("first insert added=%v err=%v", added, err)
	}
	r2 := r
	added, err = store.InsertWeight(ctx, db.Write, time.Now(), &r2)
	if err != nil || added {
		t.Fatalf("second insert added=%v err=%v", added, err)
	}
}

func TestMemberNotFoundAndConflict(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.Member(ctx, "nobody"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("want not found, got %v", err)
	}
	storetest.Member(t, db, "ada")
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("want conflict, got %v", err)
	}
}

// TestWriteWaitsForAnotherProcessesLock: while a second connection pool on
// the same file (what `hearth import` on the command line is) holds the
// write lock for longer than the old 5 s busy timeout, a server write waits
// and succeeds instead of failing with "database is locked".
func TestWriteWaitsForAnotherProcessesLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	cli, err := store.Open(ctx, db.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	tx, err := cli.Write.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock now
	if err != nil {
		t.Fatal(err)
	}
	const hold = 6 * time.Second
	released := make(chan error, 1)
	go func() {
		time.Sleep(hold)
		released <- tx.Rollback()
	}()
	start := time.Now()
	_, err = db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: start, WeightKg: 70.2})
	waited := time.Since(start)
	if err := <-released; err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("write during another process's %v lock: %v (after %v)", hold, err, waited)
	}
	if waited < hold-500*time.Millisecond {
		t.Fatalf("the write finished after %v, before the lock was released", waited)
	}
	if ws, err := db.Weights(ctx, "ada", store.Range{}); err != nil || len(ws) != 1 {
		t.Fatalf("weights after the wait: %v %v", ws, err)
	}
}

// A data directory whose name holds '?', '#' or '%' opens the database in
// that directory, not at a shorter path cut at the character (the DSN is a
// SQLite URI).
func TestOpenInDirectoryWithURICharacters(t *testing.T) {
	for _, name := range []string{"a?b", "c#01", "d%20e", "f%3fg"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "hearth.db")
		db, err := store.Open(context.Background(), path, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); err != nil {
			entries, _ := os.ReadDir(filepath.Dir(dir))
			t.Fatalf("%s: no database at %s (%v); beside it: %v", name, path, err, entries)
		}
	}
}
