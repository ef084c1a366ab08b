package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// names runs a query returning one text column.
func names(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// tables lists the database's own tables (not SQLite's or goose's).
func tables(t *testing.T, db *sql.DB) []string {
	return names(t, db, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version' ORDER BY name`)
}

func columns(t *testing.T, db *sql.DB, table string) []string {
	return names(t, db, `SELECT name FROM pragma_table_info(?)`, table)
}

func references(t *testing.T, db *sql.DB, table string) []string {
	return names(t, db, `SELECT "table" FROM pragma_foreign_key_list(?)`, table)
}

// notMemberData are tables that look related to member data but are not,
// each with the reason. Add here only with a reason that holds.
var notMemberData = map[string]string{}

// Every table with a member column, or a foreign key to a table that holds
// member data, must be in store.MemberData: that list is what erase deletes.
func TestMemberDataListsEveryMemberTable(t *testing.T) {
	db := storetest.Open(t)
	listed := map[string]bool{}
	for _, mt := range store.MemberData {
		if listed[mt.Table] {
			t.Errorf("%s is listed twice", mt.Table)
		}
		listed[mt.Table] = true
	}
	all := tables(t, db.Read)
	holds := map[string]bool{"members": true}
	for changed := true; changed; { // member data spreads along foreign keys
		changed = false
		for _, tb := range all {
			if holds[tb] || notMemberData[tb] != "" {
				continue
			}
			cols := columns(t, db.Read, tb)
			direct := slices.Contains(cols, "member_id")
			for _, ref := range references(t, db.Read, tb) {
				if holds[ref] && ref != tb {
					direct = true
				}
			}
			if direct {
				holds[tb], changed = true, true
			}
		}
	}
	for tb := range holds {
		if !listed[tb] {
			t.Errorf("table %s holds member data (a member_id column or a foreign key to member data) "+
				"but is not in store.MemberData: add it, or to notMemberData with the reason", tb)
		}
	}
	for tb := range listed {
		if !slices.Contains(all, tb) {
			t.Errorf("store.MemberData lists %s, which does not exist", tb)
		}
	}
	// Children before parents: a table comes before every table it references.
	pos := map[string]int{}
	for i, mt := range store.MemberData {
		pos[mt.Table] = i
	}
	for _, mt := range store.MemberData {
		for _, ref := range references(t, db.Read, mt.Table) {
			if p, ok := pos[ref]; ok && ref != mt.Table && p < pos[mt.Table] {
				t.Errorf("%s is listed after %s, which it references: erase deletes children first", mt.Table, ref)
			}
		}
	}
}

// fillMember gives the member at least one row in every MemberData table.
// A table added to MemberData needs a row here too (the erase test checks).
func fillMember(t *testing.T, db *store.DB, m string) {
	t.Helper()
	ts := "2026-03-01T07:30:00.000Z"
	stmts := []string{
		`INSERT INTO weight_readings (member_id, measured_at, weight_kg, lean_mass_kg, created_at) VALUES ('%[1]s', '%[2]s', 70.5, 55.1, '%[2]s')`,
		`INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES ('%[1]s', '%[2]s', 'Porridge of %[1]s', 350, '%[2]s')`,
		`INSERT INTO workouts (member_id, started_at, type, duration_min, created_at) VALUES ('%[1]s', '%[2]s', 'run', 30, '%[2]s')`,
		`INSERT INTO body_scans (member_id, scanned_at, body_fat_pct, lean_mass_kg, created_at) VALUES ('%[1]s', '%[2]s', 21.5, 55.2, '%[2]s')`,
		`INSERT INTO goals (member_id, kind, description, created_at) VALUES ('%[1]s', 'weight', 'goal of %[1]s', '%[2]s')`,
		`INSERT INTO agent_threads (agent_id, member_id, title, created_at, updated_at) VALUES ('health-coach', '%[1]s', 'chat', '%[2]s', '%[2]s')`,
		`INSERT INTO agent_runs (agent_id, assignment_id, member_id, triggered_by, status, created_at, output, prompt)
			VALUES ('health-coach', 'daily-dashboard', '%[1]s', 'manual', 'succeeded', '%[2]s', '{"for":"%[1]s"}', 'prompt for %[1]s')`,
		`INSERT INTO agent_messages (thread_id, role, content, created_at)
			VALUES ((SELECT max(id) FROM agent_threads WHERE member_id = '%[1]s'), 'user', 'hello from %[1]s', '%[2]s')`,
		`INSERT INTO workflow_runs (workflow_id, version, member_id, status, triggered_by, input, created_at, updated_at)
			VALUES ('weekly-review', 'v1', '%[1]s', 'suspended', 'schedule', '{"for":"%[1]s"}', '%[2]s', '%[2]s')`,
		`INSERT INTO workflow_steps (run_id, path, step_id, seq, status, input, suspend_payload, started_at)
			VALUES ((SELECT max(id) FROM workflow_runs WHERE member_id = '%[1]s'), 'ask', 'ask', 1, 'suspended', '{}', '{"question":"for %[1]s"}', '%[2]s')`,
		`INSERT INTO agent_memory (agent_id, member_id, key, value, updated_at, updated_by) VALUES ('health-coach', '%[1]s', 'k', 'v of %[1]s', '%[2]s', 'admin')`,
		`INSERT INTO agent_memory_history (agent_id, member_id, key, new_value, actor, created_at) VALUES ('health-coach', '%[1]s', 'k', 'v of %[1]s', 'admin', '%[2]s')`,
		`INSERT INTO program_states (member_id, program_id, status, start_date, anchor_date, anchor_day, current_day, pattern, created_at, updated_at)
			VALUES ('%[1]s', 'p', 'active', '2026-03-01', '2026-03-01', 1, 1, 'daily', '%[2]s', '%[2]s')`,
		`INSERT INTO program_substitutions (state_id, day, actual, at) VALUES ((SELECT max(id) FROM program_states WHERE member_id = '%[1]s'), 1, 'walk', '%[2]s')`,
		`INSERT INTO dashboards (member_id, day, document, created_at) VALUES ('%[1]s', '2026-03-01', '{"coach":{"briefing":"hi %[1]s"}}', '%[2]s')`,
		`INSERT INTO prompt_answers (member_id, day, prompt_id, question, answer, kind, answered_at) VALUES ('%[1]s', '2026-03-01', 'p1', 'q', 'a', 'tap', '%[2]s')`,
		`INSERT INTO voice_memos (member_id, day, path, mime, size, created_at) VALUES ('%[1]s', '2026-03-01', 'voice/%[1]s/a.webm', 'audio/webm', 10, '%[2]s')`,
		`INSERT INTO content_consumed (member_id, content_id, consumed_at) VALUES ('%[1]s', 'local:x', '%[2]s')`,
		`INSERT INTO playlist_items (member_id, position, content_id) VALUES ('%[1]s', 0, 'local:x')`,
		`INSERT INTO coaching_notes (member_id, note, created_at) VALUES ('%[1]s', 'note on %[1]s', '%[2]s')`,
		`INSERT INTO scheduled_tasks (description, kind, schedule, agent_id, member_id, prompt, created_at, updated_at)
			VALUES ('check in with %[1]s', 'once', '2026-03-02T09:00:00Z', 'health-coach', '%[1]s', 'p', '%[2]s', '%[2]s')`,
		`INSERT INTO task_fires (task_id, scheduled_for, via, outcome, at) VALUES ((SELECT max(id) FROM scheduled_tasks WHERE member_id = '%[1]s'), '%[2]s', 'schedule', 'ran', '%[2]s')`,
		`INSERT INTO agent_todos (agent_id, member_id, text, created_at, updated_at) VALUES ('health-coach', '%[1]s', 'ask %[1]s', '%[2]s', '%[2]s')`,
		`INSERT INTO agent_task_requests (member_id, agent_id, kind, description, outcome, reason, at) VALUES ('%[1]s', 'health-coach', 'once', 'ask %[1]s', 'refused', 'too soon', '%[2]s')`,
		`INSERT INTO imports (member_id, file_name, kind, status, started_at) VALUES ('%[1]s', '%[1]s.csv', 'csv-weight', 'complete', '%[2]s')`,
		`INSERT INTO request_keys (member_id, kind, key, body_hash, response, created_at) VALUES ('%[1]s', 'POST /m/:member/weight', 'k-%[1]s', 'h', '{"member":"%[1]s"}', '%[2]s')`,
		`INSERT INTO import_samples (member_id, kind, at, source_key, import_id, value) VALUES ('%[1]s', 'energy', '%[2]s', 'k', 1, 100)`,
		`INSERT INTO coach_messages (member_id, agent_id, text, created_at) VALUES ('%[1]s', 'health-coach', 'hello %[1]s', '%[2]s')`,
		`INSERT INTO entry_trash (member_id, kind, entry_id, row, deleted_at) VALUES ('%[1]s', 'meal', 1, '{"name":"x"}', '%[2]s')`,
		`INSERT INTO sensor_mappings (entity_id, member_id, kind, created_at) VALUES ('sensor.scale_%[1]s', '%[1]s', 'weight', '%[2]s')`,
		`INSERT INTO policy_decisions (at, member_id, role, tool, target, args, outcome, rule) VALUES ('%[2]s', '%[1]s', 'child', 'home_call_service', 'light.%[1]s', '{"entity_id":"light.%[1]s"}', 'denied', 'child.quiet_hours')`,
		`INSERT INTO daily_figures (member_id, day, kind, value, unit, measured_at, source, source_key, created_at) VALUES ('%[1]s', '2026-03-01', 'steps', 8000, 'steps', '%[2]s', 'homeassistant', 'd|steps|2026-03-01', '%[2]s')`,
		`INSERT INTO import_ledger (member_id, kind, source, source_key, values_hash, import_id) VALUES ('%[1]s', 'meal', 'csv', 'm|2026-01-05|lunch', 'h', 1)`,
		`INSERT INTO lifeplan_purposes (member_id, statement, updated_at) VALUES ('%[1]s', 'purpose of %[1]s', '%[2]s')`,
		`INSERT INTO lifeplan_values (member_id, name, rank, created_at, updated_at) VALUES ('%[1]s', 'family', 1, '%[2]s', '%[2]s')`,
		`INSERT INTO lifeplan_beliefs (member_id, if_text, then_text, created_at, updated_at) VALUES ('%[1]s', 'if %[1]s trains early', 'then sleep', '%[2]s', '%[2]s')`,
		`INSERT INTO lifeplan_evidence (member_id, belief_id, text, source, status, created_at)
			VALUES ('%[1]s', (SELECT max(id) FROM lifeplan_beliefs WHERE member_id = '%[1]s'), 'slept well', 'data', 'suggested', '%[2]s')`,
		`INSERT INTO lifeplan_goals (member_id, name, created_at, updated_at) VALUES ('%[1]s', 'hike with kids', '%[2]s', '%[2]s')`,
		`INSERT INTO lifeplan_goal_history (member_id, goal_id, from_state, to_state, reason, at, by)
			VALUES ('%[1]s', (SELECT max(id) FROM lifeplan_goals WHERE member_id = '%[1]s'), '', 'dream', 'added', '%[2]s', 'member')`,
		`INSERT INTO lifeplan_fitness_links (fitness_goal_id, member_id, goal_id, linked_at)
			VALUES ((SELECT max(id) FROM goals WHERE member_id = '%[1]s'), '%[1]s', (SELECT max(id) FROM lifeplan_goals WHERE member_id = '%[1]s'), '%[2]s')`,
		`INSERT INTO lifeplan_qualities (member_id, name, created_at) VALUES ('%[1]s', 'patience', '%[2]s')`,
	}
	for _, s := range stmts {
		if _, err := db.Write.Exec(fmt.Sprintf(s, m, ts)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// rowids returns the rowids of the member's rows in a MemberData table
// (WITHOUT ROWID tables: their primary key as text).
func memberRows(t *testing.T, db *sql.DB, mt store.MemberTable, member string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM `+mt.Table+` WHERE `+mt.Where, member)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

// Erasing a member removes every row of theirs from every listed table,
// leaves nothing anywhere that mentions them, and keeps the other member.
func TestEraseMemberLeavesNoRow(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	// Distinctive ids so a text search over the whole database finds any trace.
	const gone, kept = "erasee", "keeper"
	storetest.Member(t, db, gone)
	storetest.Member(t, db, kept)
	fillMember(t, db, gone)
	fillMember(t, db, kept)
	keptBefore := map[string][]string{}
	for _, mt := range store.MemberData {
		if n := len(memberRows(t, db.Read, mt, gone)); n == 0 {
			t.Fatalf("%s has no row of the member before erasure: add one in fillMember", mt.Table)
		}
		keptBefore[mt.Table] = memberRows(t, db.Read, mt, kept)
	}
	counts, err := db.CountMemberData(ctx, gone)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		if c.Rows == 0 {
			t.Errorf("CountMemberData: %s = 0", c.Table)
		}
	}
	erased, err := db.EraseMember(ctx, gone)
	if err != nil {
		t.Fatal(err)
	}
	if len(erased) != len(store.MemberData) {
		t.Fatalf("erased %d tables, want %d", len(erased), len(store.MemberData))
	}
	for _, mt := range store.MemberData {
		if rows := memberRows(t, db.Read, mt, gone); len(rows) != 0 {
			t.Errorf("%s still has %d rows of %s", mt.Table, len(rows), gone)
		}
		if got := memberRows(t, db.Read, mt, kept); !slices.Equal(got, keptBefore[mt.Table]) {
			t.Errorf("%s: the other member's rows changed: %v → %v", mt.Table, keptBefore[mt.Table], got)
		}
	}
	// No text anywhere in the database mentions the erased member.
	for _, tb := range tables(t, db.Read) {
		for _, col := range columns(t, db.Read, tb) {
			var n int
			q := fmt.Sprintf(`SELECT count(*) FROM %q WHERE CAST(%q AS TEXT) LIKE '%%%s%%'`, tb, col, gone)
			if err := db.Read.QueryRow(q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				t.Errorf("%s.%s still mentions %s in %d rows", tb, col, gone, n)
			}
		}
	}
	if _, err := db.EraseMember(ctx, gone); err == nil || !strings.Contains(err.Error(), "no member") {
		t.Fatalf("erasing again: %v, want not found", err)
	}
	if err := store.CheckIntegrity(ctx, db.Path); err != nil {
		t.Fatal(err)
	}
}

// Erasing a member leaves no copy of their data in the database file or
// its write-ahead log, where `strings hearth.db` would find it: not in the
// free space of the pages their rows were on (secure_delete), not in a
// full-text index's older segments, not in a recorded reply (theirs, or a
// household-wide one that may show them), and not in the log's old frames
// (the checkpoint after the erase). The other member's data stays.
func TestEraseLeavesNoCopyInTheFile(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const gone, kept = "erasee", "keeper"
	storetest.Member(t, db, gone)
	storetest.Member(t, db, kept)
	fillMember(t, db, gone)
	fillMember(t, db, kept)
	marker := func(m string) string { return "zqx" + m + "marker" } // one word: the full-text index stores it whole
	long := strings.Repeat("lorem ipsum ", 800)                     // a message over several pages (overflow pages)
	for _, m := range []string{gone, kept} {
		mk := marker(m)
		stmts := []string{
			`INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES (?1, '2026-03-01T08:00:00Z', ?2 || ' oats', 350, '2026-03-01T08:00:00Z')`,
			`INSERT INTO agent_messages (thread_id, role, content, created_at)
				VALUES ((SELECT max(id) FROM agent_threads WHERE member_id = ?1), 'user', ?2, '2026-03-01T08:00:00Z')`,
			`INSERT INTO agent_messages (thread_id, role, content, created_at)
				VALUES ((SELECT max(id) FROM agent_threads WHERE member_id = ?1), 'assistant', ?2 || ' ' || ?3, '2026-03-01T08:00:01Z')`,
			`INSERT INTO request_keys (key, member_id, kind, body_hash, status, response, created_at)
				VALUES ('reply-' || ?1, ?1, 'POST /api/threads/:id/messages', 'h', 200, CAST('{"answer":"' || ?2 || '"}' AS BLOB), '2026-03-01T08:00:00Z')`,
		}
		for _, q := range stmts {
			if _, err := db.Write.ExecContext(ctx, q, m, mk, long); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	// A household-wide reply (a page listing everyone) shows both.
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO request_keys (key, member_id, kind, body_hash, status, response, created_at)
		VALUES ('household-page', '', 'POST /admin/evals', 'h', 200, ?, '2026-03-01T08:00:00Z')`, marker(gone)+" "+marker(kept)); err != nil {
		t.Fatal(err)
	}
	// As on a server that has run a while: the rows are in the file itself.
	if err := db.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	files := func() map[string][]byte {
		out := map[string][]byte{}
		for _, p := range []string{db.Path, db.Path + "-wal"} {
			b, err := os.ReadFile(p)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			out[filepath.Base(p)] = b
		}
		return out
	}
	if !bytes.Contains(files()["hearth.db"], []byte(marker(gone))) {
		t.Fatal("the marker is not in the file before the erase: the test cannot see anything")
	}
	if _, err := db.EraseMember(ctx, gone); err != nil {
		t.Fatal(err)
	}
	for name, b := range files() {
		if n := bytes.Count(b, []byte(marker(gone))); n > 0 {
			t.Errorf("%s still holds the erased member's marker %d times", name, n)
		}
	}
	if !bytes.Contains(files()["hearth.db"], []byte(marker(kept))) {
		t.Error("the other member's data is not in the file")
	}
	var hits int
	if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM agent_messages_fts WHERE agent_messages_fts MATCH ?`, marker(kept)).Scan(&hits); err != nil || hits != 2 {
		t.Errorf("the other member's messages are not found by search: %d %v", hits, err)
	}
	if err := store.CheckIntegrity(ctx, db.Path); err != nil {
		t.Fatal(err)
	}
}
