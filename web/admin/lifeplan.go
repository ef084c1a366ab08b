package admin

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// LifePlan is the members' life plans as Admin → Household → Life plan
// uses them (*lifeplan.Service): read a plan and its goals' history, move
// a goal, link and unlink fitness goals. Not evidence: only the member
// decides that, on their screen.
type LifePlan interface {
	Plan(ctx context.Context, member string) (lifeplan.Plan, error)
	GoalHistory(ctx context.Context, member string, goalID int64) ([]lifeplan.Transition, error)
	TransitionGoal(ctx context.Context, member string, goalID int64, to lifeplan.GoalState, reason, who string) (lifeplan.Goal, error)
	LinkFitnessGoal(ctx context.Context, member string, goalID, fitnessGoalID int64) (lifeplan.Goal, error)
	UnlinkFitnessGoal(ctx context.Context, member string, fitnessGoalID int64) error
}

// lifePlanPages are a member's life plan in admin (behind the admin's
// login, as every admin page).
type lifePlanPages struct {
	*core
	household HouseholdAdmin
	plans     LifePlan
}

// page is the member's life plan page with what the last action did.
func (s *lifePlanPages) page(c echo.Context, goal int64, note, problem string) (adminview.AdminLifePlan, error) {
	ctx := c.Request().Context()
	m, err := s.household.Member(ctx, c.Param("member"))
	if err != nil {
		return adminview.AdminLifePlan{}, err
	}
	plan, err := s.plans.Plan(ctx, m.ID)
	if err != nil {
		return adminview.AdminLifePlan{}, err
	}
	fitness, err := s.household.Goals(ctx, m.ID, false)
	if err != nil {
		return adminview.AdminLifePlan{}, err
	}
	p := adminview.AdminLifePlan{AdminPage: s.adminPage(c, m.Name+"'s life plan", "household"), ID: m.ID, Name: m.Name,
		View: views.NewPlanView(plan, fitness), History: map[int64][]string{}, GoalID: goal, Note: note, Error: problem}
	for _, g := range fitness {
		p.Fitness = append(p.Fitness, views.Option{Value: strconv.FormatInt(g.ID, 10), Label: views.FitnessGoalName(g)})
	}
	for _, g := range plan.Goals {
		h, err := s.plans.GoalHistory(ctx, m.ID, g.ID)
		if err != nil {
			return p, err
		}
		for _, t := range h {
			at := health.ShortDayText(t.At, time.Now(), s.opt.Location) + " " + t.At.In(s.opt.Location).Format("15:04")
			if t.From == "" {
				p.History[g.ID] = append(p.History[g.ID], fmt.Sprintf("%s: %s (%s, %s)", t.To, t.Reason, t.By, at))
			} else {
				p.History[g.ID] = append(p.History[g.ID], fmt.Sprintf("%s → %s: %s (%s, %s)", t.From, t.To, t.Reason, t.By, at))
			}
		}
	}
	return p, nil
}

func (s *lifePlanPages) adminLifePlan(c echo.Context) error {
	note := ""
	switch c.QueryParam("saved") {
	case "move":
		note = "Moved."
	case "link":
		note = "Linked."
	case "unlink":
		note = "Unlinked."
	}
	p, err := s.page(c, 0, note, "")
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminLifePlanPage(p))
}

// adminLifePlanMove moves a goal as the admin, with a reason (who
// "admin" in its history).
func (s *lifePlanPages) adminLifePlanMove(c echo.Context) error {
	id, err := goalParam(c)
	if err != nil {
		return err
	}
	_, err = s.plans.TransitionGoal(c.Request().Context(), c.Param("member"), id, lifeplan.GoalState(c.FormValue("to")),
		c.FormValue("reason"), "admin")
	return s.done(c, id, "move", err)
}

// adminLifePlanLink links one of the member's fitness goals under a life goal.
func (s *lifePlanPages) adminLifePlanLink(c echo.Context) error {
	id, err := goalParam(c)
	if err != nil {
		return err
	}
	fitness, err := strconv.ParseInt(c.FormValue("fitness_goal"), 10, 64)
	if err != nil || fitness < 1 {
		return s.done(c, id, "link", apperr.FieldErrors(map[string]string{"fitness_goal": "choose one of the member's fitness goals"}))
	}
	_, err = s.plans.LinkFitnessGoal(c.Request().Context(), c.Param("member"), id, fitness)
	return s.done(c, id, "link", err)
}

// adminLifePlanUnlink removes a fitness goal's link.
func (s *lifePlanPages) adminLifePlanUnlink(c echo.Context) error {
	fitness, err := strconv.ParseInt(c.Param("fitness"), 10, 64)
	if err != nil || fitness < 1 {
		return apperr.NotFoundf("no fitness goal %q", c.Param("fitness"))
	}
	return s.done(c, 0, "unlink", s.plans.UnlinkFitnessGoal(c.Request().Context(), c.Param("member"), fitness))
}

// done answers an action: back to the page (303) when it worked; the page
// with the reason at the goal when it was refused (a conflict, a missing
// reason, an unknown fitness goal); other errors to the error handler.
func (s *lifePlanPages) done(c echo.Context, goal int64, what string, err error) error {
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/household/"+c.Param("member")+"/lifeplan?saved="+what)
	}
	ae := apperr.As(err)
	if ae == nil || (ae.Code != apperr.Conflict && ae.Code != apperr.Invalid && !(ae.Code == apperr.NotFound && what != "move")) {
		return err
	}
	p, perr := s.page(c, goal, "", ae.Sentence())
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, httpkit.Status(ae.Code), adminview.AdminLifePlanPage(p))
}

func goalParam(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("goal"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no goal %q", c.Param("goal"))
	}
	return id, nil
}
