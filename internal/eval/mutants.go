package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"hearth/internal/coach"
)

// Mutation is how well the suite catches a broken coach: each mutant (the
// heuristic coach with one judgement switched off, coach.Mutants) runs the
// scenarios, and is killed when one of them fails with it that passes
// with the coach as it is. A mutant no scenario kills is a judgement the
// suite does not guard, or a check looser than it says.
type Mutation struct {
	Mutants []MutantResult `json:"mutants"`
	Killed  int            `json:"killed"`
	Total   int            `json:"total"`
}

// MutantResult is one mutant's run: the scenarios that killed it and the
// first failing check of each.
type MutantResult struct {
	Mutant   string `json:"mutant"`
	Killed   bool   `json:"killed"`
	KilledBy []Kill `json:"killed_by,omitempty"`
	// Errors are scenarios that could not run with it (never a kill).
	Errors []string `json:"errors,omitempty"`
}

// Kill is a scenario that failed with a mutant, and how.
type Kill struct {
	Scenario string `json:"scenario"`
	Check    string `json:"check"`
	Detail   string `json:"detail,omitempty"`
}

// MutantCover is how a scenario names a mutant it is meant to kill in its
// covers ("mutant:ignore-injuries").
const MutantCover = "mutant:"

// Targets are the scenarios whose covers name the mutant.
func Targets(scs []*Scenario, m coach.Mutant) []*Scenario {
	var out []*Scenario
	for _, sc := range scs {
		if slices.Contains(sc.Covers, MutantCover+string(m)) {
			out = append(out, sc)
		}
	}
	return out
}

// RunMutants runs the scenarios once per mutant (forMutant picks which:
// nil runs all of them) with opts.Factory building each instance with
// that mutant; the factory must build heuristic instances. Scenarios that
// fail in base (the unbroken coach's report, when given) kill nothing.
// progress, when set, is called after each scenario of each mutant.
func RunMutants(ctx context.Context, scs []*Scenario, mutants []coach.Mutant, forMutant func(coach.Mutant) []*Scenario,
	opts Options, base *Report, progress func(m coach.Mutant, done, total int, r ScenarioResult)) (*Mutation, error) {
	failedBefore := map[string]bool{}
	if base != nil {
		for _, sc := range base.Scenarios {
			failedBefore[sc.ID] = !sc.Passed
		}
	}
	out := &Mutation{Total: len(mutants)}
	for _, m := range mutants {
		run := scs
		if forMutant != nil {
			run = forMutant(m)
		}
		o := opts
		factory := opts.Factory
		o.Factory = func(ctx context.Context, spec InstanceSpec) (*Instance, error) {
			spec.Mutant = m
			return factory(ctx, spec)
		}
		o.Judge = nil
		o.Progress = nil
		if progress != nil {
			o.Progress = func(done, total int, r ScenarioResult) { progress(m, done, total, r) }
		}
		res := MutantResult{Mutant: string(m)}
		if len(run) > 0 {
			rep, err := Run(ctx, run, o)
			if err != nil {
				return out, fmt.Errorf("mutant %s: %w", m, err)
			}
			for _, sc := range rep.Scenarios {
				if sc.Error != "" {
					res.Errors = append(res.Errors, sc.ID+": "+sc.Error)
					continue
				}
				if failedBefore[sc.ID] {
					continue
				}
				for _, c := range sc.Checks {
					if c.Status == StatusFail {
						res.KilledBy = append(res.KilledBy, Kill{Scenario: sc.ID, Check: c.Name, Detail: clip(c.Detail, 200)})
						break
					}
				}
			}
		}
		res.Killed = len(res.KilledBy) > 0
		if res.Killed {
			out.Killed++
		}
		out.Mutants = append(out.Mutants, res)
	}
	return out, nil
}

// Score is "k/n killed".
func (m *Mutation) Score() string { return fmt.Sprintf("%d/%d killed", m.Killed, m.Total) }

// Print writes the mutation score and what killed each mutant.
func (m *Mutation) Print(w io.Writer) {
	fmt.Fprintf(w, "mutation score        %s\n", m.Score())
	for _, r := range m.Mutants {
		if !r.Killed {
			fmt.Fprintf(w, "  %-26s SURVIVED%s\n", r.Mutant, errorsNote(r.Errors))
			continue
		}
		var by []string
		for _, k := range r.KilledBy {
			by = append(by, k.Scenario+" ("+clip(k.Check, 50)+")")
		}
		fmt.Fprintf(w, "  %-26s killed by %d: %s%s\n", r.Mutant, len(r.KilledBy), clip(strings.Join(by, ", "), 240), errorsNote(r.Errors))
	}
}

func errorsNote(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d scenarios could not run)", len(errs))
}
