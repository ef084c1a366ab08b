package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// BenchmarkWriteReadings measures weigh-in write throughput on a real
// SQLite file (WAL, synchronous=NORMAL, one writer connection). "store" is
// one INSERT per commit (DB.AddWeight) from one goroutine; "store-parallel"
// the same from GOMAXPROCS×4 goroutines, which queue for the single writer
// connection; "service" the API's path below HTTP (household.Service.
// LogWeight: member check, validation, insert, publish to the live hub);
// "service-parallel" that from many goroutines; "tx100" 100 readings per
// transaction (the importer's shape).
//
//	go test -run '^$' -bench BenchmarkWriteReadings -benchmem ./internal/store/
func BenchmarkWriteReadings(b *testing.B) {
	ctx := context.Background()
	setup := func(b *testing.B) *store.DB {
		db := storetest.Open(b)
		storetest.Member(b, db, "ada")
		return db
	}
	var seq atomic.Int64
	reading := func() health.WeightReading {
		n := seq.Add(1)
		return health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(1_700_000_000+n, 0), WeightKg: 60 + float64(n%400)/10}
	}
	perSec := func(b *testing.B, n int) {
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "readings/s")
	}

	b.Run("store", func(b *testing.B) {
		db := setup(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.AddWeight(ctx, reading()); err != nil {
				b.Fatal(err)
			}
		}
		perSec(b, b.N)
	})
	b.Run("store-parallel", func(b *testing.B) {
		db := setup(b)
		b.ReportAllocs()
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := db.AddWeight(ctx, reading()); err != nil {
					b.Error(err)
					return
				}
			}
		})
		perSec(b, b.N)
	})
	b.Run("service", func(b *testing.B) {
		db := setup(b)
		hub := live.NewHub()
		defer hub.Close()
		svc := household.New(db, hub)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.LogWeight(ctx, "ada", household.WeightInput{Weight: 70.2}); err != nil {
				b.Fatal(err)
			}
		}
		perSec(b, b.N)
	})
	b.Run("service-parallel", func(b *testing.B) {
		db := setup(b)
		hub := live.NewHub()
		defer hub.Close()
		svc := household.New(db, hub)
		b.ReportAllocs()
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := svc.LogWeight(ctx, "ada", household.WeightInput{Weight: 70.2}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		perSec(b, b.N)
	})
	b.Run("tx100", func(b *testing.B) {
		db := setup(b)
		b.ReportAllocs()
		now := time.Now()
		for b.Loop() {
			err := db.Tx(ctx, func(tx *store.Tx) error {
				for range 100 {
					r := reading()
					r.SourceKey = fmt.Sprint(seq.Load())
					if _, err := store.InsertWeight(ctx, tx, now, &r); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		perSec(b, 100*b.N)
	})
}

// BenchmarkSecureDelete measures what the writer's secure_delete costs
// (store.SecureDelete; OFF and FAST set on the writer connection after
// Open for comparison). "insert" is one weigh-in per commit (nothing is
// deleted); "churn" one commit that records a 2 KiB reply and deletes the
// one 100 before it (the request receipts' pattern, and any delete of a
// row); "erase" is EraseMember of a member with 200 meals, 50 chat messages
// and 20 recorded replies (checkpoint included), refilled outside the timer.
//
//	go test -run '^$' -bench BenchmarkSecureDelete -count 5 ./internal/store/
func BenchmarkSecureDelete(b *testing.B) {
	ctx := context.Background()
	reply := strings.Repeat("x", 2048)
	for _, mode := range []string{"OFF", "FAST", "ON"} {
		setup := func(b *testing.B) *store.DB {
			db := storetest.Open(b)
			if _, err := db.Write.ExecContext(ctx, "PRAGMA secure_delete = "+mode); err != nil {
				b.Fatal(err)
			}
			var got int
			if err := db.Write.QueryRowContext(ctx, "PRAGMA secure_delete").Scan(&got); err != nil || (got == 0) != (mode == "OFF") {
				b.Fatalf("secure_delete = %d (%v), want %s", got, err, mode)
			}
			storetest.Member(b, db, "ada")
			return db
		}
		b.Run("insert/"+mode, func(b *testing.B) {
			db := setup(b)
			var n int64
			for b.Loop() {
				n++
				if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(1_700_000_000+n, 0), WeightKg: 70}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("churn/"+mode, func(b *testing.B) {
			db := setup(b)
			var n int
			for b.Loop() {
				n++
				err := db.Tx(ctx, func(tx *store.Tx) error {
					if _, err := tx.ExecContext(ctx, `INSERT INTO request_keys (key, member_id, kind, body_hash, status, response, created_at)
						VALUES (?, 'ada', 'POST /x', 'h', 200, ?, '2026-03-01T00:00:00Z')`, fmt.Sprintf("bench-key-%012d", n), reply); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, `DELETE FROM request_keys WHERE key = ?`, fmt.Sprintf("bench-key-%012d", n-100))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("erase/"+mode, func(b *testing.B) {
			db := setup(b)
			for b.Loop() {
				b.StopTimer()
				fillErasee(b, db)
				b.StartTimer()
				if _, err := db.EraseMember(ctx, "erasee"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fillErasee creates member erasee with meals, a chat and recorded replies.
func fillErasee(b *testing.B, db *store.DB) {
	ctx := context.Background()
	storetest.Member(b, db, "erasee")
	err := db.Tx(ctx, func(tx *store.Tx) error {
		q := []string{
			`INSERT INTO meals (member_id, eaten_at, name, calories, created_at)
				SELECT 'erasee', '2026-03-01T08:00:00Z', 'meal ' || value, 400, '2026-03-01T08:00:00Z' FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 200) SELECT value FROM s)`,
			`INSERT INTO agent_threads (agent_id, member_id, title, created_at, updated_at) VALUES ('health-coach', 'erasee', 'chat', '2026-03-01T08:00:00Z', '2026-03-01T08:00:00Z')`,
			`INSERT INTO agent_messages (thread_id, role, content, created_at)
				SELECT (SELECT max(id) FROM agent_threads), 'user', 'how am I doing with my meals this week ' || value || ' ' || hex(randomblob(200)), '2026-03-01T08:00:00Z'
				FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 50) SELECT value FROM s)`,
			`INSERT INTO request_keys (key, member_id, kind, body_hash, status, response, created_at)
				SELECT 'erase-' || hex(randomblob(8)), 'erasee', 'POST /x', 'h', 200, randomblob(2048), '2026-03-01T00:00:00Z' FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 20) SELECT value FROM s)`,
		}
		for _, s := range q {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
