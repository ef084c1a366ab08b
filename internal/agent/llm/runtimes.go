package llm

import "hearth/internal/agent"

// DefaultModel is the model used when a server is configured without one.
const DefaultModel = "gpt-4o-mini"

// NewRuntimes picks the orchestrator's runtimes from configuration: the
// OpenAI runtime when an API key or a base URL is set (Model defaults to
// DefaultModel), none otherwise; the heuristic runtime always.
func NewRuntimes(cfg OpenAIConfig) (agent.Runtimes, error) {
	rt := agent.Runtimes{Heuristic: Heuristic{}}
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return rt, nil
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	c, err := NewOpenAI(cfg)
	if err != nil {
		return rt, err
	}
	rt.Model = c
	return rt, nil
}
