package coach

import (
	_ "embed"
	"strings"

	"hearth/internal/agent"
)

//go:embed prompts/persona.md
var personaText string

//go:embed prompts/daily-dashboard.system.md
var dailySystemText string

//go:embed prompts/daily-dashboard.user.md
var dailyUserText string

// Persona is the agent-level system prompt (prompts/persona.md): who the
// coach is and the principles of every run, chat and assignments alike.
// The daily-dashboard instructions follow it, from Tuning.SystemPrompt.
// Its last principle is agent.DataRule: stored text is data.
var Persona = strings.TrimSpace(personaText) + "\n- " + agent.DataRule
