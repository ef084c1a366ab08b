package admin

import (
	"fmt"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/tokens"
	"hearth/views/adminview"
)

// promptViews are a run's counted prompts, one row a request, and their sum.
func promptViews(ps []agent.PromptTokens) ([]adminview.PromptTokensView, adminview.PromptTokensView) {
	row := func(label string, p agent.PromptTokens) adminview.PromptTokensView {
		return adminview.PromptTokensView{Label: label, System: p.System, Tools: p.Tools, ToolCount: p.ToolCount,
			Schema: p.Schema, Facts: p.Facts, Memory: p.Memory, History: p.History, Total: p.Total()}
	}
	out := make([]adminview.PromptTokensView, 0, len(ps))
	for i, p := range ps {
		out = append(out, row(fmt.Sprintf("Request %d", i+1), p))
	}
	return out, row("All requests ("+tokens.Encoding+")", agent.SumPromptTokens(ps))
}
