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

// factories lists the tool factories definitions may name, with their
// tools and whether what they reach is configured.
func (h agents) factories(c echo.Context) error {
	out := []agent.FactoryInfo{}
	if h.defs != nil {
		for _, f := range h.defs.Registry().Factories() {
			out = append(out, f.Info(c.Request().Context()))
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"factories": out})
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

func (h agents) chatRequest(c echo.Context) (agent.Request, error) {
	if _, err := h.agents.Resolve(c.Request().Context(), c.Param("agent")); err != nil {
		return agent.Request{}, err
	}
	var b chatBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return agent.Request{}, err
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
		return agent.Request{}, apperr.FieldErrors(errs)
	}
	httpkit.Owner(c, strings.TrimSpace(b.Member))
	return agent.Request{Agent: c.Param("agent"), Member: b.Member, Message: b.Message,
		Thread: b.ThreadID, Trigger: agent.TriggerAPI}, nil
}

// run sends a message and answers with the finished run; a code agent's
// reply is in its output and thread_id names the conversation. An agent
// made in admin runs its definition (the run's output is its composed
// result; without a model, a recorded run that says it needs one).
func (h agents) run(c echo.Context) error {
	req, err := h.chatRequest(c)
	if err != nil {
		return err
	}
	run, err := h.agents.Run(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run) // a failed run carries its error
}

// runBackground queues the run and answers 202 at once.
func (h agents) runBackground(c echo.Context) error {
	req, err := h.chatRequest(c)
	if err != nil {
		return err
	}
	run, err := h.agents.Start(c.Request().Context(), req)
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
	req := agent.Request{Agent: agentID, Assignment: assignmentID, Member: b.Member, Trigger: agent.TriggerAPI}
	switch {
	case b.All && b.Wait:
		runs, err = orch.RunEach(ctx, req)
	case b.All:
		runs, err = orch.StartEach(ctx, req)
	default:
		var r agent.Run
		if b.Wait {
			r, err = orch.Run(ctx, req)
		} else {
			r, err = orch.Start(ctx, req)
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
