package app

import (
	"context"
	"errors"
	"fmt"

	"hearth/internal/coach"
	"hearth/internal/schedule"
	"hearth/internal/workflow"
)

// systemWeeklyReview is the system job that starts the coach's weekly
// review for every member.
const systemWeeklyReview = coach.WeeklyReviewID

// buildWorkflows creates the workflow runtime over the agent engine,
// registers the coach's workflows (the daily dashboard step by step, the
// weekly review), routes the daily-dashboard assignment through its
// workflow and, once per database, the weekly review's schedule.
// Runs a crash left running continue when the server starts (Serve).
func (a *App) buildWorkflows(ctx context.Context, deps coach.Deps) error {
	a.Workflows = workflow.NewRuntime(a.DB, workflow.Options{Engine: a.Agents, Publisher: a.Hub, Logger: a.log})
	phases, err := a.Agents.Phases(coach.AgentID, coach.DailyDashboardID)
	if err != nil {
		return err
	}
	daily, err := coach.DailyDashboardWorkflow(phases)
	if err != nil {
		return fmt.Errorf("app: daily-dashboard workflow: %w", err)
	}
	weekly, err := coach.WeeklyReviewWorkflow(deps)
	if err != nil {
		return fmt.Errorf("app: weekly-review workflow: %w", err)
	}
	for _, w := range []*workflow.Workflow{daily, weekly} {
		if err := a.Workflows.Register(w); err != nil {
			return err
		}
	}
	// Every path that starts the daily dashboard (the schedule, Prepare my
	// day, the demo, the evals, the agents API) runs it as the workflow, so
	// a crash resumes it from its last completed step wherever it started.
	if err := a.Agents.SetDurable(coach.AgentID, coach.DailyDashboardID, a.Workflows); err != nil {
		return fmt.Errorf("app: daily-dashboard workflow route: %w", err)
	}
	err = a.Schedule.EnsureDefaultTask(ctx, schedule.SystemAgent+"/"+systemWeeklyReview, schedule.TaskInput{
		Description: "The coach's weekly review with each member (a question on their dashboard)",
		Kind:        schedule.KindRecurring, Schedule: coach.WeeklyReviewSchedule,
		AgentID: schedule.SystemAgent, AssignmentID: systemWeeklyReview,
	})
	if err != nil {
		return fmt.Errorf("app: weekly review schedule: %w", err)
	}
	return nil
}

// startWeeklyReviews starts the weekly review for every member and waits
// until each is waiting for its member's answer (or ended).
func (a *App) startWeeklyReviews(ctx context.Context, trig string) error {
	members, err := memberIDs{a.DB}.MemberIDs(ctx)
	if err != nil {
		return err
	}
	t := workflow.TriggerSchedule
	if trig == schedule.TriggerManual {
		t = workflow.TriggerManual
	}
	var errs []error
	for _, m := range members {
		r, err := a.Workflows.Start(ctx, workflow.StartRequest{Workflow: coach.WeeklyReviewID, Member: m, Trigger: t})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m, err))
			continue
		}
		if r, err = a.Workflows.Wait(ctx, r.ID); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m, err))
		} else if r.Status == workflow.StatusFailed {
			errs = append(errs, fmt.Errorf("%s: weekly review run %d failed: %s", m, r.ID, r.Error))
		}
	}
	return errors.Join(errs...)
}
