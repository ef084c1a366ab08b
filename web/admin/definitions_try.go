package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

func (h *definitionPages) try(c echo.Context) error {
	agentID := c.Param("agent")
	form, from, err := h.loadForm(c, agentID)
	if err != nil {
		return err
	}
	try := adminview.AdminTry{Form: views.FormState{Values: httpkit.FormValues(c, "member", "message", "extras")}}
	params := definition.Params{Member: strings.TrimSpace(c.FormValue("member")), Message: c.FormValue("message"),
		Trigger: agent.TriggerManual}
	httpkit.Owner(c, params.Member)
	try.Form.Errors = map[string]string{}
	if params.Member == "" {
		try.Form.Errors["member"] = "choose the member to run the agent for"
	}
	if s := strings.TrimSpace(c.FormValue("extras")); s != "" {
		if err := definition.DecodeStrict(s, &params.Extras); err != nil {
			try.Form.Errors["extras"] = "must be a JSON object: " + err.Error()
		}
	}
	status := http.StatusOK
	if len(try.Form.Errors) == 0 {
		try.Form.Errors = nil
		res, err := h.defs.Invoke(c.Request().Context(), agentID, params)
		try.Ran, try.RunID, try.Heuristic = true, res.RunID, res.Heuristic
		if err != nil {
			try.Error = "The agent failed: " + definitionErrText(err)
			// Bad input (unknown member, no model configured) is the caller's
			// to fix; a run that failed on its own is reported with 200.
			switch apperr.CodeOf(err) {
			case apperr.Invalid, apperr.NotFound, apperr.Conflict:
				status = http.StatusBadRequest
			}
		} else {
			try.Composed = definitionJSON(res.Composed)
		}
		for _, st := range res.Steps {
			try.Steps = append(try.Steps, definitionTryStep(st))
		}
	} else {
		status = http.StatusBadRequest
	}
	p := h.editPage(c, agentID, form, try)
	p.From = from
	return httpkit.Render(c, status, adminview.AdminDefinitionEditPage(p))
}

func definitionTryStep(st definition.Step) adminview.AdminTryStep {
	status := "succeeded"
	switch {
	case st.Skipped:
		status = "skipped"
	case st.Error != "":
		status = "failed"
	}
	out := ""
	if st.Output != nil {
		out = definitionJSON(st.Output)
	}
	notes := strings.Join(st.Notes, "\n")
	if st.Error != "" {
		notes = strings.TrimSpace(notes + "\n" + st.Error)
	}
	return adminview.AdminTryStep{AgentID: st.AgentID, Key: st.Key, Status: status, System: st.System, User: st.User,
		Output: out, Notes: notes, Version: st.Version, Depth: st.Depth, Attempts: st.Attempts, MS: st.MS}
}

func definitionErrText(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code != apperr.Internal {
		return ae.Message
	}
	return err.Error()
}

func definitionJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
