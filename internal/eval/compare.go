package eval

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Change is one check whose outcome differs between two reports.
type Change struct {
	Scenario string `json:"scenario"`
	Check    string `json:"check"`
	From     string `json:"from"`
	To       string `json:"to"`
	Detail   string `json:"detail,omitempty"`
}

// Comparison sets report B against report A, check by check.
type Comparison struct {
	A, B *Report
	// Regressions were met in A and are not in B; Improvements the
	// reverse. Only checks both reports ran are compared.
	Regressions  []Change
	Improvements []Change
	// OnlyA and OnlyB are scenarios one report has and the other lacks.
	OnlyA, OnlyB []string
}

func met(status string) bool { return status == StatusPass || status == StatusGapMet }

// Compare compares B (the newer run, the other model) with A.
func Compare(a, b *Report) Comparison {
	c := Comparison{A: a, B: b}
	byID := func(r *Report) map[string]ScenarioResult {
		m := map[string]ScenarioResult{}
		for _, s := range r.Scenarios {
			m[s.ID] = s
		}
		return m
	}
	as, bs := byID(a), byID(b)
	for _, sb := range b.Scenarios {
		sa, ok := as[sb.ID]
		if !ok {
			c.OnlyB = append(c.OnlyB, sb.ID)
			continue
		}
		checksA := map[string]CheckResult{}
		for _, ch := range sa.Checks {
			checksA[ch.Name] = ch
		}
		for _, chB := range sb.Checks {
			chA, ok := checksA[chB.Name]
			if !ok || chA.Status == StatusSkip || chB.Status == StatusSkip {
				continue
			}
			switch {
			case met(chA.Status) && !met(chB.Status):
				c.Regressions = append(c.Regressions, Change{Scenario: sb.ID, Check: chB.Name, From: chA.Status, To: chB.Status, Detail: chB.Detail})
			case !met(chA.Status) && met(chB.Status):
				c.Improvements = append(c.Improvements, Change{Scenario: sb.ID, Check: chB.Name, From: chA.Status, To: chB.Status})
			}
		}
	}
	for _, sa := range a.Scenarios {
		if _, ok := bs[sa.ID]; !ok {
			c.OnlyA = append(c.OnlyA, sa.ID)
		}
	}
	return c
}

// Print writes the two reports' figures side by side, then the
// regressions and improvements.
func (c Comparison) Print(w io.Writer) {
	a, b := c.A.Summary, c.B.Summary
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\tA\tB\tchange\n")
	fmt.Fprintf(tw, "runtime\t%s\t%s\t\n", orDash(c.A.Runtime), orDash(c.B.Runtime))
	fmt.Fprintf(tw, "definition\t%s\t%s\t\n", c.A.Definition, c.B.Definition)
	fmt.Fprintf(tw, "scenarios passed\t%d/%d\t%d/%d\t%+d\n", a.ScenariosPassed, a.Scenarios, b.ScenariosPassed, b.Scenarios,
		b.ScenariosPassed-a.ScenariosPassed)
	rate := func(name string, x, y float64) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f pt\n", name, pct(x), pct(y), (y-x)*100)
	}
	rate("designed pass rate", a.DesignedPassRate, b.DesignedPassRate)
	rate("pass rate", a.PassRate, b.PassRate)
	rate("hallucination rate", a.HallucinationRate, b.HallucinationRate)
	rate("numeric fidelity", a.NumericFidelity, b.NumericFidelity)
	rate("stale-CTA rate", a.StaleCTARate, b.StaleCTARate)
	fmt.Fprintf(tw, "validation retries\t%d\t%d\t%+d\n", a.Retries, b.Retries, b.Retries-a.Retries)
	fmt.Fprintf(tw, "fallbacks\t%d\t%d\t%+d\n", a.Fallbacks, b.Fallbacks, b.Fallbacks-a.Fallbacks)
	fmt.Fprintf(tw, "tokens in/out\t%d/%d\t%d/%d\t\n", a.TokensIn, a.TokensOut, b.TokensIn, b.TokensOut)
	fmt.Fprintf(tw, "cost\t$%.4f\t$%.4f\t%+.4f\n", a.CostUSD, b.CostUSD, b.CostUSD-a.CostUSD)
	fmt.Fprintf(tw, "latency p50/p95 ms\t%.0f/%.0f\t%.0f/%.0f\t\n", a.LatencyP50, a.LatencyP95, b.LatencyP50, b.LatencyP95)
	if a.JudgeScored > 0 || b.JudgeScored > 0 {
		fmt.Fprintf(tw, "judge tone/helpfulness\t%.2f/%.2f\t%.2f/%.2f\t\n", a.JudgeTone, a.JudgeHelpfulness, b.JudgeTone, b.JudgeHelpfulness)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\n%d regressions (met in A, not in B):\n", len(c.Regressions))
	for _, ch := range c.Regressions {
		fmt.Fprintf(w, "  %s: %s (%s → %s) %s\n", ch.Scenario, ch.Check, ch.From, ch.To, clip(ch.Detail, 160))
	}
	fmt.Fprintf(w, "%d improvements (not met in A, met in B):\n", len(c.Improvements))
	for _, ch := range c.Improvements {
		fmt.Fprintf(w, "  %s: %s (%s → %s)\n", ch.Scenario, ch.Check, ch.From, ch.To)
	}
	for _, id := range c.OnlyA {
		fmt.Fprintf(w, "only in A: %s\n", id)
	}
	for _, id := range c.OnlyB {
		fmt.Fprintf(w, "only in B: %s\n", id)
	}
}
