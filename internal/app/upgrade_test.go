package app

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hearth/internal/backup"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// rawExec runs statements on the database file without Hearth (as an older
// or newer Hearth, or a person with the sqlite3 shell, would).
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// dump is the database's logical content that an upgrade could change:
// every schema object, the migration ledger and the members.
func dump(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, q := range []string{
		`SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`,
		`SELECT 'goose ' || version_id || ' ' || is_applied FROM goose_db_version ORDER BY id`,
		`SELECT 'member ' || id || ' ' || name FROM members ORDER BY id`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			b.WriteString(line + "\n")
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func archives(t *testing.T, dir string) []backup.Archive {
	t.Helper()
	as, err := backup.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// An older Hearth's database: the new binary backs it up (a verified
// archive of the old schema, logged with its path), then migrates it; the
// archive holds the database as it was, for a rollback.
func TestStartBacksUpThenMigratesOlderDatabase(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.Demo = false
	missing := storetest.OlderSchema(t, cfg.DBPath)
	rawExec(t, cfg.DBPath, `INSERT INTO members (id, name, created_at) VALUES ('ada', 'Ada', '2025-01-01T00:00:00Z')`)
	before, err := store.FileSchema(ctx, cfg.DBPath)
	if err != nil || !slices.Equal(before.Pending, []int64{missing}) {
		t.Fatalf("older database: %+v %v", before, err)
	}
	oldDump := dump(t, cfg.DBPath)

	var logs bytes.Buffer
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := store.FileSchema(ctx, cfg.DBPath)
	if err != nil || len(after.Pending) != 0 || after.Version != store.LatestVersion() {
		t.Fatalf("not migrated: %+v %v", after, err)
	}
	if !strings.Contains(dump(t, cfg.DBPath), "member ada Ada\n") {
		t.Fatal("the member did not survive the upgrade")
	}

	as := archives(t, filepath.Join(cfg.DataDir, "backups"))
	if len(as) != 1 || as[0].Schema != before.Version || as[0].Auto {
		t.Fatalf("backups: %+v, want one of schema %d kept until deleted", as, before.Version)
	}
	m, err := backup.Verify(ctx, as[0].Path, nil)
	if err != nil || m.Trigger != backup.TriggerUpgrade || m.Schema != before.Version {
		t.Fatalf("archive: %+v %v", m, err)
	}
	if !strings.Contains(logs.String(), `msg="backed up before upgrading" archive=`+as[0].Path) {
		t.Fatalf("the archive's path is not logged:\n%s", logs.String())
	}
	// The archive is the database as it was: what a rollback restores.
	restored := filepath.Join(t.TempDir(), "hearth.db")
	if _, err := backup.RestoreDatabase(ctx, as[0].Path, restored, a.DB.Now()); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, restored); got != oldDump {
		t.Fatalf("the archive is not the pre-upgrade database:\n%s\nwant\n%s", got, oldDump)
	}

	// Nothing left to migrate: the next start backs nothing up.
	a, err = New(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	if n := len(archives(t, filepath.Join(cfg.DataDir, "backups"))); n != 1 {
		t.Fatalf("%d backups after a start with nothing to migrate", n)
	}
}

// A database a newer Hearth migrated (it has a migration this binary's
// list lacks) is refused before anything writes to it: same bytes, no WAL,
// no backup, no partial start.
func TestStartRefusesNewerDatabaseUntouched(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	future := storetest.NewerSchema(t, cfg.DBPath) // the newer Hearth's own migration, really applied
	files := func() map[string]string {
		out := map[string]string{}
		entries, _ := os.ReadDir(cfg.DataDir)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(cfg.DataDir, e.Name()))
			out[e.Name()] = string(b)
		}
		return out
	}
	beforeFiles := files()

	_, err := New(ctx, cfg, nil)
	if !errors.Is(err, store.ErrNewerSchema) || !strings.Contains(err.Error(), fmt.Sprint(future)) ||
		!strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("New = %v, want the newer schema refused", err)
	}
	afterFiles := files()
	if len(afterFiles) != len(beforeFiles) {
		t.Fatalf("files in the data directory changed: %v → %v", keys(beforeFiles), keys(afterFiles))
	}
	for name, b := range beforeFiles {
		if afterFiles[name] != b {
			t.Fatalf("%s changed", name)
		}
	}
}

// A migration that fails half-way through an upgrade (two pending; the
// second fails after the first committed) leaves the database as it was,
// put back from the backup taken before, and the start fails saying so.
func TestFailedMigrationPutsDatabaseBack(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.Demo = false
	missing := storetest.OlderSchemaBy(t, cfg.DBPath, 2)
	rawExec(t, cfg.DBPath, `INSERT INTO members (id, name, created_at) VALUES ('ada', 'Ada', '2025-01-01T00:00:00Z')`,
		// goose records a migration inside its transaction: failing that insert fails the newest migration.
		fmt.Sprintf(`CREATE TRIGGER planted_failure BEFORE INSERT ON goose_db_version WHEN NEW.version_id = %d
			BEGIN SELECT RAISE(ABORT, 'planted migration failure'); END`, missing[1]))
	before, _ := store.FileSchema(ctx, cfg.DBPath)
	want := dump(t, cfg.DBPath)

	_, err := New(ctx, cfg, nil)
	if !errors.Is(err, store.ErrMigrate) || !errors.Is(err, ErrUpgradeFailed) || !strings.Contains(err.Error(), "put back as it was") ||
		!strings.Contains(err.Error(), "planted migration failure") {
		t.Fatalf("New = %v", err)
	}
	if got := dump(t, cfg.DBPath); got != want {
		t.Fatalf("the database is not as it was:\n%s\nwant\n%s", got, want)
	}
	after, err := store.FileSchema(ctx, cfg.DBPath)
	if err != nil || after.Version != before.Version || !slices.Equal(after.Pending, missing) {
		t.Fatalf("schema after the failed upgrade: %+v %v, want %+v", after, err, before)
	}
	if err := store.CheckIntegrity(ctx, cfg.DBPath); err != nil {
		t.Fatal(err)
	}
	if as := archives(t, filepath.Join(cfg.DataDir, "backups")); len(as) != 1 || as[0].Schema != before.Version {
		t.Fatalf("backups: %+v", as)
	}
	failed, _ := filepath.Glob(cfg.DBPath + ".failed-*")
	if len(failed) != 1 {
		t.Fatalf("the half-upgraded copy is not kept beside it: %v", failed)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
