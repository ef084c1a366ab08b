package kiosk

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"hearth/web/httpkit"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/workflow"
	"hearth/views"
	"hearth/views/kioskview"
)

// maxPrompts is how many prompts the coach column shows at most, shared
// by workflow questions and the document's own prompts.
const maxPrompts = dashboard.MaxPrompts

// workflowQuestions adds the questions suspended workflow runs ask the
// member, in the coach's one prompt priority (Deps.PromptAhead): the
// document's prompts that outrank them (a reading to confirm, an injury
// follow-up) stay first, then the workflow questions (a run waits on each),
// then the document's other prompts fill the rest of the limit; an
// answered prompt stays among them until the limit is reached.
func (s *dashboardModels) workflowQuestions(ctx context.Context, a *kioskview.CoachArea) error {
	if s.deps.Workflows == nil {
		return nil
	}
	waiting, err := s.deps.Workflows.Waiting(ctx, a.MemberID)
	if err != nil {
		return err
	}
	if ahead := s.deps.PromptAhead; ahead != nil {
		for a.Ahead < len(a.Prompts) && ahead(a.Prompts[a.Ahead].ID) {
			a.Ahead++
		}
	}
	for _, w := range waiting {
		q, ok := workflow.QuestionOf(w.Payload)
		if !ok || a.Ahead+len(a.Questions) >= maxPrompts {
			continue
		}
		a.Questions = append(a.Questions, kioskview.WorkflowPrompt{Run: w.Run, Step: w.Path, Question: q.Question,
			Context: contextLines(q.Context), Options: q.Options})
	}
	if room := maxPrompts - len(a.Questions); len(a.Prompts) > room {
		a.Prompts = a.Prompts[:max(room, a.Ahead)]
	}
	return nil
}

// maxContextLines is how many lines of a question's summary the kiosk
// shows: read at a glance, the question below it.
const maxContextLines = 3

// contextLines splits a question's summary into its lines (empty ones
// dropped, three at most).
func contextLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < maxContextLines {
			out = append(out, l)
		}
	}
	return out
}

// workflowAnswers resume suspended workflow runs with a member's answer.
type workflowAnswers struct {
	household Household
	workflows Workflows
}

// kioskWorkflowAnswer resumes a suspended run with the tapped option (form
// fields step and option, the option's index). The question is looked up
// again among the member's waiting ones, so only a run of this member that
// still waits on that step can be resumed, and only with an offered value.
func (h *workflowAnswers) kioskWorkflowAnswer(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	if _, err := h.household.Member(ctx, member); err != nil {
		return err
	}
	wf := h.workflows
	if wf == nil {
		return apperr.NotFoundf("no workflows here")
	}
	run, err := strconv.ParseInt(c.Param("run"), 10, 64)
	if err != nil || run < 1 {
		return apperr.NotFoundf("question not found")
	}
	step := c.FormValue("step")
	waiting, err := wf.Waiting(ctx, member)
	if err != nil {
		return err
	}
	var q workflow.Question
	found := false
	for _, w := range waiting {
		if w.Run == run && w.Path == step {
			q, found = workflow.QuestionOf(w.Payload)
		}
	}
	if !found {
		// Answered meanwhile (another screen, the admin), or not a question
		// of this member's.
		if r, err := wf.Get(ctx, run); err == nil && r.Member == member {
			return apperr.New(apperr.Conflict, "this question was already answered")
		}
		return apperr.NotFoundf("question not found")
	}
	i, err := strconv.Atoi(c.FormValue("option"))
	if err != nil || i < 0 || i >= len(q.Options) {
		return apperr.FieldErrors(map[string]string{"option": "is not one of the answers"})
	}
	if _, err := wf.Resume(ctx, run, step, q.Answer(i)); err != nil && !apperr.Is(err, apperr.Conflict) {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	// The tap is acknowledged at once; the stream patches the coach
	// column (the question goes, what it changed may follow as a message).
	return httpkit.NewSSE(c).PatchElementTempl(views.Flash(q.Ack(i), false))
}
