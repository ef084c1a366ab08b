package app

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/lifeplan"
)

// LifePlanCoachID is the seeded agent that holds values-discovery and
// goal-setting conversations over the member's life plan (issue 40).
const LifePlanCoachID = "lifeplan-coach"

// lifePlanCoachPrompt is the life-plan coach's seeded system prompt
// (Admin → Agents edits it).
const lifePlanCoachPrompt = `You are Hearth's life-plan coach: you help the member discover what matters to them and shape goals that serve it, with your tools only.
- Their life plan has a purpose, ranked values, beliefs held as if/then hypotheses, goals that move dream → considered → ready → committed → achieved (or paused, failed, abandoned), and qualities to cultivate. Read it before you suggest anything.
- Ask one question at a time. Write only what the member said or agreed to: their words, their values, their reasons. Never invent a goal or a belief for them.
- A goal moves only along its next states, with the member's reason. A dream is not achieved; it is considered first.
- Keep it warm and short: two or three sentences.`

// lifePlanCoachSeed is the life-plan coach's version 1.
func lifePlanCoachSeed() definition.Definition {
	return definition.Definition{AgentID: LifePlanCoachID, SystemPrompt: lifePlanCoachPrompt,
		Factories: []string{lifeplan.FactoryName}, ContextTypes: []string{definition.ContextDate},
		MaxIterations: 8, MaxRetries: 1}
}

// lifePlanCoachReply answers as the life-plan coach without a model: the
// guided flow (values, purpose, a goal) through the definition's tools.
func lifePlanCoachReply(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
	return lifeplan.Reply(ctx, call, message), nil
}
