package app

import (
	"context"
	"errors"
	"strconv"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/buildinfo"
	"hearth/internal/copilot"
	"hearth/internal/health"
	"hearth/internal/settings"
)

// ConfigCopilotID is the seeded agent of the admin forms' copilot panel
// (issue 41).
const ConfigCopilotID = copilot.AgentID

// configCopilotPrompt is the copilot's seeded system prompt (Admin → Agents
// edits it).
const configCopilotPrompt = `You are Hearth's configuration copilot: you help the household's admin fill in the admin form they have open. You never save anything: you send commands to the form, the admin checks them and presses Save.
- The user message names the open form, its fields (name [kind: options]) and their current values, then the admin's request.
- Answer with JSON only: {"message": what you did or ask, "commands": [...], "needs_confirmation": false}. Commands: set_field {field, value}, set_fields {fields: [{field, value}]}, clear_field {field}, highlight_field {field}, validate, show_message {text}, request_confirmation {text} (the commands after it wait for the admin's yes), navigate {to: a form id} when the request belongs to another form. Values are text; use only the fields listed, and the options listed for selects.
- Use the config tools to read the current setup (members, integrations, household) and config_validate to check values before you propose them.
- Never ask for, read or set a token, password or key: tell the admin to type it into the token field themselves, and highlight that field.
- Schedules are five-field cron in household time: "every day at 7pm" is 0 19 * * *, "weekdays at 6:30" is 30 6 * * 1-5.
- Never invent what the admin did not say (a birth date from an age, a target they did not give). Keep the message to one or two sentences.`

// configCopilotSeed is the copilot's version 1.
func configCopilotSeed() definition.Definition {
	return definition.Definition{AgentID: ConfigCopilotID, SystemPrompt: configCopilotPrompt,
		Factories: []string{copilot.FactoryName}, OutputSchema: copilot.OutputSchema(),
		MaxIterations: 8, MaxRetries: 1}
}

// configCopilotReply answers as the copilot without a model (copilot.Respond)
// through the definition's tools.
func configCopilotReply(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
	return copilot.Respond(ctx, call, message)
}

// configTools is the config factory over the app.
func (a *App) configTools() *agent.Factory { return copilot.Tools(configSource{a}) }

// configSource is what the config tools read: secrets only as set/unset.
type configSource struct{ a *App }

var _ copilot.Source = configSource{}

func (s configSource) System(ctx context.Context) (copilot.System, error) {
	a := s.a
	out := copilot.System{Version: buildinfo.Read().Version, TimeZone: a.cfg.Location.String(), Demo: a.cfg.Demo,
		OpenAIKey: copilot.StateOf(a.cfg.OpenAIKey), AdminPassword: copilot.StateOf(a.cfg.AdminPassword),
		APIToken: copilot.StateOf(a.cfg.APIToken)}
	if a.Agents != nil && a.Agents.HasModel() {
		out.Model = a.cfg.Model
		if out.Model == "" {
			out.Model = "(the server's default)"
		}
	}
	return out, nil
}

func (s configSource) Household(ctx context.Context) (copilot.Household, error) {
	a := s.a
	hs, err := a.Household.Settings(ctx)
	if err != nil {
		return copilot.Household{}, err
	}
	ms, err := a.Household.Members(ctx)
	if err != nil {
		return copilot.Household{}, err
	}
	out := copilot.Household{TimeZone: a.cfg.Location.String(), NightMode: hs.Night.Mode, NightFrom: hs.Night.From,
		NightTo: hs.Night.To, Members: len(ms)}
	if hs.TimeZone != "" && hs.TimeZone != out.TimeZone {
		out.TimeZonePending = hs.TimeZone
	}
	return out, nil
}

func (s configSource) Users(ctx context.Context) ([]copilot.UserSummary, error) {
	ms, err := s.a.Household.Members(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]copilot.UserSummary, len(ms))
	for i, m := range ms {
		out[i] = copilot.UserSummary{ID: m.ID, Name: m.Name, Role: string(m.Role.OrAdult()), Unit: string(m.Unit)}
	}
	return out, nil
}

