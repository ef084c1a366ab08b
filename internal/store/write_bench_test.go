package store_test

import (
	"context"
	"fmt"
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
