package eval

import (
	"fmt"
	"hearth/internal/health"
	"io"
	"strings"
	"text/tabwriter"
)

// PrintTable writes one row per scenario (result, checks met, known gaps,
// run status, latency, tokens in/out, what failed) and the overall score:
// a smaller prompt that loses quality shows beside its score.
func PrintTable(w io.Writer, r *Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tRESULT\tMET\tGAPS\tRUN\tMS\tTOKENS\tFAILING")
	for _, sc := range r.Scenarios {
		result := "pass"
		switch {
		case sc.Error != "":
			result = "ERROR"
		case !sc.Passed:
			result = "FAIL"
		}
		met := sc.Count(StatusPass) + sc.Count(StatusGapMet)
		applies := len(sc.Checks) - sc.Count(StatusSkip)
		run := sc.Run.Status
		if sc.Run.FallbackReason != "" {
			run += " (" + reasonKind(sc.Run.FallbackReason) + ")"
		}
		var failing []string
		if sc.Error != "" {
			failing = append(failing, sc.Error)
		}
		for _, c := range sc.Checks {
			if c.Status == StatusFail {
				failing = append(failing, c.Name)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d\t%s\t%.0f\t%s\t%s\n", sc.ID, result, met, applies, sc.Count(StatusGap), run,
			sc.Run.LatencyMS, TokensText(sc.Run.TokensIn, sc.Run.TokensOut), clip(strings.Join(failing, "; "), 100))
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	PrintSummary(w, r)
}

// PrintSummary writes the overall score.
func PrintSummary(w io.Writer, r *Report) {
	s := r.Summary
	fmt.Fprintf(w, "runtime %s, definition %s, %d scenarios in %s\n", orDash(r.Runtime), r.Definition, s.Scenarios,
		r.FinishedAt.Sub(r.StartedAt).Round(100_000_000))
	fmt.Fprintf(w, "scenarios passed      %d/%d\n", s.ScenariosPassed, s.Scenarios)
	fmt.Fprintf(w, "designed pass rate    %s (%d/%d checks the coach is meant to meet)\n", pct(s.DesignedPassRate), s.DesignedMet, s.Designed)
	fmt.Fprintf(w, "pass rate             %s (%d/%d checks, known gaps included: %d still open, %d now met)\n",
		pct(s.PassRate), s.Met, s.Checks, s.Gaps, s.GapsMet)
	fmt.Fprintf(w, "hallucination rate    %s of %d plans (%d model replies)\n", pct(s.HallucinationRate), s.Outputs, s.ModelOutputs)
	fmt.Fprintf(w, "numeric fidelity      %s of %d figures\n", pct(s.NumericFidelity), s.Figures)
	fmt.Fprintf(w, "stale-CTA rate        %s\n", pct(s.StaleCTARate))
	fmt.Fprintf(w, "validation retries    %d\n", s.Retries)
	reasons := ""
	for k, v := range s.Reasons {
		reasons += fmt.Sprintf(" %s×%d", k, v)
	}
	fmt.Fprintf(w, "fallbacks             %d%s\n", s.Fallbacks, reasons)
	fmt.Fprintf(w, "tokens                %d in, %d out; cost $%.4f\n", s.TokensIn, s.TokensOut, s.CostUSD)
	fmt.Fprintf(w, "latency               p50 %.0f ms, p95 %.0f ms\n", s.LatencyP50, s.LatencyP95)
	if s.JudgeScored > 0 {
		fmt.Fprintf(w, "judge (%s, separate)  tone %.2f/5, helpfulness %.2f/5 over %d plans\n", r.JudgeModel, s.JudgeTone,
			s.JudgeHelpfulness, s.JudgeScored)
	}
	if r.Paraphrases != nil {
		r.Paraphrases.Print(w)
	}
	if r.Mutation != nil {
		r.Mutation.Print(w)
	}
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TokensText is a run's tokens as the tables write them: "3,436/412" (in
// and out), "–" for none (the heuristic coach sends no request).
func TokensText(in, out int64) string {
	if in == 0 && out == 0 {
		return "–"
	}
	return health.Thousands(float64(in)) + "/" + health.Thousands(float64(out))
}
