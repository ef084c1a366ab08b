package schedule

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/store"
)

// AgentTools returns the coach's scheduling and to-do tools. Every tool acts
// for the run's member (scope.MemberID), never for a member named in the
// arguments. Guardrails: at most Options.MaxAgentTasks live coach-created
// tasks per member, interval ≥ 1 minute, description ≤ 2,000 characters,
// no time in the past for once, tasks expire after Options.AgentTaskTTL
// unless an admin keeps them, and recurring or interval tasks wait in
// pending_approval until an admin approves them; the loop guardrails of
// guard.go (daily quota, lead time of once tasks, approval for tasks asked
// for by runs of coach-made tasks) apply on top. A refused call returns an
// error whose message tells the model why. The writing tools check their
// call at once and stage the write: it happens in the run's commit, only
// when the model's output is accepted (see agent.Effect).
func (s *Service) AgentTools() *agent.Factory {
	return agent.NewFactory("scheduling", "Scheduling", "Follow-ups the agent schedules for itself and the member's to-dos.",
		s.scheduleActionTool(), s.listActionsTool(), s.deleteActionTool(), s.stopIntervalTool(),
		s.addTodoTool(), s.listTodosTool(), s.completeTodoTool())
}

// flexID accepts 12 and "12" (models send both).
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not an id: %s", string(b))
	}
	*f = flexID(n)
	return nil
}

// JSONSchema implements agent.Schemer.
func (flexID) JSONSchema() map[string]any {
	return map[string]any{"type": []any{"integer", "string"}, "description": "The id."}
}

// stagedNote tells the model when its write happens.
const stagedNote = "staged: done when your output is accepted; a run that falls back does nothing"

// refusal turns a service error into the message the model sees.
func refusal(action string, err error) error {
	if ae := apperr.As(err); ae != nil && ae.Code != apperr.Internal {
		return fmt.Errorf("%s refused: %s", action, ae.Message)
	}
	return fmt.Errorf("%s failed: internal error", action)
}

// memberTool is a tool for the run's member (refused outside one).
func memberTool[A, R any](name, description string, fn func(ctx context.Context, scope agent.Scope, a A) (R, error)) agent.Tool {
	return agent.NewTool(name, description, func(ctx context.Context, scope agent.Scope, a A) (R, error) {
		if scope.MemberID == "" {
			var zero R
			return zero, fmt.Errorf("%s refused: this run is not for one member", name)
		}
		return fn(ctx, scope, a)
	})
}

func (s *Service) agentOf(scope agent.Scope) string {
	if scope.AgentID != "" {
		return scope.AgentID
	}
	return s.opt.DefaultAgent
}

func (s *Service) fmtTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.In(s.loc).Format(time.RFC3339)
}

func (s *Service) taskSummary(t Task) map[string]any {
	out := map[string]any{
		"id": t.ID, "description": clip(t.Description, 200), "type": t.Kind, "schedule": t.Schedule,
		"status": t.Status, "created_by": t.CreatedBy,
	}
	if t.ID == 0 {
		delete(out, "id")
		out["staged"], out["note"] = true, stagedNote
	}
	if t.NextRunAt != nil && t.Status.schedulable() {
		out["next_run_at"] = s.fmtTime(t.NextRunAt)
	}
	if t.StatusReason != "" {
		out["status_reason"] = t.StatusReason
	}
	return out
}

type scheduleArgs struct {
	Description string  `json:"description" schema:"minLength=1"` // the service says the limit
	Type        string  `json:"type" enum:"once|recurring|interval"`
	Schedule    string  `json:"schedule" schema:"minLength=1,maxLength=200"`
	Prompt      *string `json:"prompt" desc:"What to do when it fires; null = the description." schema:"maxLength=4000"`
}

