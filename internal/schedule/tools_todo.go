package schedule

import (
	"context"
	"encoding/json"
	"fmt"

	"hearth/internal/agent"
)

func todoSummary(t Todo) map[string]any {
	out := map[string]any{"id": t.ID, "text": clip(t.Text, 300), "status": t.Status}
	if t.Note != "" {
		out["note"] = t.Note
	}
	return out
}

func (s *Service) addTodoTool() agent.Tool {
	return agent.Tool{
		Name:        "add_todo",
		Description: "Add an item to your to-do list for this member; the heartbeat works on it when you are idle.",
		Parameters:  object(map[string]any{"text": map[string]any{"type": "string", "minLength": 1, "maxLength": MaxTodoLen}}, "text"),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			var a struct{ Text string }
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := needMember(scope, "add_todo"); err != nil {
				return nil, err
			}
			t, err := s.todos.Add(ctx, TodoInput{AgentID: s.agentOf(scope), MemberID: scope.MemberID, Text: a.Text, CreatedBy: ByAgent})
			if err != nil {
				return nil, refusal("add_todo", err)
			}
			return todoSummary(t), nil
		},
	}
}

func (s *Service) listTodosTool() agent.Tool {
	return agent.Tool{
		Name:        "list_todos",
		Description: "List your to-do items for this member (open ones unless status is given).",
		Parameters: object(map[string]any{
			"status": map[string]any{"type": "string", "enum": []string{"pending", "in_progress", "done"}},
		}),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			var a struct{ Status string }
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := needMember(scope, "list_todos"); err != nil {
				return nil, err
			}
			f := TodoFilter{AgentID: s.agentOf(scope), MemberID: scope.MemberID, Status: TodoStatus(a.Status), Open: a.Status == ""}
			items, err := s.todos.List(ctx, f)
			if err != nil {
				return nil, refusal("list_todos", err)
			}
			out := []map[string]any{}
			for _, t := range items {
				out = append(out, todoSummary(t))
			}
			return map[string]any{"todos": out}, nil
		},
	}
}

func (s *Service) completeTodoTool() agent.Tool {
	return agent.Tool{
		Name:        "complete_todo",
		Description: "Mark one of your to-do items for this member as done.",
		Parameters: object(map[string]any{
			"todo_id": map[string]any{"type": []string{"integer", "string"}},
			"note":    map[string]any{"type": "string", "maxLength": todoNoteMaxChars},
		}, "todo_id"),
		Execute: func(ctx context.Context, scope agent.Scope, raw json.RawMessage) (any, error) {
			var a struct {
				TodoID flexID `json:"todo_id"`
				Note   string `json:"note"`
			}
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := needMember(scope, "complete_todo"); err != nil {
				return nil, err
			}
			items, err := s.todos.List(ctx, TodoFilter{AgentID: s.agentOf(scope), MemberID: scope.MemberID})
			if err != nil {
				return nil, refusal("complete_todo", err)
			}
			found := false
			for _, t := range items {
				found = found || t.ID == int64(a.TodoID)
			}
			if !found {
				return nil, fmt.Errorf("complete_todo refused: no to-do %d on your list for this member", a.TodoID)
			}
			t, err := s.todos.Complete(ctx, int64(a.TodoID), scope.MemberID, a.Note)
			if err != nil {
				return nil, refusal("complete_todo", err)
			}
			return todoSummary(t), nil
		},
	}
}
