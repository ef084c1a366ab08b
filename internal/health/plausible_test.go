package health

import (
	"testing"
	"time"
)

func TestCheckWeight(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 7, 0)
	var hist []WeightReading
	for d := 1; d <= 5; d++ {
		r := w(now.AddDate(0, 0, -d), 70.5)
		r.ID = int64(d)
		hist = append(hist, r)
	}
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
