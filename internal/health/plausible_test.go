package health

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestCheckWeight(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 7, 0)
	// Two to six days ago: the trend rule alone (the newest reading is
	// older than SuddenChangeWindow).
	var hist []WeightReading
	for d := 2; d <= 6; d++ {
		r := w(now.AddDate(0, 0, -d), 70.5)
		r.ID = int64(d - 1)
		hist = append(hist, r)
	}
	yesterday := w(now.AddDate(0, 0, -1), 70.5)
	yesterday.ID = 9
	withYesterday := append([]WeightReading{yesterday}, hist...)
	tonight := w(now.Add(-10*time.Hour), 70.5) // weighed last night, again this morning
	tonight.ID = 10
	withTonight := []WeightReading{hist[0], tonight}
	tests := []struct {
		name    string
		kg      float64
		hist    []WeightReading
		unit    Unit
		ok      bool
		message string
	}{
		{"close to the trend", 71.2, hist, KG, true, ""},
		{"a typo far below", 6.9, hist, KG, false, "6.9 kg is far from your trend of 70.5 kg"},
		{"just inside 15 %", 70.5 * 1.149, hist, KG, true, ""},
		{"just outside 15 %", 70.5 * 1.151, hist, KG, false, "81.1 kg is far from your trend of 70.5 kg"},
		{"in pounds", LB.ToKg(15.2), hist, LB, false, "15.2 lb is far from your trend of 155.4 lb"},
		{"two readings only: no trend", 6.9, hist[:2], KG, true, ""},
		{"readings older than 14 days do not count", 6.9, []WeightReading{
			w(now.AddDate(0, 0, -15), 70), w(now.AddDate(0, 0, -16), 70), w(now.AddDate(0, 0, -20), 70)}, KG, true, ""},
		// Sudden change: against the last weigh-in within 36 hours.
		{"3 kg overnight", 73.6, withYesterday, KG, false, "73.6 kg is 3.1 kg above your last weigh-in of 70.5 kg"},
		{"3 kg since last night, one reading only", 67.4, withTonight, KG, false, "67.4 kg is 3.1 kg below your last weigh-in of 70.5 kg"},
		{"2.5 kg overnight is a day's swing", 73.0, withYesterday, KG, true, ""},
		{"3 kg two days later counts", 73.6, hist, KG, true, ""},
		{"overnight in pounds", LB.ToKg(162), withYesterday, LB, false, "162 lb is 6.6 lb above your last weigh-in of 155.4 lb"},
		{"later readings do not count", 6.9, []WeightReading{
			w(now.Add(time.Hour), 70), w(now.Add(2*time.Hour), 70), w(now.Add(3*time.Hour), 70)}, KG, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := CheckWeight(tc.kg, now, 0, tc.hist, tc.unit, utc)
			if v.Plausible != tc.ok || v.Message != tc.message {
				t.Errorf("CheckWeight(%g) = %+v, want ok=%v %q", tc.kg, v, tc.ok, tc.message)
			}
		})
	}
	// Editing reading 1 is not compared with its old value.
	edited := []WeightReading{hist[0], hist[1], hist[2]}
	if v := CheckWeight(6.9, now, 1, edited, KG, utc); !v.Plausible {
		t.Errorf("an edit compared with itself: %+v", v)
	}
}

func TestWeightRangeInTheMembersUnit(t *testing.T) {
	if got := WeightRange(KG); got != "must be between 2 and 400 kg" {
		t.Errorf("kg: %q", got)
	}
	if got := WeightRange(LB); got != "must be between 4.4 and 882 lb" {
		t.Errorf("lb: %q", got)
	}
}

func TestCheckMeal(t *testing.T) {
	if v := CheckMeal(5000); !v.Plausible {
		t.Errorf("5,000 kcal: %+v", v)
	}
	v := CheckMeal(5400)
	if v.Plausible || v.Message != "5,400 kcal is more than one meal usually holds (over 5,000 kcal)" {
		t.Errorf("5,400 kcal: %+v", v)
	}
}

func TestPlausibleWeightsDropsAConfirmedTypo(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 7, 0)
	var rs []WeightReading
	for d := 6; d >= 1; d-- {
		r := w(now.AddDate(0, 0, -d), 70+float64(d)*0.1)
		r.ID = int64(10 - d)
		rs = append(rs, r)
	}
	typo := w(now, 7.05)
	typo.ID = 20
	rs = append([]WeightReading{typo}, rs...) // newest first, as the store lists them
	got := PlausibleWeights(rs, utc)
	if len(got) != len(rs)-1 {
		t.Fatalf("kept %d of %d", len(got), len(rs))
	}
	for _, r := range got {
		if r.ID == 20 {
			t.Fatal("the typo was kept")
		}
	}
	if tr := WeightTrend(got, Member{}, now, utc); tr.CurrentKg == nil || *tr.CurrentKg < 70 {
		t.Errorf("current after dropping the typo: %v", tr.CurrentKg)
	}
}