func (s *Service) scheduleActionTool() agent.Tool {
	const action = "schedule_action"
	return memberTool(action,
		"Schedule a follow-up action for this member: you will run the prompt (or the description) at the time. "+
			"type once: schedule is an RFC 3339 time in the future (e.g. 2026-03-01T09:00:00+01:00); "+
			"recurring: a 5-field cron expression in the household's time zone (e.g. \"0 8 * * 1\"); "+
			"interval: whole minutes ≥ 1. Recurring and interval actions wait for an admin's approval. "+
			fmt.Sprintf("A once action must be at least %s ahead; at most %d actions a day per member.",
				fmtDuration(s.opt.MinOnceLead), s.opt.DailyAgentTasks),
		func(ctx context.Context, scope agent.Scope, a scheduleArgs) (map[string]any, error) {
			in := TaskInput{Description: a.Description, Kind: Kind(a.Type), Schedule: a.Schedule,
				AgentID: s.agentOf(scope), MemberID: scope.MemberID}
			if a.Prompt != nil {
				in.Prompt = *a.Prompt
			}
			t, err := s.prepare(ctx, in, ByAgent, scope.RunID, true)
			var reqID int64
			if err == nil {
				t, reqID, err = s.guardAgentTask(ctx, t, scope.RunID, scope.Origin)
			}
			if err != nil {
				return nil, refusal(action, s.refuseRequest(ctx, in, scope.RunID, err))
			}
			if err := scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				// The limits again, in the commit's transaction: what other
				// runs committed since this call counts.
				err := s.checkDailyAtCommit(ctx, tx, t.MemberID, reqID)
				if err == nil {
					_, err = s.insertTx(ctx, tx, &t, "")
				}
				if ae := apperr.As(err); ae != nil && ae.Code != apperr.Internal {
					return &agent.Refusal{Err: err, Record: refusedAtCommit(reqID, err)}
				}
				if err != nil {
					return err
				}
				return settleRequest(ctx, tx, reqID, t)
			}); err != nil {
				return nil, err
			}
			out := s.taskSummary(t)
			if t.Status == StatusPendingApproval {
				out["note"] = stagedNote + "; then it waits for an admin to approve it before it runs"
				if t.StatusReason != "" {
					out["note"] = out["note"].(string) + " (" + t.StatusReason + ")"
				}
			}
			return out, nil
		})
}

func (s *Service) listActionsTool() agent.Tool {
	return memberTool("list_scheduled_actions",
		"List this member's scheduled actions (and the household-wide ones of this agent) that are not completed or expired.",
		func(ctx context.Context, scope agent.Scope, _ struct{}) (map[string]any, error) {
			tasks, err := s.List(ctx, TaskFilter{AgentID: s.agentOf(scope), Live: true})
			if err != nil {
				return nil, refusal("list_scheduled_actions", err)
			}
			out := []map[string]any{}
			for _, t := range tasks {
				if t.Kind == KindHeartbeat || t.System() || (t.MemberID != "" && t.MemberID != scope.MemberID) {
					continue
				}
				out = append(out, s.taskSummary(t))
			}
			return map[string]any{"actions": out}, nil
		})
}

// ownTask loads a task the coach created for the scope's member; any other
// task looks like it does not exist.
func (s *Service) ownTask(ctx context.Context, scope agent.Scope, id flexID, action string) (Task, error) {
	t, err := s.Get(ctx, int64(id))
	if err == nil && (t.System() || t.CreatedBy != ByAgent || t.MemberID != scope.MemberID || t.AgentID != s.agentOf(scope)) {
		err = apperr.NotFoundf("no action %d that you created for this member (only those can be changed)", id)
	}
	if apperr.Is(err, apperr.NotFound) {
		return t, fmt.Errorf("%s refused: no action %d that you created for this member (only those can be changed)", action, id)
	}
	if err != nil {
		return t, refusal(action, err)
	}
	return t, nil
}

type taskArgs struct {
	TaskID flexID `json:"task_id"`
}

func (s *Service) deleteActionTool() agent.Tool {
	const action = "delete_scheduled_action"
	return memberTool(action, "Delete a scheduled action you created for this member (when your output is accepted).",
		func(ctx context.Context, scope agent.Scope, a taskArgs) (map[string]any, error) {
			if _, err := s.ownTask(ctx, scope, a.TaskID, action); err != nil {
				return nil, err
			}
			id := int64(a.TaskID)
			err := scope.Stage(func(ctx context.Context, tx *store.Tx) error { return s.deleteTx(ctx, tx, id) })
			return map[string]any{"deleted": id, "staged": true, "note": stagedNote}, err
		})
}

func (s *Service) stopIntervalTool() agent.Tool {
	const action = "stop_interval_action"
	return memberTool(action, "Stop (pause) an interval action you created for this member. An admin can resume it.",
		func(ctx context.Context, scope agent.Scope, a taskArgs) (map[string]any, error) {
			t, err := s.ownTask(ctx, scope, a.TaskID, action)
			if err != nil {
				return nil, err
			}
			switch {
			case t.Kind != KindInterval:
				return nil, fmt.Errorf("%s refused: action %d is a %s action, not an interval; use delete_scheduled_action", action, t.ID, t.Kind)
			case t.Status == StatusPendingApproval:
				return nil, fmt.Errorf("%s refused: action %d has not been approved yet; use delete_scheduled_action", action, t.ID)
			case !t.Status.schedulable() && t.Status != StatusPaused:
				return nil, fmt.Errorf("%s refused: action %d is %s", action, t.ID, t.Status)
			}
			err = scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				_, err := s.mutateTx(ctx, tx, t.ID, "updated", func(_ *store.Tx, t *Task, now time.Time) error {
					return pause(t, "stopped by the coach", now)
				})
				return err
			})
			out := s.taskSummary(t)
			out["staged"], out["note"] = true, stagedNote
			return out, err
		})
}
