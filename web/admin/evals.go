package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/eval"
	"hearth/internal/live"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// evalPages are Admin → Evals: the coach's eval suite.
type evalPages struct {
	*core
	evals       EvalsAdmin
	definitions DefinitionsAdmin // nil: no version choices
}

// EvalsAdmin runs the coach's eval suite for Admin → Evals (*eval.Service).
type EvalsAdmin interface {
	Runtime() string
	Current() (eval.Progress, bool)
	Start(ctx context.Context, version int, only string) (int64, error)
	List(ctx context.Context, limit int) ([]eval.StoredRun, error)
	Get(ctx context.Context, id int64) (eval.StoredRun, error)
	Previous(ctx context.Context, id int64) (eval.StoredRun, bool, error)
}

// evalAgent is the agent whose definition versions the suite evaluates.
const evalAgent = "health-coach"

// evalStatus is the live part: the running suite's progress and the runs.
func (s *evalPages) evalStatus(ctx context.Context) (adminview.EvalStatus, error) {
	ev := s.evals
	st := adminview.EvalStatus{}
	if p, ok := ev.Current(); ok {
		st.Running, st.RunID, st.Label, st.Done, st.Total, st.Failing, st.Last = true, p.RunID, p.Definition, p.Done, p.Total, p.Failing, p.LastScenario
	}
	runs, err := ev.List(ctx, 20)
	if err != nil {
		return st, err
	}
	for _, r := range runs {
		row := adminview.EvalRunRow{ID: r.ID, Started: s.fmtSlot(r.StartedAt), Definition: r.Definition, Runtime: r.Runtime,
			Status: r.Status, Err: r.Error, Scenarios: r.Scenarios, Filter: r.Filter}
		if sm := r.Summary; sm != nil {
			row.HasSummary, row.Passed, row.Scenarios = true, sm.ScenariosPassed, sm.Scenarios
			row.Designed, row.Pass = pct(sm.DesignedPassRate), pct(sm.PassRate)
			row.Hallucination, row.Fidelity = pct(sm.HallucinationRate), pct(sm.NumericFidelity)
			row.Fallbacks, row.Cost = sm.Fallbacks, fmt.Sprintf("$%.4f", sm.CostUSD)
		}
		st.Runs = append(st.Runs, row)
	}
	return st, nil
}

// evalVersions are the coach's versions the suite can run against: the
// current one first, then drafts, then the others, newest first.
func (s *evalPages) evalVersions(ctx context.Context) ([]adminview.EvalVersionOption, error) {
	defs := s.definitions
	if defs == nil {
		return nil, nil
	}
	hist, err := defs.History(ctx, evalAgent)
	if apperr.Is(err, apperr.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var current, drafts, others []adminview.EvalVersionOption
	seenCurrent := false
	for _, v := range hist { // newest first
		o := adminview.EvalVersionOption{Number: v.Number, Label: "v" + strconv.Itoa(v.Number)}
		switch {
		case v.Active && !seenCurrent:
			seenCurrent = true
			o.Label += " (current)"
			current = append(current, o)
		case v.Draft:
			o.Label += " (draft)"
			drafts = append(drafts, o)
		default:
			if !v.Active {
				o.Label += " (inactive)"
			}
			others = append(others, o)
		}
	}
	return append(append(current, drafts...), others...), nil
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

func (s *evalPages) evalsPage(c echo.Context, notice adminview.Notice) (adminview.AdminEvals, error) {
	ctx := c.Request().Context()
	st, err := s.evalStatus(ctx)
	if err != nil {
		return adminview.AdminEvals{}, err
	}
	versions, err := s.evalVersions(ctx)
	if err != nil {
		return adminview.AdminEvals{}, err
	}
	p := adminview.AdminEvals{AdminPage: s.adminPage(c, "Evals", "evals"), Notice: notice, Status: st, Versions: versions,
		Runtime: s.evals.Runtime()}
	// ?version=N preselects a version (after saving a draft); an unknown
	// one preselects nothing.
	p.Selected, _ = strconv.Atoi(c.QueryParam("version"))
	if scs, err := eval.Scenarios(); err == nil {
		p.Scenarios = len(scs)
	}
	p.Stream = "/admin/live/evals"
	return p, nil
}

func (s *evalPages) adminEvals(c echo.Context) error {
	notice := adminview.Notice{}
	if c.QueryParam("done") == "started" {
		notice.Text = "The suite is running: progress shows below."
	}
	p, err := s.evalsPage(c, notice)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminEvalsPage(p))
}

// adminEvalStart starts a run against the chosen version (one of the
// coach's versions; anything else is refused before it reaches the
// service).
func (s *evalPages) adminEvalStart(c echo.Context) error {
	ctx := c.Request().Context()
	version, err := strconv.Atoi(c.FormValue("version"))
	if err == nil {
		err = apperr.Invalidf("choose one of the coach's definition versions")
		opts, verr := s.evalVersions(ctx)
		if verr != nil {
			return verr
		}
		for _, o := range opts {
			if o.Number == version {
				err = nil
			}
		}
	} else {
		err = apperr.Invalidf("choose one of the coach's definition versions")
	}
	if err == nil {
		_, err = s.evals.Start(ctx, version, strings.TrimSpace(c.FormValue("only")))
	}
	if err != nil {
		notice, status, ok := userError(err)
		if !ok {
			return err
		}
		p, perr := s.evalsPage(c, notice)
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, status, adminview.AdminEvalsPage(p))
	}
	return c.Redirect(http.StatusSeeOther, "/admin/evals?done=started")
}

