package schedule

import (
	"context"
	"strconv"
)

// EnsureDefault creates, once per database, the default daily-dashboard task
// (Options.DefaultAgent/DefaultAssignment for all members at
// Options.DefaultCron) and the agent's heartbeat (every
// Options.HeartbeatMinutes). A marker row records each creation, so a default
// the admin deleted is not brought back at the next start. Call it before
// Start (or after: it registers what it creates).
func (s *Service) EnsureDefault(ctx context.Context) error {
	defaults := []struct {
		marker string
		in     TaskInput
	}{
		{"default:" + s.opt.DefaultAgent + "/" + s.opt.DefaultAssignment, TaskInput{
			Description: "Prepare each member's dashboard for the day",
			Kind:        KindRecurring, Schedule: s.opt.DefaultCron,
			AgentID: s.opt.DefaultAgent, AssignmentID: s.opt.DefaultAssignment,
		}},
		{"default:" + s.opt.DefaultAgent + "/heartbeat", TaskInput{
			Description: "Work through the coach's to-do list when it is idle",
			Kind:        KindHeartbeat, Schedule: strconv.Itoa(s.opt.HeartbeatMinutes),
			AgentID: s.opt.DefaultAgent,
		}},
	}
	for _, d := range defaults {
		if _, err := s.create(ctx, d.in, ByUser, 0, d.marker); err != nil {
			return err
		}
	}
	return nil
}

// EnsureDefaultTask creates the task once per database under name, like
// EnsureDefault's: a default the admin deleted is not brought back. The app
// uses it for system tasks (the nightly backup).
func (s *Service) EnsureDefaultTask(ctx context.Context, name string, in TaskInput) error {
	_, err := s.create(ctx, in, ByUser, 0, "default:"+name)
	return err
}
