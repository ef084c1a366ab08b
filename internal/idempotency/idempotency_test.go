package idempotency

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/migrations"
)

func TestReplayMismatchAbandon(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "maya")
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
	// A key is unique on its own: the same key for another member (whose
	// path, so hash, differs) or on another route is a reused key, never a
	// fresh request.
	for other, hash := range map[Key]string{{Member: "theo", Kind: k.Kind, Key: k.Key}: "h1-theo", {Member: "maya", Kind: "POST /m/:member/meal", Key: k.Key}: "h1"} {
		if st, _, _ := s.Begin(ctx, other, hash); st != Mismatch {
			t.Fatalf("%+v = %v, want Mismatch", other, st)
		}
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

// A reply is recorded under the member it was attributed to at Finish; one
// attributed to a member erased while the request ran is not kept (erase
// could not see it: the row was not theirs yet).
func TestFinishAttributesTheReply(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "maya")
	s := New(db)
	owner := func(key string) (member string, n int) {
		t.Helper()
		if err := db.Read.QueryRowContext(ctx, `SELECT count(*), coalesce(max(member_id), '') FROM request_keys WHERE key = ?`, key).Scan(&n, &member); err != nil {
			t.Fatal(err)
		}
		return member, n
	}
	k := Key{Kind: "POST /api/threads/:id/messages", Key: "dddddddddddddddd"}
	if st, _, _ := s.Begin(ctx, k, "h"); st != Fresh {
		t.Fatal("not fresh")
	}
	k.Member = "maya" // the handler found the thread is Maya's
	if err := s.Finish(ctx, k, Response{Status: 200, Body: []byte("answer for maya")}); err != nil {
		t.Fatal(err)
	}
	if m, n := owner(k.Key); n != 1 || m != "maya" {
		t.Fatalf("recorded for %q (%d rows), want maya", m, n)
	}
	gone := Key{Kind: k.Kind, Key: "eeeeeeeeeeeeeeee"}
	if st, _, _ := s.Begin(ctx, gone, "h"); st != Fresh {
		t.Fatal("not fresh")
	}
	gone.Member = "erased-meanwhile"
	if err := s.Finish(ctx, gone, Response{Status: 200, Body: []byte("their data")}); err != nil {
		t.Fatal(err)
	}
	if _, n := owner(gone.Key); n != 0 {
		t.Fatalf("the reply of an erased member was kept")
	}
}

// The migration to keys unique on their own keeps the receipts of an older
// database: one per key (the oldest, when a key was used under several
// members or routes), with its member for erasure.
func TestMigrationKeepsReceipts(t *testing.T) {
	ctx := context.Background()
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0 // SQL migrations from request_keys_global on
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_request_keys_global.sql") || n > 0 && strings.HasSuffix(e.Name(), ".sql") {
			n++
		}
	}
	path := filepath.Join(t.TempDir(), "hearth.db")
	storetest.OlderSchemaBy(t, path, n)
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(`INSERT INTO members (id, name, unit, created_at) VALUES ('maya', 'Maya', 'kg', '2026-03-01T00:00:00Z'), ('theo', 'Theo', 'kg', '2026-03-01T00:00:00Z');
		INSERT INTO request_keys (member_id, kind, key, body_hash, status, response, created_at) VALUES
		('theo', 'POST /m/:member/weight', 'shared-key-000001', 'h2', 201, 'second', '2026-03-01T10:00:01Z'),
		('maya', 'POST /m/:member/weight', 'shared-key-000001', 'h1', 201, 'first', '2026-03-01T10:00:00Z'),
		('maya', 'POST /m/:member/meal', 'own-key-00000001', 'h3', 200, 'meal', '2026-03-01T10:00:02Z')`)
	_ = raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := New(db)
	s.now = func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }
	st, r, err := s.Begin(ctx, Key{Member: "maya", Kind: "POST /m/:member/weight", Key: "shared-key-000001"}, "h1")
	if err != nil || st != Done || string(r.Body) != "first" {
		t.Fatalf("the oldest use of the shared key: %v %q %v", st, r.Body, err)
	}
	if st, _, _ := s.Begin(ctx, Key{Member: "theo", Kind: "POST /m/:member/weight", Key: "shared-key-000001"}, "h2"); st != Mismatch {
		t.Fatalf("the later use of the shared key: %v, want Mismatch", st)
	}
	var members string
	if err := db.Read.QueryRow(`SELECT group_concat(member_id || ':' || key, ' ') FROM (SELECT * FROM request_keys ORDER BY key)`).Scan(&members); err != nil {
		t.Fatal(err)
	}
	if members != "maya:own-key-00000001 maya:shared-key-000001" {
		t.Fatalf("receipts after the migration: %s", members)
	}
}
