package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/web/httpkit"
)

// dashboardBody is the stored document exactly (generated_at, curated,
// coach) plus the run that wrote it.
type dashboardBody struct {
	dashboard.Document
	RunID int64 `json:"run_id"`
}

// apiDashboard returns a member's document for a day (YYYY-MM-DD or
// "today"); without one, 404 {"error", "fallback": "live"}: show live data.
func (s *Server) apiDashboard(c echo.Context) error {
	ctx := c.Request().Context()
	if s.deps.Dashboards == nil {
		return apperr.NotFoundf("no dashboards")
	}
	member := c.Param("member")
	if _, err := s.deps.Household.Member(ctx, member); err != nil {
		return err
	}
	day := c.Param("date")
	if day == "today" {
		day = s.deps.Dashboards.Day(time.Now())
	} else if _, err := time.Parse(time.DateOnly, day); err != nil {
		return apperr.FieldErrors(map[string]string{"date": "must be YYYY-MM-DD or today"})
	}
	st, err := s.deps.Dashboards.Get(ctx, member, day)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dashboardBody{Document: st.Document, RunID: st.RunID})
}

// apiCatalog lists the catalog; optional filters q, kind, program, limit.
func (s *Server) apiCatalog(c echo.Context) error {
	if s.deps.Catalog == nil {
		return c.JSON(http.StatusOK, map[string]any{"items": []content.Item{}})
	}
	f := content.Filter{Query: c.QueryParam("q"), Kind: c.QueryParam("kind"), Program: c.QueryParam("program")}
	if l := c.QueryParam("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > content.MaxLimit {
			return apperr.FieldErrors(map[string]string{"limit": "must be a whole number between 1 and " + strconv.Itoa(content.MaxLimit)})
		}
		f.Limit = n
	} else {
		f.Limit = content.MaxLimit
	}
	items, err := s.deps.Catalog.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if items == nil {
		items = []content.Item{}
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

type answerBody struct {
	Answer *string `json:"answer"`
}

// apiAnswer records a tap answer (one of the prompt's options) to a prompt
// of the member's current document.
func (s *Server) apiAnswer(c echo.Context) error {
	if s.deps.Dashboards == nil {
		return apperr.NotFoundf("no prompts")
	}
	var b answerBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Answer == nil {
		return apperr.FieldErrors(map[string]string{"answer": "is required"})
	}
	a, err := s.deps.Dashboards.RecordAnswer(c.Request().Context(), c.Param("member"), c.Param("prompt"), *b.Answer, "tap", 0)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, a)
}
