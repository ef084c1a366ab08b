package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/web/httpkit"
)

// agents are the agents API: the registered agents (code) and the agents
// made in admin (a definition with a current version, no code).
type agents struct {
	agents Agents
	defs   Definitions // nil: no agents made in admin
}

// list lists the registered agents with their assignments, then the
// agents made in admin (declarative definitions without code: no
// assignments; they run through POST /api/agents/:agent/run).
func (h agents) list(c echo.Context) error {
	agents := h.agents.Agents()
	if agents == nil {
		agents = []agent.AgentInfo{}
	}
	made, err := definition.AdminMade(c.Request().Context(), h.agents, h.defs)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"agents": append(agents, made...)})
}

// assignments lists one agent's assignments and their default schedules.
func (h agents) assignments(c echo.Context) error {
	info, err := h.agents.Agent(c.Param("agent"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"assignments": info.Assignments})
}

// chatBody is a freeform message to an agent.
type chatBody struct {
	Member   string `json:"member"`
	Message  string `json:"message"`
	ThreadID int64  `json:"thread_id"`
}

func (h agents) chatRequest(c echo.Context) (agent.FreeformRequest, error) {
	if _, err := h.agents.Agent(c.Param("agent")); err != nil && !definition.IsAdminMade(c.Request().Context(), h.agents, h.defs, c.Param("agent")) {
		return agent.FreeformRequest{}, err
	}
	var b chatBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return agent.FreeformRequest{}, err
	}
	errs := map[string]string{}
	if strings.TrimSpace(b.Member) == "" {
		errs["member"] = "is required"
	}
	if strings.TrimSpace(b.Message) == "" {
		errs["message"] = "is required"
	}
	if b.ThreadID < 0 {
		errs["thread_id"] = "must be a thread id"
	}
	if len(errs) > 0 {
		return agent.FreeformRequest{}, apperr.FieldErrors(errs)
	}
	httpkit.Owner(c, strings.TrimSpace(b.Member))
	return agent.FreeformRequest{Agent: c.Param("agent"), Member: b.Member, Message: b.Message,
		ThreadID: b.ThreadID, Trigger: agent.TriggerAPI}, nil
}

// run sends a chat message and answers with the finished run; the
// reply is in its output and thread_id names the conversation. An agent
// made in admin answers through its definition (definition.Runner.Answer):
// the run's output is its composed result, and without a model it is a
// recorded run that says the agent needs one.
func (h agents) run(c echo.Context) error {
	req, err := h.chatRequest(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if definition.IsAdminMade(ctx, h.agents, h.defs, req.Agent) {
		res, err := h.defs.Answer(ctx, req.Agent, definition.Params{Member: req.Member, Message: req.Message, Trigger: agent.TriggerAPI})
		if res.RunID == 0 {
			return err
		}
		run, gerr := h.agents.Runs().Get(ctx, res.RunID)
		if gerr != nil {
			return gerr
		}
		return c.JSON(http.StatusOK, run) // a failed run carries its error
	}
	run, err := h.agents.Freeform(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}

// runBackground queues the chat run and answers 202 at once.
func (h agents) runBackground(c echo.Context) error {
	req, err := h.chatRequest(c)
	if err != nil {
		return err
	}
	if definition.IsAdminMade(c.Request().Context(), h.agents, h.defs, req.Agent) {
		return apperr.New(apperr.Conflict, "agent %q is made in admin: run it with POST /api/agents/%s/run", req.Agent, req.Agent)
	}
	run, err := h.agents.StartFreeform(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, run)
}

// assignmentRunBody asks for an assignment run for one member or all.
type assignmentRunBody struct {
	Member string `json:"member"`
	All    bool   `json:"all"`
	Wait   bool   `json:"wait"`
}

// assignmentRun starts an assignment for one member or every member. With
// "wait" it answers 200 when the runs have finished, else 202 with the
// queued runs (a run already active for the same member is returned, not
// duplicated).
func (h agents) assignmentRun(c echo.Context) error {
	agentID, assignmentID := c.Param("agent"), c.Param("assignment")
	if info, err := h.agents.Agent(agentID); err != nil {
		return err
	} else if err := info.HasAssignment(assignmentID); err != nil {
		return err
	}
	var b assignmentRunBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	b.Member = strings.TrimSpace(b.Member)
	switch {
	case b.All && b.Member != "":
		return apperr.Invalidf(`give "member" or "all": true, not both`)
	case !b.All && b.Member == "":
		return apperr.FieldErrors(map[string]string{"member": `is required (or "all": true for every member)`})
	}
	httpkit.Owner(c, b.Member) // "" with all: the reply holds every member's runs
	ctx := c.Request().Context()
	orch := h.agents
	var runs []agent.Run
	var err error
	switch {
	case b.All && b.Wait:
		runs, err = orch.RunAssignmentForAll(ctx, agentID, assignmentID, agent.TriggerAPI)
	case b.All:
		runs, err = orch.StartAssignmentForAll(ctx, agentID, assignmentID, agent.TriggerAPI)
	default:
		req := agent.AssignmentRequest{Agent: agentID, Assignment: assignmentID, Member: b.Member, Trigger: agent.TriggerAPI}
		var r agent.Run
		if b.Wait {
			r, err = orch.RunAssignment(ctx, req)
		} else {
			r, err = orch.StartAssignment(ctx, req)
		}
		runs = []agent.Run{r}
	}
	if err != nil {
		return err
	}
	if runs == nil {
		runs = []agent.Run{}
	}
	status := http.StatusAccepted
	if b.Wait {
		status = http.StatusOK
	}
	return c.JSON(status, map[string]any{"runs": runs})
}
