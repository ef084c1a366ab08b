package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/homeassistant"
	"hearth/internal/plexplay"
	"hearth/internal/talos"
)

// TalosID is the kiosk assistant that acts on the house and the media
// library through the household's policy (issue 39).
const TalosID = "talos"

// talosPrompt is Talos's system prompt.
const talosPrompt = `You are Talos, the household's assistant on a shared wall screen: you operate the house (Home Assistant) and play media (Plex) for the person asking, with your tools only.
- The household's policy decides what this person may do: you are offered only the tools they may use, and a call the policy refuses returns an error naming the rule. Say plainly that the household's settings do not allow it; never try another way round it.
- Find what they mean with home_list_entities (filter by area or domain) and use entity ids the tools returned; never guess one.
- Some actions (locks, the alarm, doors, a thermostat outside its range) wait for an adult to confirm on this screen: the tool returns status waiting_for_confirmation with who may confirm and until when. Nothing has happened yet: say exactly that, in one sentence.
- To play something: plex_list_clients, plex_find_media, then plex_play.
- Answer in one or two short sentences: what you did and the state now, or why you could not.`

// talosLabels are the chips a Talos turn shows.
var talosLabels = map[string]string{
	talos.ToolListEntities: "looked through the house",
	talos.ToolGetState:     "checked a device",
	talos.ToolCallService:  "asked the house",
	talos.ToolListClients:  "looked for a screen to play on",
	talos.ToolFindMedia:    "searched the media library",
	talos.ToolPlay:         "started playing",
}

// registerTalos builds the policy's gate and confirmations (on the
// workflow runtime) and registers Talos with the gated tools of the Home
// Assistant and Plex playback factories.
func (a *App) registerTalos() error {
	a.Policies = talos.NewStore(a.DB, a.DB.Now)
	confirm, err := talos.NewConfirmations(a.Policies, a.Workflows, a.Household, a.homeAssistant, a.DB.Now)
	if err != nil {
		return fmt.Errorf("app: talos confirmations: %w", err)
	}
	a.TalosConfirm = confirm
	gate := talos.NewGate(talos.GateOptions{Store: a.Policies, Household: a.Household, Confirm: confirm,
		Location: a.cfg.Location, Now: a.DB.Now, Pub: a.Hub, Log: a.log})
	a.TalosGate = gate
	tools := gate.Wrap(append(homeassistant.Tools(a.homeAssistant).Tools(), plexplay.Tools(a.plexConnect).Tools()...))
	err = a.Agents.Register(agent.Agent{ID: TalosID,
		Description:  "The wall screen's assistant for the house and the TV, through the household's policy",
		SystemPrompt: talosPrompt,
		Tools:        []agent.ToolFactory{agent.ToolFactoryFunc(func() []agent.Tool { return tools })},
		SurfaceTools: map[agent.Surface][]string{agent.SurfaceKiosk: names(tools)},
		Offer: func(ctx context.Context, scope agent.Scope) ([]string, error) {
			return gate.Offered(ctx, scope.MemberID, names(tools))
		},
		Reply: func(ctx context.Context, _ agent.Scope, turn agent.ChatTurn) (string, error) {
			return talos.Reply(ctx, turn.Call, turn.Message, func(ctx context.Context, call homeassistant.Caller, msg string) (string, bool) {
				return plexplay.Reply(ctx, call, msg)
			}), nil
		},
		ToolLabels: talosLabels,
		Model:      agent.ModelSettings{MaxIterations: 6, MaxRetries: 1},
	})
	if err != nil {
		return fmt.Errorf("app: register talos: %w", err)
	}
	return nil
}

func names(tools []agent.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// talosExpireEvery is how often held actions past their two minutes are
// refused: a confirmation tapped late is refused at the tap anyway.
const talosExpireEvery = 10 * time.Second

// startTalos refuses held actions whose time is up, at start (a restart
// may have left some) and every talosExpireEvery.
func (a *App) startTalos() error {
	return a.Schedule.Every("talos-expire", talosExpireEvery, func(ctx context.Context) {
		if _, err := a.TalosConfirm.Expire(ctx); err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn("talos: expire held actions", "err", err)
		}
	})
}

// heldActions are Talos's held actions as the kiosk shows and answers them.
type heldActions struct{ a *App }

func (h heldActions) Waiting(ctx context.Context, member string) ([]talos.Record, error) {
	if member == "" { // the store reads "" as everyone's
		return nil, nil
	}
	return h.a.Policies.Waiting(ctx, member)
}

func (h heldActions) Adults(ctx context.Context) ([]health.Member, error) {
	return h.a.TalosGate.Adults(ctx)
}

func (h heldActions) Answer(ctx context.Context, id int64, answer, by string) (talos.Record, error) {
	return h.a.TalosConfirm.Answer(ctx, id, answer, by)
}
