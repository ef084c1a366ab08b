package schedule

import (
	"context"
	"fmt"
	"slices"

	"hearth/internal/agent"
	"hearth/internal/store"
)

func todoSummary(t Todo) map[string]any {
	out := map[string]any{"id": t.ID, "text": clip(t.Text, 300), "status": t.Status}
	if t.Note != "" {
		out["note"] = t.Note
	}
	return out
}

type addTodoArgs struct {
	Text string `json:"text" schema:"minLength=1,maxLength=2000"`
}

func (s *Service) addTodoTool() agent.Tool {
	const action = "add_todo"
	return memberTool(action, "Add an item to your to-do list for this member; the heartbeat works on it when you are idle.",
		func(ctx context.Context, scope agent.Scope, a addTodoArgs) (map[string]any, error) {
			in, err := checkTodo(TodoInput{AgentID: s.agentOf(scope), MemberID: scope.MemberID, Text: a.Text, CreatedBy: ByAgent})
			if err == nil {
				err = checkOpenTodos(ctx, s.db.Read, in)
			}
			if err != nil {
				return nil, refusal(action, err)
			}
			err = scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				_, err := s.todos.addTx(ctx, tx, in)
				return err
			})
			return map[string]any{"text": clip(in.Text, 300), "staged": true, "note": stagedNote}, err
		})
}

type listTodosArgs struct {
	Status *string `json:"status" enum:"pending|in_progress|done" desc:"Only items with this status; null = the open ones."`
}

func (s *Service) listTodosTool() agent.Tool {
	return memberTool("list_todos", "List your to-do items for this member (open ones unless status is given).",
		func(ctx context.Context, scope agent.Scope, a listTodosArgs) (map[string]any, error) {
			f := TodoFilter{AgentID: s.agentOf(scope), MemberID: scope.MemberID, Open: a.Status == nil}
			if a.Status != nil {
				f.Status = TodoStatus(*a.Status)
			}
			items, err := s.todos.List(ctx, f)
			if err != nil {
				return nil, refusal("list_todos", err)
			}
			out := []map[string]any{}
			for _, t := range items {
				out = append(out, todoSummary(t))
			}
			return map[string]any{"todos": out}, nil
		})
}

type completeTodoArgs struct {
	TodoID flexID  `json:"todo_id"`
	Note   *string `json:"note" schema:"maxLength=500"`
}

func (s *Service) completeTodoTool() agent.Tool {
	const action = "complete_todo"
	return memberTool(action, "Mark one of your to-do items for this member as done (when your output is accepted).",
		func(ctx context.Context, scope agent.Scope, a completeTodoArgs) (map[string]any, error) {
			items, err := s.todos.List(ctx, TodoFilter{AgentID: s.agentOf(scope), MemberID: scope.MemberID})
			if err != nil {
				return nil, refusal(action, err)
			}
			i := slices.IndexFunc(items, func(t Todo) bool { return t.ID == int64(a.TodoID) })
			if i < 0 {
				return nil, fmt.Errorf("%s refused: no to-do %d on your list for this member", action, a.TodoID)
			}
			note := ""
			if a.Note != nil {
				note = *a.Note
			}
			id := int64(a.TodoID)
			err = scope.Stage(func(ctx context.Context, tx *store.Tx) error {
				return s.todos.completeTx(ctx, tx, id, scope.MemberID, note)
			})
			out := todoSummary(items[i])
			out["staged"], out["note"] = true, stagedNote
			return out, err
		})
}
