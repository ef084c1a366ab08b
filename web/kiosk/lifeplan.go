package kiosk

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/lifeplan"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// LifePlan is the members' life plans as the kiosk's Life plan page uses
// them (*lifeplan.Service): read one, move a goal, and the member's own
// tap on a suggested evidence note.
type LifePlan interface {
	Plan(ctx context.Context, member string) (lifeplan.Plan, error)
	TransitionGoal(ctx context.Context, member string, goalID int64, to lifeplan.GoalState, reason, who string) (lifeplan.Goal, error)
	DecideEvidence(ctx context.Context, member string, evidenceID int64, accept bool) (lifeplan.Evidence, error)
}

// planAgent is who "Talk it through" talks to (app.LifePlanCoachID).
const planAgent = "lifeplan-coach"

// maxMoveTaps caps the move chips under the message field: a plan of many
// goals still offers a screenful.
const maxMoveTaps = 24

// planPages serve a member's Life plan page and its taps. Every route is
// behind the personal guard (lock.go): only a screen the member unlocked
// reaches them, so the member here is the one at the screen.
type planPages struct {
	household Household
	plans     LifePlan
	agents    Agents // "Talk it through" needs the life-plan coach
	opt       Options
}

// body is the member's plan as the page shows it.
func (h *planPages) body(ctx context.Context, member, csrf string) (kioskview.PlanBody, error) {
	p, err := h.plans.Plan(ctx, member)
	if err != nil {
		return kioskview.PlanBody{}, err
	}
	fitness, err := h.household.Goals(ctx, member, false)
	if err != nil {
		return kioskview.PlanBody{}, err
	}
	return kioskview.PlanBody{MemberID: member, CSRF: csrf, View: views.NewPlanView(p, fitness)}, nil
}

func (h *planPages) pagePlan(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := h.household.Member(ctx, c.Param("member"))
	if err != nil {
		return err
	}
	body, err := h.body(ctx, m.ID, httpkit.CSRFToken(c))
	if err != nil {
		return err
	}
	p := kioskview.PlanPage{Page: kioskPage(c, h.opt, m.Name+"'s life plan", "", m.ID, true), MemberID: m.ID, Name: m.Name,
		Color: m.Color, Chat: definedAgent(ctx, h.agents, planAgent), Body: body}
	return httpkit.Render(c, http.StatusOK, kioskview.PlanPageView(p))
}

// kioskPlanGoal moves one of the member's goals with their reason (who
// "member", kept in its history); a move its state does not allow shows
// the reason at the goal.
func (h *planPages) kioskPlanGoal(c echo.Context) error {
	member := c.Param("member")
	id, err := strconv.ParseInt(c.Param("goal"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("no goal %q", c.Param("goal"))
	}
	g, err := h.plans.TransitionGoal(c.Request().Context(), member, id, lifeplan.GoalState(c.FormValue("to")), c.FormValue("reason"), "member")
	note := ""
	if err == nil {
		note = fmt.Sprintf("Moved to %s.", g.State)
	}
	return h.answer(c, member, kioskview.PlanBody{GoalID: id, Note: note}, err)
}

// kioskPlanEvidence is the member's tap on a suggested evidence note:
// accept (it counts as evidence) or dismiss (it is not suggested again).
func (h *planPages) kioskPlanEvidence(c echo.Context) error {
	member := c.Param("member")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("no evidence note %q", c.Param("id"))
	}
	var accept bool
	switch c.FormValue("decision") {
	case "accept":
		accept = true
	case "dismiss":
	default:
		return apperr.FieldErrors(map[string]string{"decision": "must be accept or dismiss"})
	}
	_, err = h.plans.DecideEvidence(c.Request().Context(), member, id, accept)
	note := "Dismissed: it won't be suggested again."
	if accept {
		note = "Accepted: it counts as evidence now."
	}
	if err != nil {
		note = ""
	}
	return h.answer(c, member, kioskview.PlanBody{EvidenceID: id, Note: note}, err)
}

// answer shows the plan again with what became of a tap (b's note) or
// why it was refused (a conflict or a missing field, from err); other
// errors, and every error of a plain form post, go to the error handler.
func (h *planPages) answer(c echo.Context, member string, b kioskview.PlanBody, err error) error {
	if err != nil {
		ae := apperr.As(err)
		if ae == nil || (ae.Code != apperr.Conflict && ae.Code != apperr.Invalid) || !httpkit.IsDatastar(c) {
			return err
		}
		b.Error = refusal(ae)
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member+"/plan")
	}
	body, rerr := h.body(c.Request().Context(), member, httpkit.CSRFToken(c))
	if rerr != nil {
		return rerr
	}
	body.GoalID, body.EvidenceID, body.Note, body.Error = b.GoalID, b.EvidenceID, b.Note, b.Error
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.PlanBodyView(body))
}

// refusal words a refused tap for the member.
func refusal(ae *apperr.Error) string {
	switch {
	case ae.Fields["reason"] != "":
		return "Say why: the reason " + ae.Fields["reason"] + "."
	}
	return ae.Sentence()
}

// taps fill the life-plan sheet's tap prompts from the plan's state (no
// values yet: the suggested ones; no purpose: "My purpose is "; then "My
// goal is " and each goal's next moves), never from a model's text.
func (h *planPages) taps(ctx context.Context, cs *kioskview.ChatSheet) error {
	p, err := h.plans.Plan(ctx, cs.MemberID)
	if err != nil {
		return err
	}
	t, typed := &kioskview.PlanTaps{}, ""
	switch {
	case len(p.Values) == 0:
		t.Values = lifeplan.SuggestedValues
	case p.Purpose.Statement == "":
		typed = "My purpose is "
	default:
		typed = "My goal is "
		for _, g := range p.Goals {
			for _, to := range g.Next {
				if len(t.Moves) < maxMoveTaps {
					label := lifeplan.MovePrompt(g.Name, to)
					t.Moves = append(t.Moves, kioskview.TapMove{Label: label, Text: label + " because "})
				}
			}
		}
	}
	cs.Taps = t
	if cs.Typed == "" {
		cs.Typed = typed
	}
	return nil
}

// tappedValues is the message "Keep these" sends: the values picked, in
// the order offered ("Family, Health, Adventure"); "" when none.
func tappedValues(c echo.Context) string {
	if err := c.Request().ParseForm(); err != nil {
		return ""
	}
	var picked []string
	for _, v := range c.Request().PostForm["pick"] {
		if v = strings.TrimSpace(v); v != "" && len(picked) < lifeplan.MaxValues {
			picked = append(picked, v)
		}
	}
	return strings.Join(picked, ", ")
}
