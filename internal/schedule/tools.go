package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// AgentTools returns the coach's scheduling and to-do tools. Every tool acts
// for the run's member (scope.MemberID), never for a member named in the
// arguments. Guardrails: at most Options.MaxAgentTasks live coach-created
// tasks per member, interval ≥ 1 minute, description ≤ 2,000 characters,
// no time in the past for once, tasks expire after Options.AgentTaskTTL
// unless an admin keeps them, and recurring or interval tasks wait in
// pending_approval until an admin approves them. A refused call returns an
// error whose message tells the model why.
func (s *Service) AgentTools() agent.ToolFactory {
	return agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{
			s.scheduleActionTool(), s.listActionsTool(), s.deleteActionTool(), s.stopIntervalTool(),
			s.addTodoTool(), s.listTodosTool(), s.completeTodoTool(),
		}
	})
}

func object(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

var taskIDParam = map[string]any{"type": []string{"integer", "string"}, "description": "The id of the scheduled action."}

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

func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// refusal turns a service error into the message the model sees.
func refusal(action string, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code != apperr.Internal {
		return fmt.Errorf("%s refused: %s", action, ae.Message)
	}
	return fmt.Errorf("%s failed: internal error", action)
}

func needMember(scope agent.Scope, action string) error {
	if scope.MemberID == "" {
		return fmt.Errorf("%s refused: this run is not for one member", action)
	}
	return nil
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
	if t.NextRunAt != nil && t.Status.schedulable() {
		out["next_run_at"] = s.fmtTime(t.NextRunAt)
	}
	if t.StatusReason != "" {
		out["status_reason"] = t.StatusReason
	}
	return out
}

func (s *Service) scheduleActionTool() agent.Tool {
	return agent.Tool{
		Name: "schedule_action",
		Description: "Schedule a follow-up action for this member: you will run the prompt (or the description) at the time. " +
			"type once: schedule is an RFC 3339 time in the future (e.g. 2026-03-01T09:00:00+01:00); " +
			"recurring: a 5-field cron expression in the household's time zone (e.g. \"0 8 * * 1\"); " +
			"interval: whole minutes ≥ 1. Recurring and interval actions wait for an admin's approval.",
		Parameters: object(map[string]any{
			"description": map[string]any{"type": "string", "minLength": 1, "maxLength": MaxDescriptionLen},
			"type":        map[string]any{"type": "string", "enum": []string{"once", "recurring", "interval"}},
			"schedule":    map[string]any{"type": "string", "minLength": 1, "maxLength": MaxScheduleLen},
			"prompt":      map[string]any{"type": "string", "maxLength": MaxPromptLen, "description": "What to do when it fires; defaults to the description."},
		}, "description", "type", "schedule"),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			const action = "schedule_action"
			if err := needMember(scope, action); err != nil {
				return nil, err
			}
			var a struct{ Description, Type, Schedule, Prompt string }
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			switch Kind(a.Type) {
			case KindOnce, KindRecurring, KindInterval:
			default:
				return nil, fmt.Errorf("%s refused: type must be once, recurring or interval, not %q", action, a.Type)
			}
			t, err := s.create(ctx, TaskInput{
				Description: a.Description, Kind: Kind(a.Type), Schedule: a.Schedule, Prompt: a.Prompt,
				AgentID: s.agentOf(scope), MemberID: scope.MemberID,
			}, ByAgent, scope.RunID, "")
			if err != nil {
				return nil, refusal(action, err)
			}
			out := s.taskSummary(t)
			if t.Status == StatusPendingApproval {
				out["note"] = "waits for an admin to approve it before it runs"
			}
			return out, nil
		},
	}
}

func (s *Service) listActionsTool() agent.Tool {
	return agent.Tool{
		Name:        "list_scheduled_actions",
		Description: "List this member's scheduled actions (and the household-wide ones of this agent) that are not completed or expired.",
		Parameters:  object(map[string]any{}),
		Execute: func(ctx context.Context, scope agent.Scope, _ json.RawMessage) (any, error) {
			if err := needMember(scope, "list_scheduled_actions"); err != nil {
				return nil, err
			}
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
		},
	}
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

func (s *Service) deleteActionTool() agent.Tool {
	return agent.Tool{
		Name:        "delete_scheduled_action",
		Description: "Delete a scheduled action you created for this member.",
		Parameters:  object(map[string]any{"task_id": taskIDParam}, "task_id"),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			const action = "delete_scheduled_action"
			var a struct {
				TaskID flexID `json:"task_id"`
			}
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := needMember(scope, action); err != nil {
				return nil, err
			}
			if _, err := s.ownTask(ctx, scope, a.TaskID, action); err != nil {
				return nil, err
			}
			if err := s.Delete(ctx, int64(a.TaskID)); err != nil {
				return nil, refusal(action, err)
			}
			return map[string]any{"deleted": int64(a.TaskID)}, nil
		},
	}
}

func (s *Service) stopIntervalTool() agent.Tool {
	return agent.Tool{
		Name:        "stop_interval_action",
		Description: "Stop (pause) an interval action you created for this member. An admin can resume it.",
		Parameters:  object(map[string]any{"task_id": taskIDParam}, "task_id"),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			const action = "stop_interval_action"
			var a struct {
				TaskID flexID `json:"task_id"`
			}
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := needMember(scope, action); err != nil {
				return nil, err
			}
			t, err := s.ownTask(ctx, scope, a.TaskID, action)
			if err != nil {
				return nil, err
			}
			switch {
			case t.Kind != KindInterval:
				return nil, fmt.Errorf("%s refused: action %d is a %s action, not an interval; use delete_scheduled_action", action, t.ID, t.Kind)
			case t.Status == StatusPendingApproval:
				return nil, fmt.Errorf("%s refused: action %d has not been approved yet; use delete_scheduled_action", action, t.ID)
			}
			t, err = s.Pause(ctx, t.ID, "stopped by the coach")
			if err != nil {
				return nil, refusal(action, err)
			}
			return s.taskSummary(t), nil
		},
	}
}
