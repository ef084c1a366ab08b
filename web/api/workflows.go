package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/workflow"
	"hearth/web/httpkit"
)

// workflows are the workflow API: the workflows, their runs, and a run's
// events as a stream.
type workflows struct {
	wf        Workflows
	members   memberCheck
	live      Live // nil: a run's events are refused
	keepAlive time.Duration
}

// list lists the workflows with their schemas and graphs.
func (h workflows) list(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"workflows": h.wf.Workflows()})
}

// workflowStartBody starts a run for a member.
type workflowStartBody struct {
	Member string          `json:"member"`
	Input  json.RawMessage `json:"input"`
}

// start starts a run and answers 201 with it at once (status
// running); GET /api/workflow-runs/:id or its events follow it.
func (h workflows) start(c echo.Context) error {
	wf := h.wf
	if _, err := wf.Workflow(c.Param("id")); err != nil {
		return err
	}
	var b workflowStartBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	b.Member = strings.TrimSpace(b.Member)
	if b.Member == "" {
		return apperr.FieldErrors(map[string]string{"member": "is required"})
	}
	if err := h.members.exists(c.Request().Context(), b.Member); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.FieldErrors(map[string]string{"member": "is not a member of the household"})
		}
		return err
	}
	if len(b.Input) > 0 && b.Input[0] != '{' {
		return apperr.FieldErrors(map[string]string{"input": "must be a JSON object"})
	}
	httpkit.Owner(c, b.Member)
	run, err := wf.Start(c.Request().Context(), workflow.StartRequest{Workflow: c.Param("id"), Member: b.Member,
		Input: b.Input, Trigger: workflow.TriggerAPI})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/workflow-runs/%d", run.ID))
	return c.JSON(http.StatusCreated, run)
}

// runs lists runs, newest first, filtered by workflow, member and status.
func (h workflows) runs(c echo.Context) error {
	f, err := h.filter(c)
	if err != nil {
		return err
	}
	runs, err := h.wf.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if runs == nil {
		runs = []workflow.Run{}
	}
	for i := range runs {
		runs[i].Steps, runs[i].AgentRuns = []workflow.StepRecord{}, []int64{}
	}
	return c.JSON(http.StatusOK, map[string]any{"runs": runs})
}

func (h workflows) filter(c echo.Context) (workflow.Filter, error) {
	f := workflow.Filter{Workflow: c.QueryParam("workflow"), Member: c.QueryParam("member"),
		Status: workflow.Status(c.QueryParam("status")), Limit: 50}
	errs := map[string]string{}
	if f.Status != "" && !f.Status.Valid() {
		errs["status"] = "must be one of running, suspended, success, failed, paused"
	}
	if f.Workflow != "" {
		if _, err := h.wf.Workflow(f.Workflow); err != nil {
			errs["workflow"] = "is not a workflow Hearth knows"
		}
	}
	if f.Member != "" {
		if err := h.members.exists(c.Request().Context(), f.Member); err != nil {
			errs["member"] = "is not a member of the household"
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > httpkit.MaxRunsLimit {
			errs["limit"] = "must be a whole number between 1 and " + strconv.Itoa(httpkit.MaxRunsLimit)
		}
		f.Limit = n
	}
	if len(errs) > 0 {
		return f, apperr.FieldErrors(errs)
	}
	return f, nil
}

// run returns a run with its steps: inputs, outputs, what a
// suspended step asks and the answers it got.
func (h workflows) run(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	run, err := h.wf.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}

// resumeBody answers a suspended step.
type resumeBody struct {
	Step string          `json:"step"`
	Data json.RawMessage `json:"data"`
}

// resume answers a suspended step: 409 when the run is not
// suspended or the step not waiting, 400 when the data does not match the
// step's resume schema.
func (h workflows) resume(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	var b resumeBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	if strings.TrimSpace(b.Step) == "" {
		errs["step"] = "is required (the path of the suspended step)"
	}
	if len(b.Data) == 0 || string(b.Data) == "null" {
		errs["data"] = "is required"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	run, err := h.wf.Resume(c.Request().Context(), id, b.Step, b.Data)
	if err != nil {
		return err
	}
	httpkit.Owner(c, run.Member)
	return c.JSON(http.StatusOK, run)
}

// restart continues a failed or paused run (409 otherwise).
func (h workflows) restart(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	run, err := h.wf.Restart(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}

// pause pauses a running run before its next step, or takes a
// suspended one off the waiting list (409 otherwise).
func (h workflows) pause(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	run, err := h.wf.Pause(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}

// events streams a run's events as Server-Sent Events: first a
// "snapshot" event with the run as GET returns it, then one event per step
// started, finished, failed or suspended and per status change (the event
// name is its type, the data a workflow.Event), and a fresh snapshot
// after each status change. The stream ends after the snapshot of a run
// that succeeded or failed; it stays open while a run runs, waits or is
// paused, with a comment every keep-alive interval.
func (h workflows) events(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	wf := h.wf
	if _, err := wf.Get(ctx, id); err != nil {
		return err
	}
	if h.live == nil {
		return apperr.New(apperr.Internal, "live updates are not configured")
	}
	sub := h.live.Subscribe(live.TopicAdmin)
	defer sub.Close()
	events := httpkit.StartJSONEvents(c)
	send := func(event string, v any) error {
		if err := events.Send(event, v); err != nil {
			return err
		}
		events.Flush()
		return nil
	}
	snapshot := func() (bool, error) {
		r, err := wf.Get(ctx, id)
		if err != nil {
			return true, err
		}
		if err := send("snapshot", r); err != nil {
			return true, err
		}
		return r.Status == workflow.StatusSuccess || r.Status == workflow.StatusFailed, nil
	}
	if end, err := snapshot(); end || err != nil {
		return nil
	}
	tick := time.NewTicker(h.keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			return nil
		case <-tick.C:
			if events.KeepAlive() != nil {
				return nil
			}
		case <-sub.Resync(): // events were dropped: the run as it is now
			if end, err := snapshot(); end || err != nil {
				return nil
			}
		case ev := <-sub.C():
			we, ok := ev.Data.(workflow.Event)
			if ev.Kind != live.KindWorkflow || !ok || we.RunID != id {
				continue
			}
			if send(we.Type, we) != nil {
				return nil
			}
			if we.Type == workflow.EventRunStatus {
				if end, err := snapshot(); end || err != nil {
					return nil
				}
			}
		}
	}
}
