package workflow

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// Info describes a workflow for listings: its schemas and its graph.
type Info struct {
	ID          string         `json:"id"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	Agent       string         `json:"agent,omitempty"`
	Input       map[string]any `json:"input_schema,omitempty"`
	Output      map[string]any `json:"output_schema,omitempty"`
	State       map[string]any `json:"state_schema,omitempty"`
	Nodes       []NodeInfo     `json:"nodes"`
}

// NodeInfo is one node of a workflow's graph: a step (with whether it can
// wait for a person), a nested workflow, or a parallel, branch or loop
// group of children.
type NodeInfo struct {
	Kind        string     `json:"kind"`
	ID          string     `json:"id,omitempty"`
	Description string     `json:"description,omitempty"`
	Suspends    bool       `json:"suspends,omitempty"`
	Until       *bool      `json:"until,omitempty"`
	Max         int        `json:"max,omitempty"`
	Children    []NodeInfo `json:"children,omitempty"`
}

// Info describes w.
func (w *Workflow) Info() Info {
	return Info{ID: w.ID, Description: w.Description, Version: w.version, Agent: w.Agent,
		Input: w.Input, Output: w.Output, State: w.State, Nodes: nodesInfo(w.root)}
}

func nodesInfo(ns []node) []NodeInfo {
	out := []NodeInfo{}
	for _, n := range ns {
		kids := make([]NodeInfo, 0, len(n.children))
		for _, c := range n.children {
			kids = append(kids, childInfo(c))
		}
		switch n.kind {
		case kindStep:
			out = append(out, kids[0])
		case kindLoop:
			until := n.until
			out = append(out, NodeInfo{Kind: string(n.kind), Until: &until, Max: n.max, Children: kids})
		default:
			out = append(out, NodeInfo{Kind: string(n.kind), Children: kids})
		}
	}
	return out
}

func childInfo(c Node) NodeInfo {
	switch c := c.(type) {
	case *Step:
		return NodeInfo{Kind: "step", ID: c.ID, Description: c.Description, Suspends: c.Suspend != nil}
	case *Workflow:
		return NodeInfo{Kind: "workflow", ID: c.ID, Description: c.Description, Children: nodesInfo(c.root)}
	}
	return NodeInfo{}
}

// Waiting is one step waiting for a person's answer.
type Waiting struct {
	Run      int64           `json:"run"`
	Workflow string          `json:"workflow"`
	Member   string          `json:"member"`
	Path     string          `json:"path"`
	Payload  json.RawMessage `json:"payload"`
	Since    time.Time       `json:"since"`
}

// Waiting lists the steps of suspended runs waiting for an answer (member
// "" = everyone's), oldest first.
func (rt *Runtime) Waiting(ctx context.Context, member string) ([]Waiting, error) {
	runs, err := rt.runs.list(ctx, Filter{Member: member, Status: StatusSuspended, Limit: 500})
	if err != nil {
		return nil, err
	}
	out := []Waiting{}
	for _, r := range runs {
		steps, err := rt.runs.steps(ctx, rt.db.Read, r.ID)
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			if s.Status == StepSuspended && len(s.Resumed) == 0 {
				since := s.StartedAt
				if s.FinishedAt != nil {
					since = *s.FinishedAt
				}
				out = append(out, Waiting{Run: r.ID, Workflow: r.Workflow, Member: r.Member, Path: s.Path, Payload: s.Suspended, Since: since})
			}
		}
	}
	slices.SortFunc(out, func(a, b Waiting) int { return a.Since.Compare(b.Since) })
	return out, nil
}