// adminEvalRun shows a run's report beside the previous finished run.
func (s *evalPages) adminEvalRun(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("no eval run %q", c.Param("id"))
	}
	r, err := s.evals.Get(ctx, id)
	if err != nil {
		return err
	}
	p := adminview.AdminEvalRun{AdminPage: s.adminPage(c, fmt.Sprintf("Eval run %d", id), "evals"), ID: id,
		Definition: r.Definition, Runtime: r.Runtime, Status: r.Status, Started: s.fmtSlot(r.StartedAt), Err: r.Error, Filter: r.Filter}
	if r.Report == nil {
		return httpkit.Render(c, http.StatusOK, adminview.AdminEvalRunPage(p))
	}
	p.HasReport = true
	var prevReport *eval.Report
	prev, ok, err := s.evals.Previous(ctx, id)
	if err != nil {
		return err
	}
	if ok && prev.Report != nil {
		p.PreviousID, prevReport = prev.ID, prev.Report
		p.Previous = fmt.Sprintf("run #%d (%s, %s)", prev.ID, prev.Definition, prev.Runtime)
		cmp := eval.Compare(prev.Report, r.Report)
		for _, ch := range cmp.Regressions {
			p.Regressions = append(p.Regressions, adminview.EvalChange{Scenario: ch.Scenario, Check: ch.Check, From: ch.From, To: ch.To, Detail: ch.Detail})
		}
		for _, ch := range cmp.Improvements {
			p.Improvements = append(p.Improvements, adminview.EvalChange{Scenario: ch.Scenario, Check: ch.Check, From: ch.From, To: ch.To})
		}
	}
	p.Metrics = evalMetrics(r.Report.Summary, prevReport)
	if sm := r.Report.Summary; sm.JudgeScored > 0 {
		p.Judgement = fmt.Sprintf("Judge model %s (separate from the score): tone %.2f/5, helpfulness %.2f/5 over %d plans.",
			r.Report.JudgeModel, sm.JudgeTone, sm.JudgeHelpfulness, sm.JudgeScored)
	}
	for _, sc := range r.Report.Scenarios {
		row := adminview.EvalScenarioRow{ID: sc.ID, Title: sc.Title, Error: sc.Error, Covers: strings.Join(sc.Covers, ", "),
			Met: sc.Count(eval.StatusPass) + sc.Count(eval.StatusGapMet), Applies: len(sc.Checks) - sc.Count(eval.StatusSkip),
			Gaps: sc.Count(eval.StatusGap), Run: sc.Run.Status, Tokens: eval.TokensText(sc.Run.TokensIn, sc.Run.TokensOut)}
		switch {
		case sc.Error != "":
			row.Result = "error"
		case sc.Passed:
			row.Result = "passed"
		default:
			row.Result = "failed"
		}
		if sc.Run.FallbackReason != "" {
			row.Run += " (" + sc.Run.FallbackReason + ")"
		}
		for _, ch := range sc.Checks {
			row.Checks = append(row.Checks, adminview.EvalCheckRow{Name: ch.Name, Status: ch.Status, Detail: ch.Detail, Why: ch.Why, KnownGap: ch.KnownGap})
		}
		row.Briefing = briefingOf(sc.Document)
		p.Scenarios = append(p.Scenarios, row)
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminEvalRunPage(p))
}

