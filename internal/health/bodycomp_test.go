package health

import (
	"testing"
	"time"
)

func TestBodyComposition(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 12, 0)
	old := BodyScan{ScannedAt: on(utc, 2026, 2, 1, 9, 0), BodyFatPct: f(32.0), LeanMassKg: f(47.4), FatMassKg: f(23.4)}
	recent := BodyScan{ScannedAt: on(utc, 2026, 3, 8, 9, 0), BodyFatPct: f(30.4), LeanMassKg: f(47.0), FatMassKg: f(21.6)}
	future := BodyScan{ScannedAt: on(utc, 2026, 3, 20, 9, 0), BodyFatPct: f(10), LeanMassKg: f(60)}
	if _, ok := BodyComposition(nil, now, utc); ok {
		t.Fatal("no scans reported ok")
	}
	got, ok := BodyComposition([]BodyScan{recent, future, old}, now, utc)
	if !ok || !eqF(got.Latest.BodyFatPct, f(30.4)) || got.DaysAgo != 7 || got.Previous == nil ||
		!eqF(got.BodyFatChangePct, f(-1.6)) || !eqF(got.LeanChangeKg, f(-0.4)) || !eqF(got.FatMassChangeKg, f(-1.8)) {
		t.Fatalf("%+v", got)
	}
	one, _ := BodyComposition([]BodyScan{old}, now, utc)
	if one.Previous != nil || one.BodyFatChangePct != nil || one.DaysAgo != 42 {
		t.Errorf("single scan: %+v", one)
	}
}
