package agent

import (
	"context"
	"strings"
	"time"
)

// Price is a model's price in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
}

// Prices maps a model name to its price; unknown models cost nothing.
type Prices map[string]Price

// Lookup finds model's price: an exact match, else the longest priced name
// that model starts with (servers report dated variants such as
// "gpt-4o-mini-2024-07-18" for "gpt-4o-mini").
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	best, found := "", false
	for name := range p {
		if name != "" && strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	return p[best], found
}

// Cost estimates the price of usage on model (0 for unpriced models).
func (p Prices) Cost(model string, u Usage) float64 {
	pr, ok := p.Lookup(model)
	if !ok {
		return 0
	}
	return (float64(u.InputTokens)*pr.InputPerMTok + float64(u.OutputTokens)*pr.OutputPerMTok) / 1e6
}

// Budget caps the household's model spend per day (in the orchestrator's
// time zone). Zero fields are unlimited.
type Budget struct {
	Tokens int64   `json:"tokens"`
	USD    float64 `json:"usd"`
}

// Unlimited reports whether the budget imposes no cap.
func (b Budget) Unlimited() bool { return b.Tokens <= 0 && b.USD <= 0 }

// BudgetStatus is today's spend against the budget.
type BudgetStatus struct {
	Budget     Budget    `json:"budget"`
	Tokens     int64     `json:"tokens"`
	USD        float64   `json:"usd"`
	Exhausted  bool      `json:"exhausted"`
	DayStarted time.Time `json:"day_started"`
}

// BudgetStatus reports today's spend (runs created since local midnight).
func (o *Orchestrator) BudgetStatus(ctx context.Context) (BudgetStatus, error) {
	now := o.now().In(o.opts.Location)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, o.opts.Location)
	tokens, usd, err := o.runs.spentSince(ctx, day)
	if err != nil {
		return BudgetStatus{}, err
	}
	b := o.opts.Budget
	st := BudgetStatus{Budget: b, Tokens: tokens, USD: usd, DayStarted: day}
	st.Exhausted = (b.Tokens > 0 && tokens >= b.Tokens) || (b.USD > 0 && usd >= b.USD)
	return st, nil
}
