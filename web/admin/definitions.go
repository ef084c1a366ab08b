package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// DefinitionsAdmin is what the agent definition pages need
// (*definition.Service).
type DefinitionsAdmin interface {
	Registry() definition.Registry
	List(ctx context.Context) ([]definition.Summary, error)
	Active(ctx context.Context, agentID string) (definition.Version, error)
	Version(ctx context.Context, agentID string, number int) (definition.Version, error)
	History(ctx context.Context, agentID string) ([]definition.Version, error)
	Save(ctx context.Context, d definition.Definition, by, note string) (definition.Version, error)
	SaveDraft(ctx context.Context, d definition.Definition, by, note string) (definition.Version, error)
	Activate(ctx context.Context, agentID string, number int, by string) (definition.Version, error)
	Discard(ctx context.Context, agentID string, number int, by string) error
	Rollback(ctx context.Context, agentID, by string) (definition.Version, error)
	Invoke(ctx context.Context, agentID string, p definition.Params) (definition.Result, error)
}

var _ DefinitionsAdmin = (*definition.Service)(nil)

// definitionActor is who admin edits are recorded as.
const definitionActor = "admin"

// definitionPages are Admin → Agents: the agent definitions, their
// history and the try panel.
type definitionPages struct {
	*core
	defs      DefinitionsAdmin
	agents    Agents         // nil: the try panel cannot tell whether a model is configured
	household HouseholdAdmin // nil: no members to try with
	evals     EvalsAdmin     // nil: no "evaluate" link
}

func (h *definitionPages) when(t time.Time) string {
	return t.In(h.opt.Location).Format("2006-01-02 15:04")
}

func (h *definitionPages) list(c echo.Context) error {
	list, err := h.defs.List(c.Request().Context())
	if err != nil {
		return err
	}
	p := adminview.AdminDefinitions{AdminPage: h.adminPage(c, "Agents", "definitions")}
	for _, s := range list {
		p.Rows = append(p.Rows, adminview.AdminDefinitionRow{AgentID: s.AgentID, Model: s.Model, UpdatedAt: h.when(s.UpdatedAt),
			UpdatedBy: s.UpdatedBy, Version: s.Version, Versions: s.Versions, Drafts: s.Drafts})
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminDefinitionsPage(p))
}

// editPage builds the edit page around a form state and a try outcome.
func (h *definitionPages) editPage(c echo.Context, agentID string, form views.FormState, try adminview.AdminTry) adminview.AdminDefinitionEdit {
	reg := h.defs.Registry()
	p := adminview.AdminDefinitionEdit{AdminPage: h.adminPage(c, "Agent "+agentID, "definitions"), AgentID: agentID,
		New: agentID == "", Form: form, Tools: reg.ToolIDs(), Contexts: reg.ContextTypes(), Hooks: reg.HookNames(), Try: try,
		Evaluable: h.evaluable(agentID)}
	for _, f := range reg.Factories() {
		inf := f.Info(c.Request().Context())
		p.Factories = append(p.Factories, adminview.AdminFactory{Name: inf.Name, Title: inf.Title, Description: inf.Description,
			Tools: inf.Tools, Configured: inf.Configured, Status: inf.Status})
	}
	if p.New {
		p.Title = "New agent"
	} else if cur, err := h.defs.Active(c.Request().Context(), agentID); err == nil {
		p.Current = cur.Number
	}
	if p.Try.Form.Values == nil {
		p.Try.Form.Values = map[string]string{}
	}
	p.Try.NoModel = h.agents != nil && !h.agents.HasModel()
	if h.household != nil {
		if ms, err := h.household.Members(c.Request().Context()); err == nil {
			for _, m := range ms {
				p.Try.Members = append(p.Try.Members, m.ID)
			}
		}
	}
	return p
}

func (h *definitionPages) newAgent(c echo.Context) error {
	p := h.editPage(c, "", views.FormState{Values: newDefinitionFormValues()}, adminview.AdminTry{})
	return httpkit.Render(c, http.StatusOK, adminview.AdminDefinitionEditPage(p))
}

