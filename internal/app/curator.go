package app

import (
	"context"
	"errors"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/content"
	"hearth/internal/curator"
)

// MediaCuratorID is the seeded agent that curates the Plex workout library.
const MediaCuratorID = "media-curator"

// mediaCuratorPrompt is the media curator's seeded system prompt (Admin →
// Agents edits it).
const mediaCuratorPrompt = `You are Hearth's media curator: you keep the household's Plex workout library in order, with your tools only.
- Start with plex_analyze_library: it counts the items per kind (warm-up, main, cool-down) and duration band, and names the gaps and duplicate candidates.
- Propose collections per program and per kind (plex_create_collection) and labels for duration bands (duration:short under 10 minutes, duration:medium, duration:long) and body areas (area:knee, area:back…) with plex_bulk_label, using item ids the tools returned; never guess one.
- Your writes are proposals: nothing changes in Plex until an admin confirms them in Admin → Curator. Propose only what you can justify from what the tools showed.
- Answer with a short list: what you proposed and why, the duplicates, and the gaps a person would have to fill (you cannot add media).`

// mediaCuratorSeed is the media curator's version 1.
func mediaCuratorSeed() definition.Definition {
	return definition.Definition{AgentID: MediaCuratorID, SystemPrompt: mediaCuratorPrompt,
		Factories: []string{curator.FactoryName}, ContextTypes: []string{definition.ContextDate},
		MaxIterations: 12, MaxRetries: 1}
}

// errNoPlexSection: Plex is reachable but no workout library is chosen.
var errNoPlexSection = errors.New("Plex has no workout library chosen: choose its section in Admin → Integrations (or set PLEX_SECTION)")

// curatorConnect is Plex as the curator reaches it: a client and the
// workout library's section, which the curator cannot do without.
func (a *App) curatorConnect(ctx context.Context) (*content.PlexClient, string, error) {
	px, section, err := a.plexClient(ctx)
	if err == nil && section == "" {
		err = errNoPlexSection
	}
	return px, section, err
}

// mediaCuratorReply answers as the media curator without a model: the
// library's gaps report (curator.Reply), through the definition's tools.
func mediaCuratorReply(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
	return curator.Reply(ctx, call, message), nil
}

// registerCurator registers the appliers that write a confirmed curator
// proposal to Plex.
func (a *App) registerCurator() {
	for kind, apply := range curator.Appliers(a.curatorConnect) {
		a.Proposals.Register(kind, apply)
	}
}
