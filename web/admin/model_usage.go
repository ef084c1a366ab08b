package admin

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/views/adminview"
)

// usageDays is the window of Admin → Model's cost figures.
const usageDays = 7

// usage is the cost in plain figures for Admin → Model (nil without agents).
func (s *modelPages) usage(ctx context.Context) (*adminview.ModelUsage, error) {
	if s.agents == nil {
		return nil, nil
	}
	rep, err := s.agents.Usage(ctx, usageDays)
	if err != nil {
		return nil, err
	}
	v := &adminview.ModelUsage{Days: rep.Days, Monthly: fmtUSD(rep.MonthlyUSD), Timed: rep.Timed,
		Median: fmtSeconds(rep.Median), P95: fmtSeconds(rep.P95), Price: "no model configured"}
	v.Budget = runBudgetText(rep.RunBudget)
	if ep, ok := s.model.Configured(); ok {
		v.Price = ep.Model + ": no price set (HEARTH_PRICES), counted as free, as a local server is"
		if pr, ok := s.agents.Price(ep.Model); ok {
			v.Price = fmt.Sprintf("%s: %s per million input tokens, %s per million output tokens", ep.Model,
				fmtUSD(pr.InputPerMTok), fmtUSD(pr.OutputPerMTok))
		}
	}
	for _, r := range rep.Rows {
		v.Rows = append(v.Rows, adminview.ModelUsageRow{Member: r.Member, Part: r.Part, Runs: r.Runs,
			PerDayIn: fmtCount(r.PerDayIn), PerDayOut: fmtCount(r.PerDayOut), Monthly: fmtUSD(r.USD / float64(rep.Days) * 30)})
	}
	return v, nil
}

// fmtUSD shows dollars with cents, and small amounts to a tenth of a cent.
func fmtUSD(v float64) string {
	if v > 0 && v < 1 {
		return fmt.Sprintf("$%.3f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// fmtSeconds shows a run's time in seconds (one decimal).
func fmtSeconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// fmtCount groups thousands with a comma (12,345).
func fmtCount(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + fmtCount(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// runBudgetText says the household's budget per run in words.
func runBudgetText(b agent.RunBudget) string {
	part := func(n int64, what string) string {
		if n <= 0 {
			return "no cap on " + what + " tokens"
		}
		return fmtCount(n) + " " + what + " tokens"
	}
	return part(b.PromptTokens, "prompt") + ", " + part(b.CompletionTokens, "completion")
}
