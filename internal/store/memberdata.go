package store

import (
	"context"
	"fmt"

	"hearth/internal/apperr"
)

// MemberTable is one table that holds a member's data.
type MemberTable struct {
	Table string
	// Where selects the member's rows; its one ? is the member id.
	Where string
	// What the rows are, in words for the erase page.
	What string
	// JSON names the columns that hold JSON documents with the member's data.
	JSON []string
}

// MemberData names every table and JSON document that holds a member's
// data, children before parents: EraseMember deletes in this order. A table
// added later with a member_id column, or a foreign key to one of these,
// must be added here (TestMemberDataListsEveryMemberTable fails otherwise).
var MemberData = []MemberTable{
	{Table: "agent_messages", Where: "thread_id IN (SELECT id FROM agent_threads WHERE member_id = ?)", What: "chat messages"},
	{Table: "workflow_steps", Where: "run_id IN (SELECT id FROM workflow_runs WHERE member_id = ?)", What: "workflow steps (questions and answers)",
		JSON: []string{"input", "output", "state_patch", "suspend_payload", "resume_data"}},
	{Table: "agent_memory_history", Where: "member_id = ?", What: "coach memory history"},
	{Table: "agent_memory", Where: "member_id = ?", What: "coach memory"},
	{Table: "coaching_notes", Where: "member_id = ?", What: "coaching notes"},
	{Table: "coach_messages", Where: "member_id = ?", What: "messages from the coach"},
	{Table: "dashboards", Where: "member_id = ?", What: "daily dashboards", JSON: []string{"document"}},
	{Table: "prompt_answers", Where: "member_id = ?", What: "prompt answers"},
	{Table: "voice_memos", Where: "member_id = ?", What: "voice memos (and their audio files)"},
	{Table: "content_consumed", Where: "member_id = ?", What: "content marked done"},
	{Table: "playlist_items", Where: "member_id = ?", What: "playlist entries"},
	{Table: "program_substitutions", Where: "state_id IN (SELECT id FROM program_states WHERE member_id = ?)", What: "program substitutions"},
	{Table: "program_states", Where: "member_id = ?", What: "program history"},
	{Table: "task_fires", Where: "task_id IN (SELECT id FROM scheduled_tasks WHERE member_id = ?)", What: "ledger of the member's scheduled tasks"},
	{Table: "scheduled_tasks", Where: "member_id = ?", What: "scheduled tasks for the member"},
	{Table: "agent_task_requests", Where: "member_id = ?", What: "tasks the coach asked to schedule (created or refused)"},
	{Table: "agent_todos", Where: "member_id = ?", What: "coach to-dos"},
	{Table: "agent_runs", Where: "member_id = ?", What: "coach runs (prompts, outputs, tool calls)",
		JSON: []string{"output", "prompt", "tool_calls", "validation_errors", "timings", "steps"}},
	{Table: "agent_threads", Where: "member_id = ?", What: "chat threads"},
	{Table: "workflow_runs", Where: "member_id = ?", What: "workflow runs (the weekly review, …)", JSON: []string{"input", "state", "output"}},
	{Table: "request_keys", Where: "member_id = ?", What: "recent request receipts (kept 48 hours)", JSON: []string{"response"}},
	{Table: "import_samples", Where: "member_id = ?", What: "staged import samples"},
	{Table: "policy_decisions", Where: "member_id = ?", What: "what they asked the home assistant to do, and the policy's decisions", JSON: []string{"args"}},
	{Table: "sensor_mappings", Where: "member_id = ?", What: "Home Assistant sensors mapped to the member"},
	{Table: "daily_figures", Where: "member_id = ?", What: "daily figures (steps, sleep)"},
	{Table: "import_ledger", Where: "member_id = ?", What: "what imports wrote (so corrections keep the member's edits)"},
	{Table: "imports", Where: "member_id = ?", What: "import history", JSON: []string{"summary"}},
	{Table: "entry_trash", Where: "member_id = ?", What: "deleted entries kept a day for undo"},
	{Table: "lifeplan_evidence", Where: "member_id = ?", What: "life plan: evidence notes on beliefs"},
	{Table: "lifeplan_beliefs", Where: "member_id = ?", What: "life plan: beliefs"},
	{Table: "lifeplan_fitness_links", Where: "member_id = ?", What: "life plan: fitness goals linked to life-plan goals"},
	{Table: "lifeplan_goal_history", Where: "member_id = ?", What: "life plan: goal history"},
	{Table: "lifeplan_goals", Where: "member_id = ?", What: "life plan: goals"},
	{Table: "lifeplan_values", Where: "member_id = ?", What: "life plan: values"},
	{Table: "lifeplan_qualities", Where: "member_id = ?", What: "life plan: qualities"},
	{Table: "lifeplan_purposes", Where: "member_id = ?", What: "life plan: purpose"},
	{Table: "weight_readings", Where: "member_id = ?", What: "weigh-ins"},
	{Table: "meals", Where: "member_id = ?", What: "meals"},
	{Table: "workouts", Where: "member_id = ?", What: "workouts"},
	{Table: "body_scans", Where: "member_id = ?", What: "body scans"},
	{Table: "goals", Where: "member_id = ?", What: "goals"},
	{Table: "members", Where: "id = ?", What: "the member's profile and targets"},
}

