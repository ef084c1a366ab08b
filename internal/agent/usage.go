package agent

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"time"

	"hearth/internal/store"
)

// PartChat names chat turns (runs without an assignment) in a UsageReport.
const PartChat = "chat"

// UsageRow is one member's model use for one part (an assignment, or chat)
// over a UsageReport's window.
type UsageRow struct {
	Member string
	Part   string
	Runs   int
	// TokensIn and TokensOut are the window's totals as the server
	// reported them; PerDayIn and PerDayOut divide them by the days.
	TokensIn, TokensOut int64
	PerDayIn, PerDayOut int64
	// USD is what the window cost at today's prices.
	USD float64
}

// UsageReport is the model use of the last Days days, in plain figures.
type UsageReport struct {
	Days  int
	Since time.Time
	Rows  []UsageRow // by member, then part
	// MonthlyUSD projects the window's cost at today's prices (Prices, per
	// run's model; unpriced models, such as a local server's, cost 0) to 30
	// days.
	MonthlyUSD float64
	// Timed is how many model runs the latency figures are over (runs that
	// spent tokens and finished); Median and P95 are their start-to-finish
	// times.
	Timed       int
	Median, P95 time.Duration
	// RunBudget is the household's default budget per run.
	RunBudget RunBudget
}

// Usage reports the model use of runs created in the last days days (7
// when days ≤ 0).
func (o *Orchestrator) Usage(ctx context.Context, days int) (UsageReport, error) {
	if days <= 0 {
		days = 7
	}
	since := o.now().UTC().Add(-time.Duration(days) * 24 * time.Hour)
	rows, err := o.db.Read.QueryContext(ctx, `SELECT member_id, assignment_id, model, tokens_in, tokens_out, started_at, finished_at
		FROM agent_runs WHERE created_at >= ? AND (tokens_in > 0 OR tokens_out > 0)`, store.FormatTime(since))
	if err != nil {
		return UsageReport{}, fmt.Errorf("agent: usage: %w", err)
	}
	defer rows.Close()
	rep := UsageReport{Days: days, Since: since, RunBudget: o.opts.RunBudget}
	byKey := map[[2]string]*UsageRow{}
	var took []time.Duration
	for rows.Next() {
		var member, part, model string
		var u Usage
		var started, finished sql.NullString
		if err := rows.Scan(&member, &part, &model, &u.InputTokens, &u.OutputTokens, &started, &finished); err != nil {
			return UsageReport{}, fmt.Errorf("agent: usage: %w", err)
		}
		if part == "" {
			part = PartChat
		}
		k := [2]string{member, part}
		r := byKey[k]
		if r == nil {
			r = &UsageRow{Member: member, Part: part}
			byKey[k] = r
		}
		cost := o.opts.Prices.Cost(model, u)
		r.Runs++
		r.TokensIn += u.InputTokens
		r.TokensOut += u.OutputTokens
		r.USD += cost
		rep.MonthlyUSD += cost
		if d, ok := runTime(started, finished); ok {
			took = append(took, d)
		}
	}
	if err := rows.Err(); err != nil {
		return UsageReport{}, fmt.Errorf("agent: usage: %w", err)
	}
	for _, k := range slices.SortedFunc(maps.Keys(byKey), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		r := byKey[k]
		r.PerDayIn, r.PerDayOut = r.TokensIn/int64(days), r.TokensOut/int64(days)
		rep.Rows = append(rep.Rows, *r)
	}
	rep.MonthlyUSD = rep.MonthlyUSD / float64(days) * 30
	slices.Sort(took)
	rep.Timed = len(took)
	rep.Median, rep.P95 = percentile(took, 50), percentile(took, 95)
	return rep, nil
}

// runTime is a finished run's start-to-finish time.
func runTime(started, finished sql.NullString) (time.Duration, bool) {
	if !started.Valid || !finished.Valid {
		return 0, false
	}
	s, err1 := store.ParseTime(started.String)
	f, err2 := store.ParseTime(finished.String)
	if err1 != nil || err2 != nil || f.Before(s) {
		return 0, false
	}
	return f.Sub(s), true
}

// percentile is the nearest-rank p-th percentile of sorted (0 when empty).
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 · n), 1-based
	return sorted[max(rank, 1)-1]
}

// Price is the configured price of model (HEARTH_PRICES); ok is false for
// an unpriced model, which costs nothing (a local server).
func (o *Orchestrator) Price(model string) (Price, bool) { return o.opts.Prices.Lookup(model) }
