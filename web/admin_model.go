package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent/llm"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/views"
	"hearth/web/httpkit"
)

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

func (s *Server) modelRoutes(g *echo.Group) {
	g.GET("/model", s.adminModel)
	g.POST("/model/check", s.adminModelCheck)
	g.POST("/model/reset", s.adminModelReset)
	g.GET("/live/model", s.liveModel)
}

// modelStatus is the live part of the page.
func (s *Server) modelStatus(ctx context.Context) (views.ModelStatus, error) {
	m := s.deps.Admin.Model
	var st views.ModelStatus
	ep, ok := m.Configured()
	if ok {
		st = views.ModelStatus{Configured: true, BaseURL: ep.BaseURL, Model: ep.Model, Key: "not set", Server: "detected (auto)"}
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
		e := views.ModelEndpointView{BaseURL: p.BaseURL, Model: p.Model, Family: string(p.Family), Detected: p.Detected,
			Settings: p.Settings(), Updated: s.fmtAge(p.UpdatedAt), Current: ok && p.BaseURL == ep.BaseURL && p.Model == ep.Model}
		if !p.CheckedAt.IsZero() {
			e.Checked = s.fmtAge(p.CheckedAt)
		}
		for i := len(p.Learned) - 1; i >= 0; i-- { // newest first
			l := p.Learned[i]
			e.Lessons = append(e.Lessons, views.ModelLesson{When: s.fmtWhen(l.At), What: l.What, Because: l.Because})
		}
		st.Endpoints = append(st.Endpoints, e)
	}
	return st, nil
}

func (s *Server) checkView(rep llm.CheckReport, running bool) *views.ModelCheckView {
	v := &views.ModelCheckView{Started: s.fmtWhen(rep.Started), Running: running, Usable: rep.Usable()}
	for _, st := range rep.Steps {
		took := ""
		if st.State != llm.CheckRunning {
			took = fmtMS(float64(st.MS))
		}
		v.Steps = append(v.Steps, views.ModelCheckStep{Name: st.Name, State: st.State, Detail: st.Detail, Took: took})
	}
	if rep.Done {
		v.Settings = rep.Profile.Settings()
	}
	return v
}

func (s *Server) modelPage(c echo.Context, notice views.Notice) (views.AdminModel, error) {
	st, err := s.modelStatus(c.Request().Context())
	if err != nil {
		return views.AdminModel{}, err
	}
	p := views.AdminModel{AdminPage: s.adminPage(c, "Model server", "model"), Notice: notice, Status: st}
	p.Stream = "/admin/live/model"
	return p, nil
}

// adminModel shows the endpoint, the last check and what was learned.
func (s *Server) adminModel(c echo.Context) error {
	p, err := s.modelPage(c, views.Notice{Text: modelNotices[c.QueryParam("done")]})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, views.AdminModelPage(p))
}

// adminModelCheck starts "Test connection"; the page follows it live.
func (s *Server) adminModelCheck(c echo.Context) error {
	if err := s.deps.Admin.Model.StartCheck(); err != nil {
		return s.modelFailure(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/model?done=started")
}

// adminModelReset forgets what was learned about one endpoint.
func (s *Server) adminModelReset(c echo.Context) error {
	base, model := strings.TrimSpace(c.FormValue("base_url")), strings.TrimSpace(c.FormValue("model"))
	if base == "" || model == "" {
		return s.modelFailure(c, apperr.Invalidf("incomplete form: reload the page and try again"))
	}
	if err := s.deps.Admin.Model.Reset(c.Request().Context(), base, model); err != nil {
		return s.modelFailure(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/admin/model?done=reset")
}

// modelFailure renders the page with a user error, or passes the error on.
func (s *Server) modelFailure(c echo.Context, err error) error {
	notice, status, ok := userError(err)
	if !ok {
		return err
	}
	p, perr := s.modelPage(c, notice)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, status, views.AdminModelPage(p))
}

// liveModel re-renders the status on model events (check progress, resets).
func (s *Server) liveModel(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindModel), func(ctx context.Context) ([]templ.Component, error) {
		st, err := s.modelStatus(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{views.ModelStatusView(csrf, st)}, nil
	})
}
