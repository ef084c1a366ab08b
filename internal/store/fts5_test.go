//go:build sqlite_fts5 || fts5

package store_test

import (
	"context"
	"testing"

	"hearth/internal/store/storetest"
)

// With the build tag, SQLite has FTS5 and the chat index exists and answers.
func TestFTS5IsCompiledIn(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "maya")
	ctx := context.Background()
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO agent_threads (agent_id, member_id, created_at, updated_at)
		VALUES ('coach', 'maya', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct{ typ, content string }{{"text", "My left knee hurts after running"}, {"tool-call", "knee"}} {
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO agent_messages (thread_id, role, type, content, created_at)
			VALUES (1, 'user', ?, ?, '2026-01-01T00:00:00.000Z')`, m.typ, m.content); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM agent_messages_fts WHERE agent_messages_fts MATCH 'knees*'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("'knees*' matched %d (%v)", n, err)
	}
	if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM agent_messages_fts WHERE agent_messages_fts MATCH 'knee'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("'knee' matched %d text messages (%v), want 1 (tool messages are not indexed)", n, err)
	}
	if _, err := db.Write.ExecContext(ctx, `DELETE FROM agent_messages`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO agent_messages_fts(agent_messages_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("index out of step after deletes: %v", err)
	}
}
