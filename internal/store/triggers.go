package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// demoTriggerVersion is the goose version that lets agent_runs record runs
// triggered by "demo" (the demo household's first plans), a Go migration in
// the coach range (see migrations/embed.go).
const demoTriggerVersion = 28

func demoTriggerMigration() *goose.Migration {
	return goose.NewGoMigration(demoTriggerVersion, &goose.GoFunc{RunTx: AllowDemoTrigger}, nil)
}

const (
	triggersBefore = `triggered_by IN ('schedule','manual','api','agent')`
	triggersAfter  = `triggered_by IN ('schedule','manual','api','agent','demo')`
)

// AllowDemoTrigger widens agent_runs' CHECK on triggered_by by 'demo' (it is
// migration 28, exported for its test). SQLite cannot alter a CHECK, and
// rebuilding agent_runs would fire the ON DELETE SET NULL of the tables
// that reference it (chat messages and memory history would lose their
// run). Loosening a CHECK changes no stored row, so the table's definition
// is edited in place, the way SQLite documents for removing constraints
// (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of
// Table Schema Changes"): writable_schema, bump schema_version, check.
func AllowDemoTrigger(ctx context.Context, tx *sql.Tx) error {
	return widenCheck(ctx, tx, "agent_runs", triggersBefore, triggersAfter)
}

// workflowDemoVersion is the goose version that lets workflow_runs record
// runs triggered by "demo" (the demo household's first plans, which run as
// the daily-dashboard workflow), a Go migration in the workflows range
// (see migrations/embed.go).
const workflowDemoVersion = 93

func workflowDemoMigration() *goose.Migration {
	return goose.NewGoMigration(workflowDemoVersion, &goose.GoFunc{RunTx: AllowWorkflowDemoTrigger}, nil)
}

// AllowWorkflowDemoTrigger is AllowDemoTrigger for workflow_runs (migration
// 93): rebuilding it would cascade to its steps and unlink its engine runs.
func AllowWorkflowDemoTrigger(ctx context.Context, tx *sql.Tx) error {
	return widenCheck(ctx, tx, "workflow_runs", triggersBefore, triggersAfter)
}

// widenCheck replaces before with after, once, in table's definition. The
// caller makes sure after only loosens a CHECK (no stored row can break it).
func widenCheck(ctx context.Context, tx *sql.Tx, table, before, after string) error {
	var def string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&def); err != nil {
		return fmt.Errorf("store: %s definition: %w", table, err)
	}
	switch {
	case strings.Contains(def, after):
		return nil
	case strings.Count(def, before) != 1:
		return fmt.Errorf("store: %s: unexpected definition of the CHECK to widen; not changed", table)
	}
	var version int64
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return fmt.Errorf("store: schema_version: %w", err)
	}
	stmts := []struct {
		q    string
		args []any
	}{
		{`PRAGMA writable_schema = ON`, nil},
		{`UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?`,
			[]any{strings.Replace(def, before, after, 1), table}},
		{fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), nil},
		{`PRAGMA writable_schema = OFF`, nil},
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return fmt.Errorf("store: widen the CHECK of %s: %w", table, err)
		}
	}
	var ok string
	if err := tx.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		return fmt.Errorf("store: integrity after changing %s: %q, %v", table, ok, err)
	}
	return nil
}
