package adminview

import (
	"fmt"
	"strconv"
)

// EvalVersionOption is a definition version the suite can run against.
type EvalVersionOption struct {
	Number int
	Label  string // "v7 (current)", "v8 (draft)"
}

// EvalStatus is the live part of Admin → Evals: the running suite's
// progress and the recent runs.
type EvalStatus struct {
	Running bool
	RunID   int64
	Label   string
	Done    int
	Total   int
	Failing int
	Last    string
	// Runs are the recent runs, newest first.
	Runs []EvalRunRow
}

// Percent is the share of scenarios done.
func (s EvalStatus) Percent() int {
	if s.Total == 0 {
		return 0
	}
	return 100 * s.Done / s.Total
}

// EvalRunRow is one suite run in the list.
type EvalRunRow struct {
	ID                                                int64
	Started, Definition, Runtime, Status, Err, Filter string
	Passed, Scenarios                                 int
	Designed, Pass, Hallucination, Fidelity           string
	Fallbacks                                         int
	Cost                                              string
	HasSummary                                        bool
}

// AdminEvals is Admin → Evals.
type AdminEvals struct {
	AdminPage
	Notice    Notice
	Runtime   string
	Scenarios int
	// Versions are the start form's choices; Selected is preselected.
	Versions []EvalVersionOption
	Selected int
	Status   EvalStatus
}

// EvalMetric is one figure of a run beside the previous run's.
type EvalMetric struct {
	Name, This, Previous, Change string
	// Worse marks a change in the wrong direction.
	Worse bool
}

// EvalChange is a check whose outcome changed since the previous run.
type EvalChange struct {
	Scenario, Check, From, To, Detail string
}

// EvalCheckRow is one check of a scenario.
type EvalCheckRow struct {
	Name, Status, Detail, Why, KnownGap string
}

// EvalScenarioRow is one scenario of a run.
type EvalScenarioRow struct {
	ID, Title, Result, Run, Error string
	Tokens                        string // "3,436/412" in/out, "–" without a model
	Met, Applies, Gaps            int
	Covers                        string
	Checks                        []EvalCheckRow
	Briefing                      string
}

// AdminEvalRun is one suite run's report.
type AdminEvalRun struct {
	AdminPage
	ID                                    int64
	Definition, Runtime, Status, Started  string
	Err, Filter                           string
	HasReport                             bool
	PreviousID                            int64
	Previous                              string // "run 4 (v6, heuristic)"
	Metrics                               []EvalMetric
	Regressions, Improvements             []EvalChange
	Scenarios                             []EvalScenarioRow
	DesignedPassRate, PassRate, Judgement string
}

func evalRunURL(id int64) string { return "/admin/evals/" + strconv.FormatInt(id, 10) }

func evalProgress(s EvalStatus) string {
	return fmt.Sprintf("%d of %d scenarios, %d failing", s.Done, s.Total, s.Failing)
}
