package app

import (
	"context"
	"fmt"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/dashboard"
	"hearth/internal/replan"
	"hearth/web/ratelimit"
)

// The coach listens: an answer on the kiosk or a chat statement that
// changes what today should be (tired, sick, an injury, a goal) re-plans
// the member's day within seconds, through internal/replan.

// replanOrigin marks the runs the re-plan trigger starts (Run.Origin).
const replanOrigin = "replan"

// buildReplan makes the re-plan trigger over the orchestrator. Its runs
// are charged to the kiosk's model-call limits (the same limiter): one
// that would call the model takes a call from the member's budget, and a
// member past it is re-planned by the built-in coach, which costs
// nothing. An eval instance has none: its scenarios say when runs happen.
func (a *App) buildReplan() {
	a.modelCalls = ratelimit.New(a.cfg.KioskModelCalls)
	if a.opts.noReplan {
		return
	}
	a.Replan = replan.New(replan.Options{
		Run: a.replanDay,
		After: func(ctx context.Context, run int64) error {
			_, err := a.Agents.Wait(ctx, run)
			return err
		},
		Charge: func(member string) bool { return !a.Agents.HasModel() || a.modelCalls.TakeMember(member) == nil },
		Logger: a.log,
	})
}

// requestReplan is the coach's and the kiosk's way to the trigger (none
// for an eval instance).
func (a *App) requestReplan(member string, after int64) {
	if a.Replan != nil {
		a.Replan.Request(member, after)
	}
}

// replanDay runs the daily dashboard for member now and waits for it. A
// run already reading the member's records when asked (a scheduled one)
// may have read them before what was said was stored: once it ends,
// another runs.
func (a *App) replanDay(ctx context.Context, member string, builtIn bool) error {
	req := agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Member: member,
		Trigger: agent.TriggerManual, Origin: replanOrigin, BuiltIn: builtIn}
	r, err := a.Agents.Start(ctx, req)
	if err != nil {
		return fmt.Errorf("app: re-plan %s: %w", member, err)
	}
	if r.StartedAt != nil {
		if _, err := a.Agents.Wait(ctx, r.ID); err != nil {
			return err
		}
		if r, err = a.Agents.Start(ctx, req); err != nil {
			return fmt.Errorf("app: re-plan %s: %w", member, err)
		}
	}
	r, err = a.Agents.Wait(ctx, r.ID)
	if err == nil && r.Status == agent.StatusFailed {
		err = fmt.Errorf("app: re-plan %s: run %d failed: %s", member, r.ID, r.Error)
	}
	return err
}

// listener is the kiosk's ear (kiosk.Listener): the coach's reading of
// an answer, and a re-plan when it changes today.
type listener struct {
	coach  *coach.Listener
	replan func(member string, after int64)
}

// HeardAnswer returns the acknowledgement of the answer and asks for a
// re-plan when it changes today's plan.
func (l listener) HeardAnswer(ctx context.Context, member string, ans dashboard.Answer) (string, error) {
	u, err := l.coach.Answer(ctx, member, ans)
	if err != nil {
		return "", err
	}
	if u.Replan {
		l.replan(member, 0)
	}
	return u.Ack, nil
}