// briefingOf is a stored plan's briefing ("" when there is none).
func briefingOf(doc []byte) string {
	if len(doc) == 0 {
		return ""
	}
	var d struct {
		Coach struct {
			Briefing string `json:"briefing"`
		} `json:"coach"`
	}
	_ = json.Unmarshal(doc, &d)
	return d.Coach.Briefing
}

// evalMetrics sets the run's figures beside the previous run's.
func evalMetrics(s eval.Summary, prev *eval.Report) []adminview.EvalMetric {
	var p *eval.Summary
	if prev != nil {
		p = &prev.Summary
	}
	rate := func(name string, this float64, prevOf func(eval.Summary) float64, higherBetter bool) adminview.EvalMetric {
		m := adminview.EvalMetric{Name: name, This: pct(this), Previous: "–"}
		if p != nil {
			before := prevOf(*p)
			m.Previous = pct(before)
			d := (this - before) * 100
			m.Change = fmt.Sprintf("%+.1f pt", d)
			m.Worse = (higherBetter && d < -0.05) || (!higherBetter && d > 0.05)
		}
		return m
	}
	count := func(name string, this int, prevOf func(eval.Summary) int) adminview.EvalMetric {
		m := adminview.EvalMetric{Name: name, This: strconv.Itoa(this), Previous: "–"}
		if p != nil {
			before := prevOf(*p)
			m.Previous, m.Change = strconv.Itoa(before), fmt.Sprintf("%+d", this-before)
			m.Worse = this > before
		}
		return m
	}
	out := []adminview.EvalMetric{
		{Name: "scenarios passed", This: fmt.Sprintf("%d/%d", s.ScenariosPassed, s.Scenarios), Previous: "–"},
		rate("designed pass rate", s.DesignedPassRate, func(x eval.Summary) float64 { return x.DesignedPassRate }, true),
		rate("pass rate (known gaps included)", s.PassRate, func(x eval.Summary) float64 { return x.PassRate }, true),
		rate("hallucination rate", s.HallucinationRate, func(x eval.Summary) float64 { return x.HallucinationRate }, false),
		rate("numeric fidelity", s.NumericFidelity, func(x eval.Summary) float64 { return x.NumericFidelity }, true),
		rate("stale-CTA rate", s.StaleCTARate, func(x eval.Summary) float64 { return x.StaleCTARate }, false),
		count("validation retries", s.Retries, func(x eval.Summary) int { return x.Retries }),
		count("fallbacks", s.Fallbacks, func(x eval.Summary) int { return x.Fallbacks }),
		{Name: "tokens in / out", This: fmt.Sprintf("%d / %d", s.TokensIn, s.TokensOut), Previous: "–"},
		{Name: "cost", This: fmt.Sprintf("$%.4f", s.CostUSD), Previous: "–"},
		{Name: "latency p50 / p95", This: fmt.Sprintf("%.0f / %.0f ms", s.LatencyP50, s.LatencyP95), Previous: "–"},
	}
	if p != nil {
		out[0].Previous = fmt.Sprintf("%d/%d", p.ScenariosPassed, p.Scenarios)
		out[8].Previous = fmt.Sprintf("%d / %d", p.TokensIn, p.TokensOut)
		out[9].Previous = fmt.Sprintf("$%.4f", p.CostUSD)
		out[10].Previous = fmt.Sprintf("%.0f / %.0f ms", p.LatencyP50, p.LatencyP95)
	}
	return out
}

// liveEvals re-renders the status and the runs on eval events.
func (s *evalPages) liveEvals(c echo.Context) error {
	return s.adminStream(c, isKind(live.KindEval), func(ctx context.Context) ([]templ.Component, error) {
		st, err := s.evalStatus(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.EvalStatusView(st)}, nil
	})
}