// TestPlausibleWeightsQuestionsASuddenChange: 3 kg up overnight after two
// steady weeks is set aside; the same weight the next day is kept (the
// change is real), and the overnight reading stays set aside.
func TestPlausibleWeightsQuestionsASuddenChange(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 7, 0)
	var rs []WeightReading
	for d := 14; d >= 1; d-- {
		r := w(now.AddDate(0, 0, -d), 70.1)
		r.ID = int64(20 - d)
		rs = append(rs, r)
	}
	jump := w(now, 73.1)
	jump.ID = 30
	kept := PlausibleWeights(append(rs, jump), utc)
	if len(kept) != len(rs) || kept[len(kept)-1].ID == 30 {
		t.Fatalf("the overnight jump was kept: %d of %d", len(kept), len(rs)+1)
	}
	again := w(now.AddDate(0, 0, 1), 73.0)
	again.ID = 31
	kept = PlausibleWeights(append(rs, jump, again), utc)
	ids := map[int64]bool{}
	for _, r := range kept {
		ids[r.ID] = true
	}
	if !ids[31] || ids[30] {
		t.Fatalf("next day: kept %v, want 31 (the weight held) and not 30", ids)
	}
}

// plausibleByCheckWeight is PlausibleWeights as the rule reads: each
// reading, oldest first, checked by CheckWeight against the readings kept
// before it.
func plausibleByCheckWeight(readings []WeightReading, loc *time.Location) map[int64]bool {
	sorted := append([]WeightReading(nil), readings...)
	sort.SliceStable(sorted, func(a, b int) bool {
		if !sorted[a].MeasuredAt.Equal(sorted[b].MeasuredAt) {
			return sorted[a].MeasuredAt.Before(sorted[b].MeasuredAt)
		}
		return sorted[a].ID < sorted[b].ID
	})
	kept := map[int64]bool{}
	var hist []WeightReading
	for _, r := range sorted {
		if InWeightRange(r.WeightKg, KG) && CheckWeight(r.WeightKg, r.MeasuredAt, 0, hist, KG, loc).Plausible {
			kept[r.ID] = true
			hist = append(hist, r)
		}
	}
	return kept
}

// The day-by-day trend PlausibleWeights carries forward gives CheckWeight's
// verdicts on generated histories: gaps, typos, several readings a day,
// readings at one instant, and time zones whose midnight splits days.
func TestPlausibleWeightsMatchesCheckWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	zones := []string{"UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Auckland"}
	for c := 0; c < 300; c++ {
		loc, err := time.LoadLocation(zones[c%len(zones)])
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 1, 1, 6, 0, 0, 0, time.UTC)
		kg := 50 + rng.Float64()*60
		var rs []WeightReading
		for i := 0; i < 5+rng.IntN(120); i++ {
			switch rng.IntN(10) {
			case 0: // a gap of days or weeks
				at = at.Add(time.Duration(1+rng.IntN(30*24)) * time.Hour)
			case 1, 2: // the same day, or the same instant
				at = at.Add(time.Duration(rng.IntN(3)) * time.Hour)
			default:
				at = at.Add(time.Duration(12+rng.IntN(36)) * time.Hour)
			}
			v := kg + rng.NormFloat64()
			switch rng.IntN(12) {
			case 0:
				v /= 10 // a typo: 7.0 for 70
			case 1:
				v *= 1.13 + rng.Float64()*0.05 // near the 15 % edge
			}
			kg += rng.NormFloat64() * 0.3
			rs = append(rs, WeightReading{ID: int64(i + 1), MeasuredAt: at, WeightKg: math.Round(v*100) / 100})
		}
		rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		want := plausibleByCheckWeight(rs, loc)
		got := PlausibleWeights(rs, loc)
		if len(got) != len(want) {
			t.Fatalf("case %d (%s): %d kept, CheckWeight keeps %d", c, loc, len(got), len(want))
		}
		for _, r := range got {
			if !want[r.ID] {
				t.Fatalf("case %d (%s): reading %d (%.2f kg at %s) kept, CheckWeight drops it", c, loc, r.ID, r.WeightKg, r.MeasuredAt)
			}
		}
	}
}

// BenchmarkPlausibleWeights: a member with two months of daily weigh-ins and
// 200 more today (a scale syncing, or the load tool's markers).
func BenchmarkPlausibleWeights(b *testing.B) {
	now := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	var rs []WeightReading
	for d := 60; d > 0; d-- {
		rs = append(rs, WeightReading{ID: int64(len(rs) + 1), MeasuredAt: now.AddDate(0, 0, -d), WeightKg: 72})
	}
	for i := 0; i < 200; i++ {
		rs = append(rs, WeightReading{ID: int64(len(rs) + 1), MeasuredAt: now.Add(-time.Duration(i) * time.Minute), WeightKg: 72 + float64(i%20)/10})
	}
	for b.Loop() {
		PlausibleWeights(rs, time.UTC)
	}
}
