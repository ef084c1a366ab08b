package api

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

// documents are the stored daily dashboards and their prompts' answers.
type documents struct {
	household  Household
	dashboards Dashboards
}

// dashboard returns a member's document for a day (YYYY-MM-DD or
// "today"); without one, 404 {"error", "fallback": "live"}: show live data.
func (h documents) dashboard(c echo.Context) error {
	ctx := c.Request().Context()
	if h.dashboards == nil {
		return apperr.NotFoundf("no dashboards")
	}
	member := c.Param("member")
	if _, err := h.household.Member(ctx, member); err != nil {
		return err
	}
	day := c.Param("date")
	if day == "today" {
		day = h.dashboards.Day(time.Now())
	} else if _, err := time.Parse(time.DateOnly, day); err != nil {
		return apperr.FieldErrors(map[string]string{"date": "must be YYYY-MM-DD or today"})
	}
	st, err := h.dashboards.Get(ctx, member, day)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dashboardBody{Document: st.Document, RunID: st.RunID})
}

// catalog is the content catalog.
type catalog struct{ catalog Catalog }

// list lists the catalog; optional filters q, kind, program, limit.
func (h catalog) list(c echo.Context) error {
	if h.catalog == nil {
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
	items, err := h.catalog.List(c.Request().Context(), f)
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

// answer records a tap answer (one of the prompt's options) to a prompt
// of the member's current document.
func (h documents) answer(c echo.Context) error {
	if h.dashboards == nil {
		return apperr.NotFoundf("no prompts")
	}
	var b answerBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Answer == nil {
		return apperr.FieldErrors(map[string]string{"answer": "is required"})
	}
	a, err := h.dashboards.RecordAnswer(c.Request().Context(), c.Param("member"), c.Param("prompt"), *b.Answer, "tap", 0)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, a)
}
