package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"time"
)

// Check outcomes.
const (
	// StatusPass: the check holds.
	StatusPass = "pass"
	// StatusFail: the check fails and the coach is meant to meet it.
	StatusFail = "fail"
	// StatusGap: a known gap that still fails (reported, not counted
	// against the thresholds).
	StatusGap = "gap"
	// StatusGapMet: a known gap that now holds: drop its known_gap flag.
	StatusGapMet = "gap_met"
	// StatusSkip: the check is for the other runtime.
	StatusSkip = "skip"
)

// CheckResult is one check of one scenario: a generic grader on the plan
// the member sees, or one of the scenario's expectations.
type CheckResult struct {
	Name     string `json:"name"`
	Status   string `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Why      string `json:"why,omitempty"`
	KnownGap string `json:"known_gap,omitempty"`
}

// RunInfo summarises the graded run. Runtime is what the instance was
// configured with ("heuristic" or the model); Model what the run used.
type RunInfo struct {
	ID             int64   `json:"id"`
	Runtime        string  `json:"runtime"`
	Status         string  `json:"status"`
	Model          string  `json:"model"`
	FallbackReason string  `json:"fallback_reason,omitempty"`
	Error          string  `json:"error,omitempty"`
	Attempts       int     `json:"attempts"`
	Retries        int     `json:"validation_retries"`
	TokensIn       int64   `json:"tokens_in"`
	TokensOut      int64   `json:"tokens_out"`
	CostUSD        float64 `json:"cost_usd"`
	LatencyMS      float64 `json:"latency_ms"`
}

// ScenarioResult is one scenario's outcome.
type ScenarioResult struct {
	ID     string        `json:"id"`
	Title  string        `json:"title"`
	Covers []string      `json:"covers"`
	Passed bool          `json:"passed"`
	Error  string        `json:"error,omitempty"`
	Checks []CheckResult `json:"checks"`
	Run    RunInfo       `json:"run"`
	// Outputs grades every output the run produced: rejected replies,
	// then the accepted one.
	Outputs []PlanGrade `json:"outputs"`
	// SetupTokens and SetupCostUSD are the timeline's earlier runs.
	SetupTokens  int64           `json:"setup_tokens,omitempty"`
	SetupCostUSD float64         `json:"setup_cost_usd,omitempty"`
	Document     json.RawMessage `json:"document,omitempty"`
	Judge        *JudgeScore     `json:"judge,omitempty"`
}

// Count tallies the checks by status.
func (r ScenarioResult) Count(status string) int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == status {
			n++
		}
	}
	return n
}

// Summary are the suite's figures.
type Summary struct {
	Scenarios       int `json:"scenarios"`
	ScenariosPassed int `json:"scenarios_passed"`
	Errors          int `json:"errors"`
	// Checks counts every check that applies (not skipped); Met those that
	// hold; Designed the checks that are not known gaps, DesignedMet those
	// of them that hold; Gaps the known gaps still failing, GapsMet the
	// known gaps now met.
	Checks      int `json:"checks"`
	Met         int `json:"met"`
	Designed    int `json:"designed"`
	DesignedMet int `json:"designed_met"`
	Gaps        int `json:"gaps"`
	GapsMet     int `json:"gaps_met"`
	// PassRate is Met/Checks; DesignedPassRate DesignedMet/Designed.
	PassRate         float64 `json:"pass_rate"`
	DesignedPassRate float64 `json:"designed_pass_rate"`
	// Outputs are the plans produced (model replies, heuristic plans);
	// HallucinationRate the share with content not in the catalog;
	// NumericFidelity the share of stated figures found in the facts;
	// StaleCTARate the share with a call to action for a filled gap.
	Outputs           int     `json:"outputs"`
	ModelOutputs      int     `json:"model_outputs"`
	HallucinationRate float64 `json:"hallucination_rate"`
	Figures           int     `json:"figures"`
	NumericFidelity   float64 `json:"numeric_fidelity"`
	StaleCTARate      float64 `json:"stale_cta_rate"`
	// Retries are validation retries (rejected outputs); Fallbacks runs
	// that ended on the heuristic although a model was configured.
	Retries    int            `json:"validation_retries"`
	Fallbacks  int            `json:"fallbacks"`
	Reasons    map[string]int `json:"fallback_reasons,omitempty"`
	TokensIn   int64          `json:"tokens_in"`
	TokensOut  int64          `json:"tokens_out"`
	CostUSD    float64        `json:"cost_usd"`
	LatencyP50 float64        `json:"latency_p50_ms"`
	LatencyP95 float64        `json:"latency_p95_ms"`
	// Judge averages the judge model's scores (1-5) when one was asked.
	JudgeTone        float64 `json:"judge_tone,omitempty"`
	JudgeHelpfulness float64 `json:"judge_helpfulness,omitempty"`
	JudgeScored      int     `json:"judge_scored,omitempty"`
}

// Report is a suite run: what ran, the scenarios and the figures.
type Report struct {
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	// Runtime is "heuristic" or the model; Definition which coach
	// definition ran ("code defaults" or a version).
	Runtime    string           `json:"runtime"`
	Definition string           `json:"definition"`
	JudgeModel string           `json:"judge_model,omitempty"`
	Parallel   int              `json:"parallel"`
	Summary    Summary          `json:"summary"`
	Scenarios  []ScenarioResult `json:"scenarios"`
	// Mutation is the mutation score (hearth eval --mutants).
	Mutation *Mutation `json:"mutation,omitempty"`
	// Paraphrases are the scenarios' plans in other words, and with one
	// wrong fact (hearth eval --paraphrases).
	Paraphrases *ParaphraseCheck `json:"paraphrases,omitempty"`
}

// summarize computes the report's figures.
func (r *Report) summarize() {
	s := Summary{Scenarios: len(r.Scenarios), Reasons: map[string]int{}}
	var lat []float64
	hall, stale, known := 0, 0, 0
	var tone, help float64
	for _, sc := range r.Scenarios {
		if sc.Passed {
			s.ScenariosPassed++
		}
		if sc.Error != "" {
			s.Errors++
		}
		for _, c := range sc.Checks {
			switch c.Status {
			case StatusPass:
				s.Checks++
				s.Met++
				s.Designed++
				s.DesignedMet++
			case StatusFail:
				s.Checks++
				s.Designed++
			case StatusGap:
				s.Checks++
				s.Gaps++
			case StatusGapMet:
				s.Checks++
				s.Met++
				s.GapsMet++
			}
		}
		for _, o := range sc.Outputs {
			s.Outputs++
			if o.Source == "model" {
				s.ModelOutputs++
			}
			if o.Hallucinated {
				hall++
			}
			if o.StaleCTAs > 0 {
				stale++
			}
			s.Figures += o.Figures
			known += o.Known
		}
		s.Retries += sc.Run.Retries
		if sc.Run.Status == "fell_back" {
			s.Fallbacks++
			s.Reasons[reasonKind(sc.Run.FallbackReason)]++
		}
		s.TokensIn += sc.Run.TokensIn
		s.TokensOut += sc.Run.TokensOut
		s.CostUSD += sc.Run.CostUSD + sc.SetupCostUSD
		if sc.Error == "" {
			lat = append(lat, sc.Run.LatencyMS)
		}
		if j := sc.Judge; j != nil && j.Error == "" {
			s.JudgeScored++
			tone += float64(j.Tone)
			help += float64(j.Helpfulness)
		}
	}
	s.PassRate = ratio(s.Met, s.Checks)
	s.DesignedPassRate = ratio(s.DesignedMet, s.Designed)
	s.HallucinationRate = ratio(hall, s.Outputs)
	s.StaleCTARate = ratio(stale, s.Outputs)
	s.NumericFidelity = 1
	if s.Figures > 0 {
		s.NumericFidelity = float64(known) / float64(s.Figures)
	}
	s.LatencyP50, s.LatencyP95 = percentile(lat, 50), percentile(lat, 95)
	if s.JudgeScored > 0 {
		s.JudgeTone, s.JudgeHelpfulness = tone/float64(s.JudgeScored), help/float64(s.JudgeScored)
	}
	if len(s.Reasons) == 0 {
		s.Reasons = nil
	}
	r.Summary = s
}

// reasonKind is a fallback reason's kind ("invalid_output", "model_error",
// "budget"), without its details.
func reasonKind(reason string) string {
	for i, c := range reason {
		if c == ':' || c == ' ' {
			return reason[:i]
		}
	}
	return reason
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// percentile is the p-th percentile (nearest rank) of xs.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Thresholds fail a suite run (hearth eval's flags): nil fields check
// nothing; a scenario that could not run always fails it.
type Thresholds struct {
	MinDesignedPassRate  *float64
	MinPassRate          *float64
	MaxHallucinationRate *float64
	MinNumericFidelity   *float64
	MaxStaleCTARate      *float64
	MaxFallbacks         *int
}

// Check returns the thresholds the report misses, in words.
func (t Thresholds) Check(r *Report) []string {
	s := r.Summary
	var out []string
	below := func(name string, got float64, min *float64) {
		if min != nil && got < *min {
			out = append(out, fmt.Sprintf("%s %.3f is below %.3f", name, got, *min))
		}
	}
	above := func(name string, got float64, max *float64) {
		if max != nil && got > *max {
			out = append(out, fmt.Sprintf("%s %.3f is above %.3f", name, got, *max))
		}
	}
	below("designed pass rate", s.DesignedPassRate, t.MinDesignedPassRate)
	below("pass rate", s.PassRate, t.MinPassRate)
	above("hallucination rate", s.HallucinationRate, t.MaxHallucinationRate)
	below("numeric fidelity", s.NumericFidelity, t.MinNumericFidelity)
	above("stale-CTA rate", s.StaleCTARate, t.MaxStaleCTARate)
	if t.MaxFallbacks != nil && s.Fallbacks > *t.MaxFallbacks {
		out = append(out, fmt.Sprintf("%d fallbacks, more than %d", s.Fallbacks, *t.MaxFallbacks))
	}
	if s.Errors > 0 {
		out = append(out, fmt.Sprintf("%d scenarios could not run", s.Errors))
	}
	if m := r.Mutation; m != nil && m.Killed < m.Total {
		out = append(out, fmt.Sprintf("mutation score %s: a broken coach passes every scenario", m.Score()))
	}
	if p := r.Paraphrases; p != nil && (p.Passed < p.Total || p.Caught < p.Total) {
		out = append(out, fmt.Sprintf("paraphrases: %d/%d pass, %d/%d wrong facts caught", p.Passed, p.Total, p.Caught, p.Total))
	}
	return out
}

// WriteFile writes the report as indented JSON.
func (r *Report) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadReport reads a report written by WriteFile.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &Report{}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("%s is not an eval report: %w", path, err)
	}
	return r, nil
}
