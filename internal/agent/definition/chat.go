package definition

import (
	"context"
	"encoding/json"
	"fmt"

	"hearth/internal/agent"
)

// NeedsModelReply is what an agent made in admin answers in a conversation
// when no language model is configured (its runs record FallbackNeedsModel).
const NeedsModelReply = "I'm an agent made in Hearth's admin, and I need a language model to answer: " +
	"none is configured yet (set OPENAI_API_KEY or OPENAI_BASE_URL, then check Admin → Model)."

// Resolve is an agent made in admin as the orchestrator runs it in a
// conversation (agent.Definitions): Converse runs its whole definition on
// the turn's run, as the API and a schedule do (context, templates, the
// tools it lists, rules with their retries, sub-agents, hooks, output
// schema), with the thread's earlier messages as PreviousMessages. The
// chat loop keeps the thread, the chips of its tool calls and the commit.
// An output that is not text is answered as its JSON. Without a model the
// answer is NeedsModelReply (the run records FallbackNeedsModel). Agents
// with code (the coach) are registered and never reach here; an unknown id
// is NotFound.
func (r *Invoker) Resolve(ctx context.Context, id string) (agent.Agent, *agent.Toolbox, error) {
	cur, err := r.repo.current(ctx, id)
	if err != nil {
		return agent.Agent{}, nil, err
	}
	def := cur.Definition
	var box *agent.Toolbox // for the chips' labels
	if all, ok := r.repo.reg.Tools.(*agent.Toolbox); ok {
		if box, err = all.Only(r.repo.reg.AgentTools(def)); err != nil {
			return agent.Agent{}, nil, definitionErr(id, "%v", err)
		}
	}
	return agent.Agent{
		ID:          id,
		Description: fmt.Sprintf("Made in admin (version %d)", cur.Number),
		Model: agent.ModelSettings{Model: def.Model, Temperature: def.Temperature, MaxTokens: def.MaxTokens,
			MaxIterations: def.MaxIterations, ToolModel: def.ToolModel, Budget: def.RunBudget()},
		Converse: func(ctx context.Context, x *agent.Exec, turn agent.ChatTurn) (string, error) {
			return r.converse(ctx, cur, x, turn)
		},
	}, box, nil
}

// converse runs cur, the definition the turn was resolved with (the
// orchestrator resolves afresh for every turn), for one chat turn on x.
func (r *Invoker) converse(ctx context.Context, cur *current, x *agent.Exec, turn agent.ChatTurn) (string, error) {
	hasModel := r.engine.HasModel()
	if !hasModel && !r.opts.answersAlone(cur) {
		x.MarkFellBack(FallbackNeedsModel)
		return NeedsModelReply, nil
	}
	p := Params{Member: x.Member(), Message: turn.Message}
	for _, m := range turn.History {
		p.PreviousMessages = append(p.PreviousMessages, agent.Message{Role: m.Role, Content: m.Content})
	}
	inv, err := r.newInvocation(ctx, p)
	if err != nil {
		return "", err
	}
	inv.observe = turn.Record
	inv.heuristic = !hasModel
	n, err := r.drive(ctx, x, cur, inv, turn.Message)
	if err != nil {
		return "", err
	}
	if s, ok := n.composed.(string); ok {
		return s, nil
	}
	b, err := json.MarshalIndent(n.composed, "", "  ")
	return string(b), err
}
