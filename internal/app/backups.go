package app

import (
	"context"
	"fmt"

	"hearth/internal/backup"
	"hearth/internal/schedule"
)

// Names of Hearth's system jobs (schedule.SystemAgent tasks).
const systemBackup = "backup"

// DefaultBackupCron is when the nightly backup runs (household time):
// before the coach prepares the day at 04:00.
const DefaultBackupCron = "30 3 * * *"

// buildBackups creates the backup service and, once per database, the
// nightly backup task: a system task beside the agents' (editable in the
// schedules page, invisible to the agents' tools).
func (a *App) buildBackups(ctx context.Context) error {
	a.Backups = backup.New(a.DB, backup.Options{DataDir: a.dataDir(), Dir: a.cfg.backupDirectory(), Location: a.cfg.Location,
		Logger: a.log, Publisher: a.Hub})
	err := a.Schedule.EnsureDefaultTask(ctx, schedule.SystemAgent+"/"+systemBackup, schedule.TaskInput{
		Description: "Back up the household's data", Kind: schedule.KindRecurring, Schedule: DefaultBackupCron,
		AgentID: schedule.SystemAgent, AssignmentID: systemBackup,
	})
	if err != nil {
		return fmt.Errorf("app: backup schedule: %w", err)
	}
	return nil
}

// runSystemJob runs one of Hearth's own jobs for the scheduler.
func (a *App) runSystemJob(ctx context.Context, job, trig string) error {
	switch job {
	case systemBackup:
		tr := backup.TriggerManual
		switch trig {
		case schedule.TriggerSchedule:
			tr = backup.TriggerSchedule
		case schedule.TriggerCatchup:
			tr = backup.TriggerCatchup
		}
		_, err := a.Backups.Run(ctx, tr)
		return err
	case systemWeeklyReview:
		return a.startWeeklyReviews(ctx, trig)
	}
	return fmt.Errorf("no system job %q", job)
}

// checkSystemJob is CheckTarget for the system agent.
func checkSystemJob(job string) error {
	if job == systemBackup || job == systemWeeklyReview {
		return nil
	}
	return fmt.Errorf("Hearth has no system job %q (it has: %s, %s)", job, systemBackup, systemWeeklyReview)
}
