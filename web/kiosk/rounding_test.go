package kiosk

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/views"
)

// decimalRound1 is the oracle: s (a decimal as written) rounded half away
// from zero to one decimal, in exact arithmetic.
func decimalRound1(t *testing.T, s string) string {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad decimal %q", s)
	}
	neg := r.Sign() < 0
	r.Abs(r)
	r.Mul(r, big.NewRat(10, 1)).Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom()) // floor for positives
	out := fmt.Sprintf("%d.%d", n.Int64()/10, n.Int64()%10)
	if neg && n.Sign() != 0 {
		out = "-" + out
	}
	return out
}

// TestOneRoundingRule holds every path that shows a reading with one
// decimal to one rule (issue 35: one reading read 84.0 in one place and
// 83.9 in another): the headline, the list and the coach's text, the
// correction form, the chart's labels, a change, and the coach's tool
// values agree with exact decimal rounding of the reading as written, for
// every two-decimal weight from 40.00 to 200.00 kg.
func TestOneRoundingRule(t *testing.T) {
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "0"), ".") }
	bad := 0
	for i := 4000; i <= 20000; i++ {
		s := fmt.Sprintf("%d.%02d", i/100, i%100)
		kg, _ := strconv.ParseFloat(s, 64)
		want := decimalRound1(t, s)
		got := map[string]string{
			"headline (board.WeightNumber)":  board.WeightNumber(health.KG, kg),
			"list, coach (board.WeightText)": strings.TrimSuffix(board.WeightText(health.KG, kg), " kg"),
			"correction form (views.Round1)": strconv.FormatFloat(views.Round1(kg), 'f', -1, 64),
			"chart labels (trim1)":           trim1(kg),
			"change (Unit.FormatDelta)":      strings.TrimSuffix(strings.TrimPrefix(health.KG.FormatDelta(kg), "+"), " kg"),
			"figure (health.Figure)":         health.Figure(kg),
			"body change (signed)":           strings.TrimPrefix(signed(kg), "+"),
		}
		for where, g := range got {
			if g != want && g != trim(want) {
				if bad++; bad <= 10 {
					t.Errorf("%s kg: %s shows %s, want %s", s, where, g, want)
				}
			}
		}
	}
	if bad > 10 {
		t.Errorf("… %d disagreements in all", bad)
	}
	// A reading in pounds, stored in kilograms, shows as it was written.
	for i := 800; i <= 4000; i++ {
		lb := float64(i) / 10
		want := strconv.FormatFloat(lb, 'f', 1, 64)
		if got := board.WeightNumber(health.LB, health.LB.ToKg(lb)); got != want {
			t.Fatalf("%v lb shows as %s", lb, got)
		}
	}
}
