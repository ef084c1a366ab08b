package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/internal/testkit"
)

// Every connection, the writer and each reader of the pool, commits with
// synchronous=FULL (2): an acknowledged entry is on disk before the answer.
func TestSynchronousFullOnEveryConnection(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	check := func(name string, conn *sql.Conn) {
		t.Helper()
		var v int
		if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != 2 {
			t.Errorf("%s: synchronous = %d, want 2 (FULL)", name, v)
		}
	}
	w, err := db.Write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("writer", w)
	_ = w.Close()
	// Hold several reader connections at once so the pool opens new ones.
	var conns []*sql.Conn
	for range 4 {
		c, err := db.Read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		check("reader", c)
	}
	for _, c := range conns {
		_ = c.Close()
	}
	if st := db.Read.Stats(); st.OpenConnections < 4 {
		t.Fatalf("only %d reader connections were opened", st.OpenConnections)
	}
}

// A database with a schema version this binary does not know (a newer
// Hearth migrated it) is refused at Open, before any migration runs.
func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	future := store.LatestVersion() + 1000
	if _, err := db.Write.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)`, future); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	before, _ := os.ReadFile(path)
	_, err = store.Open(ctx, path, nil)
	if !errors.Is(err, store.ErrNewerSchema) {
		t.Fatalf("Open of a newer schema: %v, want ErrNewerSchema", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatal("the refused database was changed")
	}
	s, err := store.FileSchema(ctx, path)
	if err != nil || len(s.Unknown) != 1 || s.Unknown[0] != future || s.Err() == nil {
		t.Fatalf("FileSchema = %+v, %v", s, err)
	}
}

// An older database (made by a Hearth without the newest migration) opens
// and is migrated.
func TestOpenMigratesOlderSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	last := storetest.OlderSchema(t, path)
	s, err := store.FileSchema(ctx, path)
	if err != nil || len(s.Pending) != 1 || s.Pending[0] != last || s.Err() != nil {
		t.Fatalf("older database: %+v, %v", s, err)
	}
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if s, err := store.ReadSchema(ctx, db.Read); err != nil || len(s.Pending) != 0 || s.Version != last {
		t.Fatalf("after open: %+v, %v", s, err)
	}
}

// A snapshot taken while eight writers commit holds every row committed
// before it started, passes the integrity check, and the writers never
// wait for it long.
func TestSnapshotDuringWrites(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	// Some bulk so the copy takes a moment.
	for i := range 2000 {
		if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(1_600_000_000+int64(i), 0), WeightKg: 70}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		stop      atomic.Bool
		wg        sync.WaitGroup
		committed atomic.Int64
		seq       atomic.Int64
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				n := seq.Add(1)
				if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(1_700_000_000+n, 0), WeightKg: 71}); err != nil {
					t.Error(err)
					return
				}
				committed.Add(1)
			}
		}()
	}
	// The writers are running before the snapshot starts, and go on after
	// it ends: wait on commits, not on time.
	testkit.WaitFor(t, testkit.Patience, "writes before the snapshot", func() bool { return committed.Load() >= 20 })
	var before int64
	if err := db.Read.QueryRow(`SELECT count(*) FROM weight_readings`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	var calls atomic.Int64
	err := db.Snapshot(ctx, dst, func(done, total int64) {
		calls.Add(1)
		if done > total || total <= 0 {
			t.Errorf("progress %d/%d", done, total)
		}
	})
	after := committed.Load()
	testkit.WaitFor(t, testkit.Patience, "writes after the snapshot", func() bool { return committed.Load() >= after+20 })
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() == 0 {
		t.Error("no progress reported")
	}
	if committed.Load() == 0 {
		t.Fatal("the writers committed nothing")
	}
	cp, err := sql.Open("sqlite3", "file:"+dst+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var got int64
	if err := cp.QueryRow(`SELECT count(*) FROM weight_readings`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	var total int64
	if err := db.Read.QueryRow(`SELECT count(*) FROM weight_readings`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if got < before || got > total {
		t.Fatalf("copy has %d readings; %d were committed before the snapshot, %d at the end", got, before, total)
	}
	if err := store.CheckIntegrity(ctx, dst); err != nil {
		t.Fatal(err)
	}
	// The copy is one self-contained file (not WAL), so it can be archived.
	var mode string
	if err := cp.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode == "wal" {
		t.Fatalf("copy journal_mode = %q, %v", mode, err)
	}
}

func TestCheckIntegrityFindsDamage(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Snapshot(ctx, dst, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite the middle of the file (past the header page) with garbage.
	for i := 4096; i < len(b) && i < 4096*6; i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.CheckIntegrity(ctx, dst); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("damaged file: %v, want ErrCorrupt", err)
	}
	if err := os.WriteFile(dst, []byte("not a database at all, just text, long enough to have a header ........................................"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.CheckIntegrity(ctx, dst); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("text file: %v, want ErrCorrupt", err)
	}
}

func TestLockFileIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	release, err := store.LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.LockFile(path); !errors.Is(err, store.ErrInUse) {
		t.Fatalf("second lock: %v, want ErrInUse", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	r2, err := store.LockFile(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	_ = r2()
}

// A scratch database (an eval scenario's) is the one that does not fsync
// its commits: synchronous=OFF (0) on the writer and the readers.
func TestScratchDatabaseIsNotSynced(t *testing.T) {
	ctx := context.Background()
	db, err := store.OpenScratch(ctx, filepath.Join(t.TempDir(), "scratch.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for name, pool := range map[string]*sql.DB{"writer": db.Write, "reader": db.Read} {
		var v int
		if err := pool.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != 0 {
			t.Errorf("%s: synchronous = %d, want 0 (OFF)", name, v)
		}
	}
}