// loadForm fills the form from ?from=N, else the current version, else (all
// rolled back) the newest version.
func (h *definitionPages) loadForm(c echo.Context, agentID string) (views.FormState, int, error) {
	ctx := c.Request().Context()
	if from := c.QueryParam("from"); from != "" {
		n, err := strconv.Atoi(from)
		if err != nil {
			return views.FormState{}, 0, apperr.NotFoundf("no version %q", from)
		}
		v, err := h.defs.Version(ctx, agentID, n)
		return views.FormState{Values: definitionFormValues(v.Definition)}, n, err
	}
	v, err := h.defs.Active(ctx, agentID)
	if apperr.Is(err, apperr.NotFound) {
		hist, herr := h.defs.History(ctx, agentID)
		if herr != nil {
			return views.FormState{}, 0, herr
		}
		return views.FormState{Values: definitionFormValues(hist[0].Definition)}, hist[0].Number, nil
	}
	return views.FormState{Values: definitionFormValues(v.Definition)}, 0, err
}

func (h *definitionPages) edit(c echo.Context) error {
	agentID := c.Param("agent")
	form, from, err := h.loadForm(c, agentID)
	if err != nil {
		return err
	}
	if n := c.QueryParam("saved"); n != "" {
		form.OK = "Saved as version " + n + "; the agent's next run uses it."
	}
	p := h.editPage(c, agentID, form, adminview.AdminTry{})
	p.From = from
	return httpkit.Render(c, http.StatusOK, adminview.AdminDefinitionEditPage(p))
}

// definitionSubmitted keeps every field as typed.
func definitionSubmitted(c echo.Context) map[string]string {
	out := map[string]string{}
	for _, n := range append(definitionFormFields, "change_note") {
		out[n] = c.FormValue(n)
	}
	return out
}

// saveFailure re-renders the form with the error inline and nothing typed lost.
func (h *definitionPages) saveFailure(c echo.Context, agentID string, values map[string]string, err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || (ae.Code != apperr.Invalid && ae.Code != apperr.Conflict) {
		return err
	}
	form := views.FormState{Values: values, Errors: map[string]string{"_": ae.Message}}
	for k, v := range ae.Fields {
		form.Errors[k] = v
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminDefinitionEditPage(h.editPage(c, agentID, form, adminview.AdminTry{})))
}

func (h *definitionPages) save(c echo.Context) error {
	agentID := c.Param("agent")
	if _, err := h.defs.History(c.Request().Context(), agentID); err != nil {
		return err
	}
	values := definitionSubmitted(c)
	values["agent_id"] = agentID
	d, err := parseDefinitionForm(values)
	draft := c.FormValue("draft") == "1"
	var v definition.Version
	if err == nil {
		note := strings.TrimSpace(values["change_note"])
		if draft {
			v, err = h.defs.SaveDraft(c.Request().Context(), d, definitionActor, note)
		} else {
			v, err = h.defs.Save(c.Request().Context(), d, definitionActor, note)
		}
	}
	if err != nil {
		return h.saveFailure(c, agentID, values, err)
	}
	if draft {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/definitions/%s/history?drafted=%d", url.PathEscape(agentID), v.Number))
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/definitions/%s?saved=%d", agentID, v.Number))
}

// evaluable reports whether Admin → Evals can run agentID's versions.
func (h *definitionPages) evaluable(agentID string) bool {
	return agentID == evalAgent && h.evals != nil
}

func (h *definitionPages) create(c echo.Context) error {
	values := definitionSubmitted(c)
	d, err := parseDefinitionForm(values)
	if err == nil {
		if _, herr := h.defs.History(c.Request().Context(), d.AgentID); herr == nil {
			err = apperr.FieldErrors(map[string]string{"agent_id": "is taken: edit that agent instead"})
		}
	}
	var v definition.Version
	if err == nil {
		v, err = h.defs.Save(c.Request().Context(), d, definitionActor, strings.TrimSpace(values["change_note"]))
	}
	if err != nil {
		return h.saveFailure(c, "", values, err)
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/definitions/%s?saved=%d", d.AgentID, v.Number))
}
