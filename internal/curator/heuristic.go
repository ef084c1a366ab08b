package curator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"hearth/internal/agent"
)

// NeedsModel says what the heuristic cannot do.
const NeedsModel = "Proposing collections or labels needs a language model: set one up in Admin → Agents, then ask the media curator again."

// Reply is the media curator's answer without a model: whatever was asked,
// it runs plex_analyze_library through call (so the call is recorded on
// the run) and writes the gaps report.
func Reply(ctx context.Context, call agent.ToolCaller, _ string) string {
	res, err := call(ctx, ToolAnalyzeLibrary, json.RawMessage(`{}`))
	if err != nil {
		if errors.Is(err, ErrNotConfigured) {
			return err.Error() + "."
		}
		return "I couldn't analyse the Plex workout library: " + err.Error()
	}
	var a Analysis
	raw, err := json.Marshal(res)
	if err == nil {
		err = json.Unmarshal(raw, &a)
	}
	if err != nil {
		return "I couldn't read the library analysis: " + err.Error()
	}
	return Report(a) + "\n\n" + NeedsModel
}

// Report writes an analysis as text.
func Report(a Analysis) string {
	var b strings.Builder
	from := "Hearth's catalog"
	if a.Source == "plex" {
		from = "Plex (the catalog holds no Plex items yet)"
	}
	fmt.Fprintf(&b, "Workout library: %s, read from %s.", count(a.Items, "item"), from)
	if len(a.Kinds) > 0 {
		b.WriteString("\nBy kind (under 10 min / 10–29 min / 30 min or more):")
		for _, k := range a.Kinds {
			fmt.Fprintf(&b, "\n- %s: %d (%d / %d / %d)", k.Kind, k.Count, k.Short, k.Medium, k.Long)
		}
	}
	if len(a.Gaps) == 0 {
		b.WriteString("\nNo gaps found.")
	} else {
		b.WriteString("\nGaps:")
		for _, g := range a.Gaps {
			b.WriteString("\n- " + g)
		}
	}
	if len(a.Duplicates) > 0 {
		b.WriteString("\nPossible duplicates (same title and duration):")
		for _, d := range a.Duplicates {
			fmt.Fprintf(&b, "\n- “%s” (%d min): ids %s", d.Title, d.DurationMin, strings.Join(d.IDs, ", "))
		}
	}
	return b.String()
}