// MemberDirs are the directories under the data directory that hold a
// member's files; %s is the member id.
var MemberDirs = []string{"voice/%s"}

// MemberDataCount is how many rows of one table belong to a member.
type MemberDataCount struct {
	Table string `json:"table"`
	What  string `json:"what"`
	Rows  int64  `json:"rows"`
}

// CountMemberData counts the member's rows in every MemberData table
// (apperr.NotFound for an unknown member).
func (db *DB) CountMemberData(ctx context.Context, member string) ([]MemberDataCount, error) {
	if _, err := db.Member(ctx, member); err != nil {
		return nil, err
	}
	out := make([]MemberDataCount, 0, len(MemberData))
	for _, t := range MemberData {
		var n int64
		if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM `+t.Table+` WHERE `+t.Where, member).Scan(&n); err != nil {
			return nil, fmt.Errorf("store: count %s of %q: %w", t.Table, member, err)
		}
		out = append(out, MemberDataCount{Table: t.Table, What: t.What, Rows: n})
	}
	return out, nil
}

// EraseMember deletes every row of the member from every MemberData table
// in one transaction and returns what it deleted, and leaves no copy of
// them in the file: the recorded replies of household-wide requests go too
// (they may show the member), full-text indexes are merged so their
// deleted words go, secure_delete (SecureDelete) has zeroed the deleted
// rows, and a checkpoint then moves the zeroed pages into the file and
// empties the write-ahead log. A failed checkpoint returns the counts and
// an error wrapping ErrCheckpoint: the rows are gone, the log is cleared
// later. Files (MemberDirs) are the caller's: the store does not know the
// data directory. Backups made before keep the member.
func (db *DB) EraseMember(ctx context.Context, member string) ([]MemberDataCount, error) {
	var out []MemberDataCount
	err := db.Tx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE id = ?`, member).Scan(&n); err != nil {
			return fmt.Errorf("store: erase %q: %w", member, err)
		}
		if n == 0 {
			return apperr.NotFoundf("no member %q", member)
		}
		for _, t := range MemberData {
			res, err := tx.ExecContext(ctx, `DELETE FROM `+t.Table+` WHERE `+t.Where, member)
			if err != nil {
				return fmt.Errorf("store: erase %s of %q: %w", t.Table, member, err)
			}
			rows, _ := res.RowsAffected()
			out = append(out, MemberDataCount{Table: t.Table, What: t.What, Rows: rows})
		}
		// Another member's decision this member confirmed or refused on a
		// wall screen keeps what happened, not who they were.
		if _, err := tx.ExecContext(ctx, `UPDATE policy_decisions SET decided_by = 'an erased member' WHERE decided_by = ?`, member); err != nil {
			return fmt.Errorf("store: erase %q's confirmations: %w", member, err)
		}
		// A reply recorded for a request on several members (a page listing
		// everyone, a run for all) is not any one member's, and may show
		// this one: receipts only serve retries within 48 hours, so they go
		// (a household request retried across an erase runs again).
		if _, err := tx.ExecContext(ctx, `DELETE FROM request_keys WHERE member_id = ''`); err != nil {
			return fmt.Errorf("store: erase household receipts: %w", err)
		}
		return optimizeFTS(ctx, tx)
	})
	if err != nil {
		return nil, err
	}
	if err := db.Checkpoint(ctx); err != nil {
		return out, fmt.Errorf("store: %q is erased, but old copies of the pages stay in the write-ahead log until the next checkpoint: %w", member, err)
	}
	return out, nil
}

// optimizeFTS merges every FTS5 index into one segment. Deleting a row
// from an FTS5 index only adds a delete marker: the row's words stay in
// the older segments until a merge, which 'optimize' forces.
func optimizeFTS(ctx context.Context, tx *Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND sql LIKE 'CREATE VIRTUAL TABLE%' AND sql LIKE '%USING fts5%'`)
	if err != nil {
		return fmt.Errorf("store: full-text indexes: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return fmt.Errorf("store: full-text indexes: %w", err)
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: full-text indexes: %w", err)
	}
	for _, n := range names {
		q := fmt.Sprintf(`INSERT INTO %[1]q(%[1]q) VALUES ('optimize')`, n)
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: merge the full-text index %s: %w", n, err)
		}
	}
	return nil
}
