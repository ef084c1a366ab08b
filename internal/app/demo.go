package app

import (
	"context"
	"math/rand/v2"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/demo"
	"hearth/internal/schedule"
)

// seedDemo fills an empty database with the demo household. A database that
// already has members is never touched.
func (a *App) seedDemo(ctx context.Context) (bool, error) {
	now := time.Now()
	seeded, err := demo.Seed(ctx, a.DB, now, a.cfg.Location, rand.New(rand.NewPCG(uint64(now.Unix()), 2026)))
	if err != nil {
		return false, err
	}
	if seeded {
		a.log.Info("demo household seeded")
	}
	return seeded, nil
}

// prepareDemoDays writes today's plan for every member of a freshly seeded
// demo household, so the first screen shows all three columns rather than
// "Prepare my day". Each is a normal run of the coach's daily assignment on
// the one engine, triggered by "demo" (which always uses the built-in
// planner). A failure is logged: the kiosk still offers "Prepare my day".
func (a *App) prepareDemoDays(ctx context.Context) {
	runs, err := a.Agents.RunEach(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Trigger: agent.TriggerDemo})
	for _, r := range runs {
		if r.Status != agent.StatusSucceeded {
			a.log.Warn("demo plan not prepared", "member", r.Member, "run", r.ID, "status", r.Status, "error", r.Error)
		}
	}
	if err != nil {
		a.log.Warn("demo plans not prepared", "err", err)
		return
	}
	a.log.Info("demo plans prepared", "members", len(runs))
	a.demoMessage(ctx)
}

// demoReminder is the demo household's scheduled action: a daily message
// for the first member, delivered once at first start so "From your coach"
// shows on day one.
const demoReminder = "Add a short hydration reminder"

func (a *App) demoMessage(ctx context.Context) {
	ms, err := a.DB.ListMembers(ctx)
	if err != nil || len(ms) == 0 {
		return
	}
	member := ms[0].ID
	if _, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: "Hydration reminder for " + ms[0].Name,
		Kind: schedule.KindRecurring, Schedule: "0 15 * * *", AgentID: coach.AgentID, MemberID: member, Prompt: demoReminder},
		schedule.ByUser); err != nil {
		a.log.Warn("demo reminder not scheduled", "err", err)
		return
	}
	// The run sends the reminder itself (send_message, in its commit).
	if _, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Member: member, Message: demoReminder,
		Trigger: agent.TriggerDemo}); err != nil {
		a.log.Warn("demo reminder not sent", "err", err)
	}
}
