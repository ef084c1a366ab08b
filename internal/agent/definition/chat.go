package definition

import (
	"context"
	"fmt"
	"slices"

	"hearth/internal/agent"
)

// NeedsModelReply is what an agent made in admin answers in a conversation
// when no language model is configured (its runs record FallbackNeedsModel).
const NeedsModelReply = "I'm an agent made in Hearth's admin, and I need a language model to answer: " +
	"none is configured yet (set OPENAI_API_KEY or OPENAI_BASE_URL, then check Admin → Model)."

// ChatAgent is an agent made in admin as a conversation runs it, for the
// orchestrator's chat loop (agent.Resolver): the answer streams, tool calls
// show as chips and are stored in the thread, working memory and recall
// work as for the coach. The definition gives the system prompt (its
// placeholders expanded for the member, its context sections added), the
// model settings and the tools the model may call. Its rules, sub-agents,
// hooks and output schema shape its runs (the API, a schedule, "Try it"),
// not conversation turns, whose answer is free text. Without a model the
// answer is NeedsModelReply. Agents with code (the coach) are registered
// and never reach here; an unknown id is NotFound.
func (r *Runner) ChatAgent(ctx context.Context, id string) (agent.Agent, *agent.Toolbox, error) {
	cur, err := r.repo.current(ctx, id)
	if err != nil {
		return agent.Agent{}, nil, err
	}
	def := cur.Definition
	var box *agent.Toolbox
	if len(def.ToolIDs) > 0 {
		all, ok := r.repo.reg.Tools.(*agent.Toolbox)
		if !ok {
			return agent.Agent{}, nil, definitionErr(id, "its tools cannot be offered in a conversation")
		}
		if box, err = all.Only(def.ToolIDs); err != nil {
			return agent.Agent{}, nil, definitionErr(id, "%v", err)
		}
	}
	// The chat loop adds the agent's working memory itself.
	def.ContextTypes = slices.DeleteFunc(slices.Clone(def.ContextTypes), func(c string) bool { return c == ContextWorkingMemory })
	return agent.Agent{
		ID:           id,
		Description:  fmt.Sprintf("Made in admin (version %d)", cur.Number),
		SystemPrompt: def.SystemPrompt,
		Model: agent.ModelSettings{Model: def.Model, Temperature: def.Temperature, MaxTokens: def.MaxTokens,
			MaxIterations: def.MaxIterations},
		Instructions: func(ctx context.Context, member string) (string, error) {
			return r.chatInstructions(ctx, &def, member)
		},
		Reply: func(context.Context, agent.Scope, agent.ChatTurn) (string, error) { return NeedsModelReply, nil },
	}, box, nil
}

// chatInstructions renders def's system prompt for member with its context
// sections, as an invoke would.
func (r *Runner) chatInstructions(ctx context.Context, def *Definition, member string) (string, error) {
	inv, err := r.newInvocation(ctx, Params{Member: member})
	if err != nil {
		return "", err
	}
	sections, err := inv.contexts(ctx, def, nil)
	if err != nil {
		return "", err
	}
	return inv.system(def, sections, inv.vars(def, call{}, sections, nil))
}
