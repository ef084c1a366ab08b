package definition

import (
	"context"
	"fmt"

	"hearth/internal/agent"
)

// CodeAgents finds an agent registered in code (*agent.Orchestrator).
type CodeAgents interface {
	Agent(id string) (agent.AgentInfo, error)
}

// Definitions lists the stored definitions and reads a current version
// (*Service).
type Definitions interface {
	List(ctx context.Context) ([]Summary, error)
	Active(ctx context.Context, agentID string) (Version, error)
}

// AdminMade describes the agents that exist only as a definition with a
// current version (made in Admin → Agents), as the agent list describes
// the code agents. defs nil: none.
func AdminMade(ctx context.Context, code CodeAgents, defs Definitions) ([]agent.AgentInfo, error) {
	if defs == nil {
		return nil, nil
	}
	list, err := defs.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []agent.AgentInfo
	for _, sum := range list {
		if _, err := code.Agent(sum.AgentID); err == nil || sum.Version == 0 {
			continue // a code agent's definition, or every version rolled back
		}
		v, err := defs.Active(ctx, sum.AgentID)
		if err != nil {
			return nil, err
		}
		tools := v.ToolIDs
		if r, ok := defs.(interface{ Registry() Registry }); ok {
			tools = r.Registry().AgentTools(v.Definition) // a listed factory's tools too
		}
		out = append(out, agent.AgentInfo{ID: sum.AgentID, Description: fmt.Sprintf("Made in admin (definition v%d)", v.Number),
			Assignments: []agent.AssignmentInfo{}, Tools: tools, Model: v.Model})
	}
	return out, nil
}
