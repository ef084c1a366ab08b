package schedule

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Guardrails against scheduling loops (a model that schedules its own next
// run on every run). Every task the coach asks for is recorded in
// agent_task_requests, created or refused:
//   - agent-created tasks of every kind count toward a per-member daily
//     quota (Options.DailyAgentTasks, calendar day in the household zone;
//     deleting a task does not give its place back);
//   - a once task must be at least Options.MinOnceLead ahead;
//   - a run started by a task (or heartbeat to-do) the coach created may
//     still ask for a task, but it waits for an admin's approval.
//
// Refusals reach the model as the tool's error and are listed in Admin →
// Schedules (TaskRequests).

// TaskRequest outcomes.
const (
	RequestStaged   = "staged"           // asked for in a run that has not committed (or never did)
	RequestCreated  = "created"          // the task was created active
	RequestPending  = "pending_approval" // the task was created and waits for an admin
	RequestRefused  = "refused"          // no task; Reason says why
	originTask      = "task:"
	originTodo      = "todo:"
	maxReasonLength = 500
)

// TaskOrigin is the run origin of a run a task started (agent.Run.Origin).
func TaskOrigin(id int64) string { return originTask + strconv.FormatInt(id, 10) }

// TodoOrigin is the run origin of a run the heartbeat started for a to-do.
func TodoOrigin(id int64) string { return originTodo + strconv.FormatInt(id, 10) }

// TaskRequest is one task the coach asked for.
type TaskRequest struct {
	ID          int64     `json:"id"`
	MemberID    string    `json:"member"`
	AgentID     string    `json:"agent"`
	RunID       int64     `json:"run_id,omitempty"`
	TaskID      int64     `json:"task_id,omitempty"`
	Kind        Kind      `json:"type"`
	Schedule    string    `json:"schedule"`
	Description string    `json:"description"`
	Outcome     string    `json:"outcome"`
	Reason      string    `json:"reason,omitempty"`
	At          time.Time `json:"at"`
}

// agentOrigin reports whether origin names a task or to-do the coach
// created (its runs need approval to schedule more), and which.
func (s *Service) agentOrigin(ctx context.Context, origin string) (string, bool, error) {
	kind, num, ok := strings.Cut(origin, ":")
	if !ok {
		return "", false, nil
	}
	id, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return "", false, nil
	}
	switch kind + ":" {
	case originTask:
		t, err := getTask(ctx, s.db.Read, id, s.loc)
		if apperr.Is(err, apperr.NotFound) {
			// A deleted task's run: the request rows still say who made it.
			var n int
			err = s.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM agent_task_requests WHERE task_id = ?`, id).Scan(&n)
			return fmt.Sprintf("task %d", id), n > 0, err
		}
		return fmt.Sprintf("task %d", id), err == nil && t.CreatedBy == ByAgent, err
	case originTodo:
		t, err := getTodo(ctx, s.db.Read, id, s.loc)
		if apperr.Is(err, apperr.NotFound) {
			return "", false, nil
		}
		return fmt.Sprintf("to-do %d", id), err == nil && t.CreatedBy == ByAgent, err
	}
	return "", false, nil
}

// dayStart is the start of now's calendar day in the household zone.
func (s *Service) dayStart(now time.Time) time.Time {
	y, m, d := now.In(s.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, s.loc)
}

// guardAgentTask applies the loop guardrails to a task the coach asked for
// in run runID started by origin. It returns the task (made to wait for
// approval when origin is a coach-made task) and the id of its staged
// request row, or the refusal (apperr.Conflict/Invalid whose message the
// model reads; the caller records it with refuseRequest).
//
// The staged row is a reservation against the daily quota and the cap on
// live coach tasks: it is counted and inserted in one write transaction,
// and the counts include the staged requests of every run still under
// way, so runs reasoning in parallel cannot each find room for the same
// place. The commit checks both again (checkDailyAtCommit, insertTx).
func (s *Service) guardAgentTask(ctx context.Context, t Task, runID int64, origin string) (Task, int64, error) {
	now := s.now()
	refuse := func(err error) (Task, int64, error) { return t, 0, err }
	if t.Kind == KindOnce && t.NextRunAt != nil {
		if lead := t.NextRunAt.Sub(now); lead < s.opt.MinOnceLead {
			return refuse(invalidField("schedule", fmt.Sprintf("a one-time action must be at least %s ahead (this one is %s ahead); "+
				"schedule it later, or do it now", fmtDuration(s.opt.MinOnceLead), fmtDuration(lead.Round(time.Second)))))
		}
	}
	what, fromAgent, err := s.agentOrigin(ctx, origin)
	if err != nil {
		return t, 0, err
	}
	if fromAgent {
		t.Status, t.PausedAt = StatusPendingApproval, nil
		t.StatusReason = fmt.Sprintf("asked for by a run of %s, which the coach created: waits for an admin to approve it", what)
	}
	var id int64
	err = s.db.Tx(ctx, func(tx *store.Tx) error {
		var staged, today int
		if err := tx.QueryRowContext(ctx, `SELECT
				count(*) FILTER (WHERE outcome = 'staged' AND (run_id = ? OR run_id IN
					(SELECT id FROM agent_runs WHERE status IN (?, ?)))),
				count(*) FILTER (WHERE outcome IN ('created','pending_approval') AND at >= ?)
			FROM agent_task_requests WHERE member_id = ?`,
			runID, string(agent.StatusQueued), string(agent.StatusRunning), store.FormatTime(s.dayStart(now)), t.MemberID).Scan(&staged, &today); err != nil {
			return fmt.Errorf("schedule: count today's coach tasks: %w", err)
		}
		live, err := countAgentTasks(ctx, tx, t.MemberID)
		if err != nil {
			return err
		}
		if live+staged >= s.opt.MaxAgentTasks {
			return s.liveLimit(t.MemberID, live+staged)
		}
		if today+staged >= s.opt.DailyAgentTasks {
			return s.dailyLimit(today + staged)
		}
		id, err = s.recordRequest(ctx, tx, t, runID, RequestStaged, "", now)
		return err
	})
	if err != nil {
		return refuse(err)
	}
	return t, id, nil
}

// dailyLimit is the refusal of a task past the daily quota, n made today.
func (s *Service) dailyLimit(n int) error {
	return apperr.New(apperr.Conflict, "daily limit reached: the coach already created or asked for %d tasks for this member today "+
		"(at most %d a day); try again tomorrow", n, s.opt.DailyAgentTasks)
}

// checkDailyAtCommit checks the daily quota again in the commit of the run
// that asked for request reqID: the tasks made today, this one aside,
// must leave room for it (a reservation made outside a recorded run is
// not counted by the others' guard).
func (s *Service) checkDailyAtCommit(ctx context.Context, tx *store.Tx, member string, reqID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM agent_task_requests WHERE member_id = ? AND id <> ?
		AND outcome IN ('created','pending_approval') AND at >= ?`,
		member, reqID, store.FormatTime(s.dayStart(s.now()))).Scan(&n); err != nil {
		return fmt.Errorf("schedule: count today's coach tasks: %w", err)
	}
	if n >= s.opt.DailyAgentTasks {
		return s.dailyLimit(n)
	}
	return nil
}

// refusedAtCommit is the record a request refused in its run's commit
// leaves: the request row says refused and why (for Admin → Schedules).
func refusedAtCommit(id int64, err error) agent.Effect {
	return func(ctx context.Context, tx *store.Tx) error {
		if id == 0 {
			return nil
		}
		_, uerr := tx.ExecContext(ctx, `UPDATE agent_task_requests SET outcome = ?, reason = ? WHERE id = ?`,
			RequestRefused, clip(refusalText(err), maxReasonLength), id)
		if uerr != nil {
			return fmt.Errorf("schedule: refuse task request %d: %w", id, uerr)
		}
		return nil
	}
}

// refuseRequest records a refused request (any refusal of schedule_action
// but an internal error) for Admin → Schedules; err is returned as it is.
func (s *Service) refuseRequest(ctx context.Context, in TaskInput, runID int64, err error) error {
	if ae := apperr.As(err); ae == nil || ae.Code == apperr.Internal || in.MemberID == "" {
		return err
	}
	t := Task{MemberID: in.MemberID, AgentID: in.AgentID, Kind: in.Kind, Schedule: in.Schedule, Description: in.Description}
	if _, rerr := s.recordRequest(ctx, s.db.Write, t, runID, RequestRefused, refusalText(err), s.now()); rerr != nil {
		s.log.Error("schedule: record a refused task request", "member", in.MemberID, "err", rerr)
	}
	return err
}

// recordRequest inserts a request row.
func (s *Service) recordRequest(ctx context.Context, q store.Queryer, t Task, runID int64, outcome, reason string, now time.Time) (int64, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO agent_task_requests (member_id, agent_id, run_id, kind, schedule,
		description, outcome, reason, at) VALUES (?,?,?,?,?,?,?,?,?)`, t.MemberID, t.AgentID, nullID(runID),
		clip(cleanLine(string(t.Kind)), 20), clip(cleanLine(t.Schedule), 200), clip(cleanLine(t.Description), 200), outcome, clip(reason, maxReasonLength), store.FormatTime(now))
	if err != nil {
		return 0, fmt.Errorf("schedule: record the coach's task request: %w", err)
	}
	return res.LastInsertId()
}

// settleRequest marks a staged request as applied (in the run's commit).
func settleRequest(ctx context.Context, tx *store.Tx, id int64, t Task) error {
	outcome := RequestCreated
	if t.Status == StatusPendingApproval {
		outcome = RequestPending
	}
	_, err := tx.ExecContext(ctx, `UPDATE agent_task_requests SET outcome = ?, task_id = ?, reason = ? WHERE id = ?`,
		outcome, t.ID, clip(t.StatusReason, maxReasonLength), id)
	if err != nil {
		return fmt.Errorf("schedule: settle task request %d: %w", id, err)
	}
	return nil
}

// RequestFilter narrows TaskRequests; zero fields match all. Limit <= 0
// means 100.
type RequestFilter struct {
	Outcome  string
	MemberID string
	Limit    int
}

// TaskRequests lists the tasks the coach asked for, newest first.
func (s *Service) TaskRequests(ctx context.Context, f RequestFilter) ([]TaskRequest, error) {
	var w store.Where
	w.Eq("outcome", f.Outcome).Eq("member_id", f.MemberID)
	if f.Limit <= 0 {
		f.Limit = 100
	}
	out, err := store.All(ctx, s.db.Read, func(row store.Scanner) (TaskRequest, error) {
		var (
			r           TaskRequest
			runN, taskN sql.NullInt64
			kind, at    string
		)
		if err := row.Scan(&r.ID, &r.MemberID, &r.AgentID, &runN, &taskN, &kind, &r.Schedule, &r.Description,
			&r.Outcome, &r.Reason, &at); err != nil {
			return r, err
		}
		r.Kind, r.RunID, r.TaskID = Kind(kind), runN.Int64, taskN.Int64
		t, err := store.ParseTime(at)
		r.At = t.In(s.loc)
		return r, err
	}, `SELECT id, member_id, agent_id, run_id, task_id, kind, schedule, description, outcome, reason, at
		FROM agent_task_requests`+w.String()+` ORDER BY id DESC LIMIT ?`, append(w.Args(), f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("schedule: list task requests: %w", err)
	}
	return out, nil
}

// cleanLine drops what a refused request's model text may carry that a
// screen should not show (control characters, invalid UTF-8).
func cleanLine(s string) string {
	c, _ := text.Clean(text.Line, s)
	return c
}

// refusalText is what a refusal says (without the error's wrapping).
func refusalText(err error) string {
	if ae := apperr.As(err); ae != nil {
		return ae.Message
	}
	return err.Error()
}

// fmtDuration writes a lead time for people and models: "15 minutes", "14s".
func fmtDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "in the past by " + fmtDuration(-d)
	case d >= time.Minute && d%time.Minute == 0:
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}
