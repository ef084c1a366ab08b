package app

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/homeassistant"
)

// HomeControllerID is the seeded agent that drives Home Assistant.
const HomeControllerID = "home-controller"

// homeControllerPrompt is the home controller's seeded system prompt
// (Admin → Agents edits it).
const homeControllerPrompt = `You are Hearth's home controller: you operate the household's Home Assistant for the person asking, with your tools only.
- Find what they mean with home_list_entities (filter by area or domain); read one with home_get_state; act with home_call_service.
- Use entity ids the tools returned; never guess one. When several match, act on the obvious one or ask which.
- Answer in one or two short sentences: what you did and the state now, or why you could not.
- When a tool says Home Assistant is not configured or refused the call, say so plainly.`

// homeControllerSeed is the home controller's version 1.
func homeControllerSeed() definition.Definition {
	return definition.Definition{AgentID: HomeControllerID, SystemPrompt: homeControllerPrompt,
		Factories: []string{homeassistant.FactoryName}, ContextTypes: []string{definition.ContextDate},
		MaxIterations: 6, MaxRetries: 1}
}

// homeControllerReply answers as the home controller without a model: the
// plain forms homeassistant.Reply understands, through the definition's
// tools.
func homeControllerReply(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
	return homeassistant.Reply(ctx, call, message), nil
}
