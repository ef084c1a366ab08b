package faulttest

import (
	"hearth/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/importer"
	"hearth/internal/importer/importertest"
)

// importCommand returns `hearth import ARGS…` over dataDir.
func importCommand(t *testing.T, dataDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(hearthBin(t), append([]string{"import"}, args...)...)
	cmd.Env = hearthEnv(dataDir, "127.0.0.1:0")
	return cmd
}

// TestKillDuringImport kills an Apple Health import with SIGKILL in the
// middle of its data transaction: afterwards the database is intact, none
// of the file's records exist, and the imports row is not "complete". The
// same import then runs to completion.
func TestKillDuringImport(t *testing.T) {
	dir := t.TempDir()
	first := startHearth(t, dir)
	first.stop()
	export, _ := importertest.AppleExportFile(t, 60_000)

	wal := filepath.Join(dir, "hearth.db-wal")
	if st, err := os.Stat(wal); err == nil && st.Size() > 0 {
		t.Fatalf("a %d-byte WAL is left before the import; the kill trigger below needs an empty one", st.Size())
	}
	p := launch(t, importCommand(t, dir, "--member", "maya", export))
	db := openDB(t, dir)
	weightsBefore := count(t, db, `SELECT count(*) FROM weight_readings WHERE member_id = 'maya'`)
	// Kill once the data transaction is writing: the file's records spill
	// from SQLite's page cache into the WAL long before they commit.
	testkit.WaitFor(t, 20*time.Second, "the import's transaction to write", func() bool {
		st, err := os.Stat(wal)
		return count(t, db, `SELECT count(*) FROM imports WHERE status = 'running'`) == 1 && err == nil && st.Size() > 1<<20
	})
	select {
	case <-p.exited:
		t.Fatalf("the import finished before the kill; use a larger file:\n%s", p.logs)
	default:
	}
	st, _ := os.Stat(wal)
	t.Logf("killing the import with %d bytes of its transaction in the WAL", st.Size())
	p.kill9()

	integrityOK(t, db)
	if n := count(t, db, `SELECT count(*) FROM weight_readings WHERE source = 'apple_health'`); n != 0 {
		t.Fatalf("%d Apple Health weigh-ins survived the kill: the import was not all-or-nothing", n)
	}
	if n := count(t, db, `SELECT count(*) FROM weight_readings WHERE member_id = 'maya'`); n != weightsBefore {
		t.Fatalf("maya's weigh-ins %d -> %d", weightsBefore, n)
	}
	if n := count(t, db, `SELECT count(*) FROM import_samples`); n != 0 {
		t.Fatalf("%d staged samples survived the kill", n)
	}
	if n := count(t, db, `SELECT count(*) FROM imports WHERE status = 'complete'`); n != 0 {
		t.Fatal("an import is marked complete")
	}

	// Restart: the server comes up over the killed import's leftovers and
	// marks its row interrupted.
	again := startHearth(t, dir)
	again.stop()
	var status string
	if err := db.QueryRow(`SELECT status FROM imports ORDER BY id DESC LIMIT 1`).Scan(&status); err != nil || status != importer.StatusInterrupted {
		t.Fatalf("killed import is %q (%v), want interrupted", status, err)
	}

	// The same file imports completely afterwards.
	done := launch(t, importCommand(t, dir, "--member", "maya", export))
	if code := done.waitExit(60 * time.Second); code != 0 {
		t.Fatalf("re-import exited %d:\n%s", code, done.logs)
	}
	integrityOK(t, db)
	if n := count(t, db, `SELECT count(*) FROM imports WHERE status = 'complete'`); n != 1 {
		t.Fatalf("%d complete imports, want 1", n)
	}
	if n := count(t, db, `SELECT count(*) FROM weight_readings WHERE source = 'apple_health'`); n == 0 {
		t.Fatal("the re-import stored no weigh-ins")
	}
}
