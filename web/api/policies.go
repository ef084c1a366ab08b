package api

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/talos"
	"hearth/web/httpkit"
)

// Policies are the kiosk assistant's policy and its decisions
// (*talos.Store).
type Policies interface {
	Policy(ctx context.Context) (talos.Policy, error)
	SavePolicy(ctx context.Context, p talos.Policy, tools []string, by string) error
	Decisions(ctx context.Context, f talos.Filter) ([]talos.Record, error)
}

// policies are /api/policies/talos: the Talos policy, read and replaced,
// and its decision log.
type policies struct{ p Policies }

// policyBy is who saved a policy through the API (Hearth has one admin).
const policyBy = "admin (api)"

func policyAnswer(p talos.Policy) map[string]any {
	return map[string]any{"policy": p, "tools": talos.ToolNames}
}

// get is the policy in force and the tools a policy may name.
func (h policies) get(c echo.Context) error {
	p, err := h.p.Policy(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, policyAnswer(p))
}

// put replaces the policy. A body that is not a policy is a 400; a policy
// that names an unknown tool or domain, or a bad time or range, is a 422
// naming each field.
func (h policies) put(c echo.Context) error {
	var raw json.RawMessage // size, content type and trailing data as every body (BindJSON)
	if err := httpkit.BindJSON(c, &raw); err != nil {
		return err
	}
	p, err := talos.Parse(raw)
	if err == nil {
		err = h.p.SavePolicy(c.Request().Context(), p, talos.ToolNames, policyBy)
	}
	if ae := apperr.As(err); ae != nil && ae.Code == apperr.Invalid && len(ae.Fields) > 0 {
		return c.JSON(http.StatusUnprocessableEntity, httpkit.ErrorBody{Error: "the policy is not valid: nothing was saved",
			Code: string(apperr.Invalid), Fields: ae.Fields})
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, policyAnswer(p))
}

// decisions lists recorded decisions, newest first; member, role,
// outcome and tool narrow the list, limit caps it (1 to 1000, 100).
func (h policies) decisions(c echo.Context) error {
	f := talos.Filter{Member: c.QueryParam("member"), Role: health.Role(c.QueryParam("role")),
		Outcome: talos.Outcome(c.QueryParam("outcome")), Tool: c.QueryParam("tool"), Limit: 100}
	errs := map[string]string{}
	if f.Role != "" && !f.Role.Valid() {
		errs["role"] = "must be adult, child or guest"
	}
	if f.Outcome != "" && !slices.Contains([]talos.Outcome{talos.Allowed, talos.Denied, talos.Waiting, talos.Confirmed,
		talos.Refused, talos.TimedOut}, f.Outcome) {
		errs["outcome"] = "must be allowed, denied, waiting, confirmed, refused or timed_out"
	}
	if f.Tool != "" && !slices.Contains(talos.ToolNames, f.Tool) {
		errs["tool"] = "is not one of Talos's tools"
	}
	if s := c.QueryParam("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			errs["limit"] = "must be a whole number between 1 and 1000"
		}
		f.Limit = n
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	rs, err := h.p.Decisions(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if rs == nil {
		rs = []talos.Record{}
	}
	return c.JSON(http.StatusOK, map[string]any{"decisions": rs})
}
