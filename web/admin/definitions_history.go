package admin

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

func (h *definitionPages) history(c echo.Context) error {
	p, err := h.historyPage(c, c.Param("agent"))
	if err != nil {
		return err
	}
	if n := c.QueryParam("rolledback"); n != "" {
		p.OK = "Rolled back: v" + n + " is current again."
	}
	if n := c.QueryParam("drafted"); n != "" {
		p.OK = "Saved as draft v" + n + ": nothing runs it until you activate it."
		if p.Evaluable {
			p.OK += " Evaluate it first with Evaluate below."
		}
	}
	if n := c.QueryParam("activated"); n != "" {
		p.OK = "Activated: v" + n + " is current; the agent's next run uses it."
	}
	if n := c.QueryParam("discarded"); n != "" {
		p.OK = "Draft v" + n + " discarded."
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminDefinitionHistoryPage(p))
}

func (h *definitionPages) historyPage(c echo.Context, agentID string) (adminview.AdminDefinitionHistory, error) {
	hist, err := h.defs.History(c.Request().Context(), agentID)
	if err != nil {
		return adminview.AdminDefinitionHistory{}, err
	}
	p := adminview.AdminDefinitionHistory{AdminPage: h.adminPage(c, "History of "+agentID, "definitions"), AgentID: agentID,
		Evaluable: h.evaluable(agentID)}
	current, active := 0, 0
	byNumber := map[int]definition.Version{}
	for _, v := range hist { // newest first
		byNumber[v.Number] = v
		if v.Active {
			active++
			if current == 0 {
				current = v.Number
			}
		}
	}
	p.CanRollback = active >= 2
	for _, v := range hist {
		row := adminview.AdminVersionRow{Number: v.Number, Active: v.Active, Current: v.Number == current, Draft: v.Draft, Discarded: v.Discarded,
			CreatedAt: h.when(v.CreatedAt), CreatedBy: v.CreatedBy, Note: v.ChangeNote, Model: v.Model}
		if v.DeactivatedAt != nil {
			row.Deactivated = h.when(*v.DeactivatedAt) + " by " + v.DeactivatedBy
		}
		if v.ActivatedAt != nil && v.ActivatedAt.After(v.CreatedAt) { // an activated draft
			row.Activated = h.when(*v.ActivatedAt) + " by " + v.ActivatedBy
		}
		p.Versions = append(p.Versions, row)
	}
	if len(hist) < 2 {
		return p, nil
	}
	p.B = current
	if p.B == 0 {
		p.B = hist[0].Number
	}
	p.A = p.B - 1
	if p.A < 1 {
		p.A = p.B + 1
	}
	for _, q := range []struct {
		name string
		dst  *int
	}{{"a", &p.A}, {"b", &p.B}} {
		if n, err := strconv.Atoi(c.QueryParam(q.name)); err == nil {
			if _, ok := byNumber[n]; ok {
				*q.dst = n
			}
		}
	}
	for _, l := range definition.DiffVersions(byNumber[p.A], byNumber[p.B]) {
		op := "same"
		switch l.Op {
		case definition.DiffAdd:
			op = "add"
		case definition.DiffDel:
			op = "del"
		}
		p.Diff = append(p.Diff, adminview.AdminDiffLine{Op: op, Text: l.Text})
	}
	return p, nil
}

// draftAction activates or discards a draft (act returns the version to
// name in the notice).
func (h *definitionPages) draftAction(c echo.Context, act func(ctx context.Context, agentID string, n int) (int, error), done string) error {
	agentID := c.Param("agent")
	n, err := strconv.Atoi(c.Param("version"))
	if err != nil {
		return apperr.NotFoundf("no version %q", c.Param("version"))
	}
	shown, err := act(c.Request().Context(), agentID, n)
	return h.afterAction(c, agentID, err, done, shown)
}

// afterAction ends an action of the history page: a refusal (Conflict,
// Invalid) shown on the page with 409, other errors as errors, success as
// a redirect to the history with done=version for its notice.
func (h *definitionPages) afterAction(c echo.Context, agentID string, err error, done string, version int) error {
	if apperr.Is(err, apperr.Conflict) || apperr.Is(err, apperr.Invalid) {
		p, perr := h.historyPage(c, agentID)
		if perr != nil {
			return perr
		}
		p.Error = definitionErrText(err)
		return httpkit.Render(c, http.StatusConflict, adminview.AdminDefinitionHistoryPage(p))
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/definitions/%s/history?%s=%d", url.PathEscape(agentID), done, version))
}

func (h *definitionPages) activate(c echo.Context) error {
	return h.draftAction(c, func(ctx context.Context, agentID string, n int) (int, error) {
		v, err := h.defs.Activate(ctx, agentID, n, definitionActor)
		return v.Number, err
	}, "activated")
}

func (h *definitionPages) discard(c echo.Context) error {
	return h.draftAction(c, func(ctx context.Context, agentID string, n int) (int, error) {
		return n, h.defs.Discard(ctx, agentID, n, definitionActor)
	}, "discarded")
}

func (h *definitionPages) rollback(c echo.Context) error {
	agentID := c.Param("agent")
	v, err := h.defs.Rollback(c.Request().Context(), agentID, definitionActor)
	return h.afterAction(c, agentID, err, "rolledback", v.Number)
}

// definitionErrText is an error's user-facing text: an apperr's message, else the
// error itself (admin pages show run failures as the run records them).
