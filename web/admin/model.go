package admin

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent/llm"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// modelPages are Admin → Model.
type modelPages struct {
	*core
	model  ModelAdmin
	agents Agents // nil: no cost figures
}

// ModelAdmin is Admin → Model (*llm.ModelAdmin): the configured endpoint,
// what was learned per endpoint with a reset, and the connection check.
type ModelAdmin interface {
	Configured() (llm.Endpoint, bool)
	Endpoints(ctx context.Context) ([]llm.Profile, error)
	Reset(ctx context.Context, baseURL, model string) error
	StartCheck() error
	LastCheck() (rep llm.CheckReport, running, ok bool)
}

var modelNotices = map[string]string{
	"started": "Testing the connection: the results appear below as each step finishes.",
	"reset":   "Forgotten: the next request starts again from the server family's settings.",
}

// modelStatus is the live part of the page.
func (s *modelPages) modelStatus(ctx context.Context) (adminview.ModelStatus, error) {
	m := s.model
	var st adminview.ModelStatus
	ep, ok := m.Configured()
	if ok {
		st = adminview.ModelStatus{Configured: true, BaseURL: ep.BaseURL, Model: ep.Model, Key: "not set", Server: "detected (auto)"}
		if ep.KeySet {
			st.Key = "set"
		}
		if ep.Server != "" {
			st.Server = string(ep.Server) + " (HEARTH_MODEL_SERVER)"
		}
	}
	if rep, running, ok := m.LastCheck(); ok {
		st.Check = s.checkView(rep, running)
	}
	list, err := m.Endpoints(ctx)
	if err != nil {
		return st, err
	}
	for _, p := range list {
		e := adminview.ModelEndpointView{BaseURL: p.BaseURL, Model: p.Model, Family: string(p.Family), Detected: p.Detected,
			Settings: p.Settings(), Updated: s.fmtAge(p.UpdatedAt), Current: ok && p.BaseURL == ep.BaseURL && p.Model == ep.Model}
		if !p.CheckedAt.IsZero() {
			e.Checked = s.fmtAge(p.CheckedAt)
		}
		for i := len(p.Learned) - 1; i >= 0; i-- { // newest first
			l := p.Learned[i]
			e.Lessons = append(e.Lessons, adminview.ModelLesson{When: s.fmtWhen(l.At), What: l.What, Because: l.Because})
		}
		st.Endpoints = append(st.Endpoints, e)
	}
	return st, nil
}

func (s *modelPages) checkView(rep llm.CheckReport, running bool) *adminview.ModelCheckView {
	v := &adminview.ModelCheckView{Started: s.fmtWhen(rep.Started), Running: running, Usable: rep.Usable()}
	for _, st := range rep.Steps {
		took := ""
		if st.State != llm.CheckRunning {
			took = fmtMS(float64(st.MS))
		}
		v.Steps = append(v.Steps, adminview.ModelCheckStep{Name: st.Name, State: st.State, Detail: st.Detail, Took: took})
	}
	if rep.Done {
		v.Settings = rep.Profile.Settings()
	}
	return v
}

func (s *modelPages) modelPage(c echo.Context, notice adminview.Notice) (adminview.AdminModel, error) {
	st, err := s.modelStatus(c.Request().Context())
	if err != nil {
		return adminview.AdminModel{}, err
	}
	p := adminview.AdminModel{AdminPage: s.adminPage(c, "Model server", "model"), Notice: notice, Status: st}
	if p.Usage, err = s.usage(c.Request().Context()); err != nil {
		return p, err
	}
	p.Stream = "/admin/live/model"
	return p, nil
}

// adminModel shows the endpoint, the last check and what was learned.
func (s *modelPages) adminModel(c echo.Context) error {
	p, err := s.modelPage(c, adminview.Notice{Text: modelNotices[c.QueryParam("done")]})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminModelPage(p))
}

// adminModelCheck starts "Test connection"; the page follows it live.
func (s *modelPages) adminModelCheck(c echo.Context) error {
	if err := s.model.StartCheck(); err != nil {
		return s.modelFailure(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/model?done=started")
}

// adminModelReset forgets what was learned about one endpoint.
func (s *modelPages) adminModelReset(c echo.Context) error {
	base, model := strings.TrimSpace(c.FormValue("base_url")), strings.TrimSpace(c.FormValue("model"))
	if base == "" || model == "" {
		return s.modelFailure(c, apperr.Invalidf("incomplete form: reload the page and try again"))
	}
	if err := s.model.Reset(c.Request().Context(), base, model); err != nil {
		return s.modelFailure(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/model?done=reset")
}

// modelFailure renders the page with a user error, or passes the error on.
func (s *modelPages) modelFailure(c echo.Context, err error) error {
	notice, status, ok := userError(err)
	if !ok {
		return err
	}
	p, perr := s.modelPage(c, notice)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, status, adminview.AdminModelPage(p))
}

// liveModel re-renders the status on model events (check progress, resets).
func (s *modelPages) liveModel(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindModel), func(ctx context.Context) ([]templ.Component, error) {
		st, err := s.modelStatus(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.ModelStatusView(csrf, st)}, nil
	})
}