func (s configSource) User(ctx context.Context, id string) (copilot.User, error) {
	m, err := s.a.Household.Member(ctx, id)
	if err != nil {
		return copilot.User{}, err
	}
	u := copilot.User{ID: m.ID, Name: m.Name, Avatar: m.Avatar, Color: m.Color, Unit: string(m.Unit), Role: string(m.Role.OrAdult()),
		Sex: m.Sex, ActivityLevel: m.ActivityLevel, HeightCm: m.HeightCm, Calories: m.Targets.Calories,
		ProteinG: m.Targets.ProteinG, CarbsG: m.Targets.CarbsG, FatG: m.Targets.FatG, PrivateFigures: m.PrivateFigures,
		PIN: copilot.SecretUnset}
	if m.HasPIN {
		u.PIN = copilot.SecretSet
	}
	if m.BirthDate != nil {
		u.BirthDate = m.BirthDate.Format("2006-01-02")
	}
	if m.GoalWeightKg != nil {
		g, _ := strconv.ParseFloat(strconv.FormatFloat(m.Unit.FromKg(*m.GoalWeightKg), 'f', 1, 64), 64)
		u.GoalWeight = &g
	}
	return u, nil
}

// Integrations reads both integrations' settings and keeps only where
// each comes from and whether the token is set.
func (s configSource) Integrations(ctx context.Context) ([]copilot.Integration, error) {
	a := s.a
	var out []copilot.Integration
	px, err := a.plexSettings(ctx)
	if err != nil && px.URLFrom == "" {
		return nil, err
	}
	out = append(out, copilot.Integration{Name: "Plex", Form: copilot.FormPlex, URL: px.URL, URLFrom: string(px.URLFrom),
		Token: tokenState(px.TokenState, px.Token), TokenFrom: string(px.TokenFrom), Section: px.Section})
	ha, err := a.homeAssistantSettings(ctx)
	if err != nil && ha.URLFrom == "" {
		return nil, err
	}
	out = append(out, copilot.Integration{Name: "Home Assistant", Form: copilot.FormHomeAssistant, URL: ha.URL,
		URLFrom: string(ha.URLFrom), Token: tokenState(ha.TokenState, ha.Token), TokenFrom: string(ha.TokenFrom)})
	return out, nil
}

// tokenState says set/unset (or unreadable) of a resolved token.
func tokenState(st settings.State, token string) copilot.SecretState {
	if token != "" {
		return copilot.SecretSet
	}
	return copilot.SecretState(st.String())
}

// AskCopilot answers the copilot panel: the config-copilot definition on
// the engine when a model is configured, else its heuristic. A run needs a
// member (agent runs belong to one): the first member stands in, and a
// household with none yet gets the heuristic.
func (a *App) AskCopilot(ctx context.Context, f copilot.Form, values map[string]string, ask string) (copilot.Answer, error) {
	msg := copilot.Prompt(f, values, ask)
	var member string
	if a.Agents.HasModel() && a.Definitions != nil {
		ms, err := a.Household.Members(ctx)
		if err != nil {
			return copilot.Answer{}, err
		}
		if i := firstAdult(ms); i >= 0 {
			member = ms[i].ID
		}
	}
	if member == "" {
		return a.copilotHeuristic(ctx, msg)
	}
	res, err := a.Definitions.Invoke(ctx, ConfigCopilotID, definition.Params{Member: member, Message: msg, Trigger: agent.TriggerManual})
	if err == nil {
		var r copilot.Reply
		if r, err = copilot.Decode(res.Output); err == nil {
			return copilot.Answer{Reply: r, RunID: res.RunID, Heuristic: res.Heuristic}, nil
		}
	}
	if ctx.Err() != nil {
		return copilot.Answer{RunID: res.RunID}, err
	}
	// The model failed (down, over budget, invalid after retries): the
	// heuristic answers, and the panel says why (the run keeps the error).
	a.log.Warn("copilot: the model's run failed; the heuristic answers", "run", res.RunID, "err", err)
	ans, herr := a.copilotHeuristic(ctx, msg)
	ans.RunID, ans.Fallback = res.RunID, definitionErrMessage(err)
	return ans, herr
}

// copilotHeuristic answers without a model, outside the engine.
func (a *App) copilotHeuristic(ctx context.Context, msg string) (copilot.Answer, error) {
	box, err := agent.NewToolbox(a.configTools())
	if err != nil {
		return copilot.Answer{}, err
	}
	out, err := copilot.Respond(ctx, box.Caller(agent.Scope{AgentID: ConfigCopilotID, Now: a.DB.Now()}), msg)
	if err != nil {
		return copilot.Answer{}, err
	}
	r, err := copilot.Decode(out)
	return copilot.Answer{Reply: r, Heuristic: true}, err
}

// definitionErrMessage is an invoke's error for the admin: an apperr's
// message, else the error's text.
func definitionErrMessage(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code != apperr.Internal {
		return ae.Message
	}
	return err.Error()
}

// firstAdult is the index of the first adult member, else of the first
// member (-1: none).
func firstAdult(ms []health.Member) int {
	for i, m := range ms {
		if m.Role.OrAdult() == health.RoleAdult {
			return i
		}
	}
	if len(ms) > 0 {
		return 0
	}
	return -1
}
