package app_test

import (
	"io"
	"math"
	"testing"

	"hearth/internal/app"
)

// pricesAcceptNonFinite was true while ParsePrices took "NaN" and "Inf"
// (strconv.ParseFloat accepts them); it is fixed, so such inputs now fail.
const pricesAcceptNonFinite = false

// FuzzParsePrices feeds HEARTH_PRICES arbitrary text: it is refused with an
// error or every price is a finite number ≥ 0 under a non-empty model name.
//
//	go test -run '^$' -fuzz FuzzParsePrices -fuzztime 30s ./internal/app/
func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{"", "gpt-x=0.1/0.4", "a=1/2,b=3/4", "a=1/2,,", "=1/2", "a=1", "a=-1/2", "a=1/2/3",
		"a=NaN/1", "a=1/Inf", "a=1e400/1", " a = 0.5 / 0.5 ", "a=0x10/1", "a=1_0/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prices, err := app.ParsePrices(s)
		if err != nil {
			return
		}
		for model, p := range prices {
			if model == "" {
				t.Fatalf("%q: empty model name accepted", s)
			}
			for _, v := range []float64{p.InputPerMTok, p.OutputPerMTok} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					if pricesAcceptNonFinite {
						t.Logf("known finding: %q gives %s a price of %v", s, model, v)
						continue
					}
					t.Fatalf("%q: %s has price %v", s, model, v)
				}
			}
		}
	})
}

// FuzzLoadConfig feeds every environment variable arbitrary text: the
// configuration loads or fails with an error, never panics, and a loaded
// one has a time zone and sane durations.
func FuzzLoadConfig(f *testing.F) {
	f.Add("127.0.0.1:8080", "UTC", "1", "3m", "12h", "0", "0")
	f.Add(":0", "Europe/Paris", "yes", "10s", "0", "1000", "2.5")
	f.Add("", "Mars/Olympus", "maybe", "1s", "-1h", "-5", "NaN")
	f.Add("127.0.0.1:0", "UTC", "0", "3m", "12h", "0", "NaN")
	f.Fuzz(func(t *testing.T, addr, tz, demo, idle, catchUp, tokens, usd string) {
		env := map[string]string{"HEARTH_ADDR": addr, "HEARTH_TZ": tz, "HEARTH_DEMO": demo, "HEARTH_KIOSK_IDLE": idle,
			"HEARTH_CATCHUP": catchUp, "HEARTH_BUDGET_TOKENS": tokens, "HEARTH_BUDGET_USD": usd}
		cfg, err := app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
		if err != nil {
			return
		}
		if cfg.Location == nil || cfg.KioskIdle < 10e9 || cfg.CatchUp < 0 || cfg.BudgetTokens < 0 || cfg.BudgetUSD < 0 {
			t.Fatalf("accepted a bad configuration: %+v", cfg)
		}
		if math.IsNaN(cfg.BudgetUSD) || math.IsInf(cfg.BudgetUSD, 0) {
			t.Fatalf("HEARTH_BUDGET_USD %q accepted as %v", usd, cfg.BudgetUSD)
		}
	})
}
