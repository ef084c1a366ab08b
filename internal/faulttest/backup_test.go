package faulttest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/backup"
	"hearth/internal/store"
)

// backupCmd is `hearth backup --to dir` over dataDir.
func backupCmd(t *testing.T, dataDir, dir string) *exec.Cmd {
	cmd := exec.Command(hearthBin(t), "backup", "--to", dir)
	cmd.Env = hearthEnv(dataDir, "127.0.0.1:0")
	return cmd
}

// backedUp runs `hearth backup --to target` and returns the backups there.
func backedUp(t *testing.T, dataDir, target string) []backup.Archive {
	t.Helper()
	start := time.Now()
	if out, err := backupCmd(t, dataDir, target).CombinedOutput(); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	t.Logf("hearth backup took %s", time.Since(start).Round(time.Millisecond))
	list, err := backup.List(target)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// bulk adds n weigh-ins in one transaction so a backup takes a moment.
func bulk(t *testing.T, dataDir string, n int) {
	t.Helper()
	withDB(t, dataDir, func(db *sql.DB) {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		st, err := tx.Prepare(`INSERT INTO weight_readings (member_id, measured_at, weight_kg, source, source_key, created_at)
			VALUES ('maya', ?, ?, 'bulk', ?, ?)`)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			at := time.Unix(1_500_000_000+int64(i)*60, 0).UTC().Format(store.TimeLayout)
			if _, err := st.Exec(at, 60+float64(i%300)/10, fmt.Sprint("k", i, strings.Repeat("x", 60)), at); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestKillDuringBackup: `hearth backup` killed with SIGKILL in the middle
// of its work leaves the earlier backups (still verifiable) and the live
// database (integrity, the server still writing) intact, and the next
// backup succeeds and cleans up nothing it should not.
func TestKillDuringBackup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	ctx := context.Background()
	dataDir := t.TempDir()
	target := filepath.Join(t.TempDir(), "backups")
	p := startHearth(t, dataDir)
	bulk(t, dataDir, 200_000)
	// A video the catalog plays from disk: random bytes, so compressing it
	// takes a while (the "files" phase) and the archive is large to verify.
	video := make([]byte, 48<<20)
	_, _ = rand.Read(video)
	if err := os.MkdirAll(filepath.Join(dataDir, "media"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "media", "ember-core-01.mp4"), video, 0o600); err != nil {
		t.Fatal(err)
	}
	first := backedUp(t, dataDir, target)
	if len(first) != 1 {
		t.Fatalf("after the first backup: %v", first)
	}

	killed := 0
	for attempt := 0; attempt < 6 && killed < 3; attempt++ {
		// Writes keep coming while the backup runs.
		if code, body := p.post("/api/v1/members/maya/weight", `{"weight_kg": 71.5}`); code != 201 {
			t.Fatalf("write: %d %s", code, body)
		}
		bp := launch(t, backupCmd(t, dataDir, target))
		logs := bp.logs
		phase := []string{"database", "files", "verify"}[attempt%3]
		deadline := time.Now().Add(20 * time.Second)
	wait:
		for !strings.Contains(logs.String(), phase+" ") && time.Now().Before(deadline) {
			select {
			case <-bp.exited:
				break wait
			case <-time.After(time.Millisecond):
			}
		}
		select {
		case <-bp.exited:
			t.Logf("attempt %d: the backup finished before it could be killed in phase %s: %q", attempt, phase, logs.String())
			continue
		default:
		}
		bp.kill9()
		killed++
		t.Logf("killed the backup in phase %s; its output: %q", phase, logs.String())
	}
	if killed == 0 {
		t.Fatal("could not kill a backup mid-way")
	}
	// Earlier backups: all still there and verifiable.
	after, err := backup.List(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range after {
		if _, err := backup.Verify(ctx, a.Path, nil); err != nil {
			t.Errorf("%s no longer verifies: %v", a.Name, err)
		}
	}
	if len(after) < len(first) || after[len(after)-1].Name != first[0].Name {
		t.Fatalf("the first backup is gone: %v", after)
	}
	// The live database is intact and the server still writes.
	withDB(t, dataDir, func(db *sql.DB) { integrityOK(t, db) })
	if code, body := p.post("/api/v1/members/maya/weight", `{"weight_kg": 71.6}`); code != 201 {
		t.Fatalf("write after the kill: %d %s", code, body)
	}
	// The next backup succeeds; what the killed one left is only its own
	// temporary directory, never something that looks like a backup.
	if out, err := backupCmd(t, dataDir, target).CombinedOutput(); err != nil {
		t.Fatalf("backup after the kill: %v\n%s", err, out)
	}
	entries, _ := os.ReadDir(target)
	for _, e := range entries {
		if _, ok := backup.ParseName(e.Name()); !ok && !strings.HasPrefix(e.Name(), ".hearth-backup-") {
			t.Errorf("unexpected file in the backup directory: %s", e.Name())
		}
	}
	p.stop()
}

// TestBackupToFullDisk: a backup whose target fills up fails with a clear
// message and leaves the earlier backups as they were.
func TestBackupToFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	dataDir := t.TempDir()
	target := filepath.Join(t.TempDir(), "backups")
	p := startHearth(t, dataDir)
	bulk(t, dataDir, 50_000)
	first := backedUp(t, dataDir, target)
	// bash's ulimit -f is in KiB: the process may not write a file past 1 MiB.
	cmd := exec.Command("bash", "-c", `ulimit -f 1024 && exec "$0" backup --to "$1"`, hearthBin(t), target)
	cmd.Env = hearthEnv(dataDir, "127.0.0.1:0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a backup past the file size limit succeeded:\n%s", out)
	}
	msg := string(out)
	t.Logf("full disk: %s", strings.TrimSpace(msg))
	if !strings.Contains(msg, "full") || !strings.Contains(msg, "earlier backups are intact") {
		t.Errorf("the error does not say the target is full: %s", msg)
	}
	after, _ := backup.List(target)
	if len(after) != len(first) || after[0].Name != first[0].Name {
		t.Fatalf("backups changed: %v → %v", first, after)
	}
	if _, err := backup.Verify(context.Background(), after[0].Path, nil); err != nil {
		t.Fatal(err)
	}
	p.stop()
}

// TestRestoreOntoNewMachine is the README's three commands: a backup of a
// running server, `hearth restore` refused while that server runs, then
// restored into an empty data directory and served from there.
func TestRestoreOntoNewMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	dataDir := t.TempDir()
	target := filepath.Join(t.TempDir(), "usb")
	p := startHearth(t, dataDir)
	// confirm: the backup is under test, not the plausibility rule (66.6 kg is
	// a sudden change from the demo's last weigh-in).
	if code, body := p.post("/api/v1/members/maya/weight", `{"weight_kg": 66.6, "confirm": true}`); code != 201 {
		t.Fatalf("write: %d %s", code, body)
	}
	list := backedUp(t, dataDir, target)
	if len(list) != 1 {
		t.Fatalf("backups: %v", list)
	}
	restore := func(dir string) (string, error) {
		cmd := exec.Command(hearthBin(t), "restore", list[0].Path)
		cmd.Env = hearthEnv(dir, "127.0.0.1:0")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := restore(dataDir)
	if err == nil || !strings.Contains(out, "stop it first") {
		t.Fatalf("restore while the server runs: %v\n%s", err, out)
	}
	p.stop()

	fresh := t.TempDir()
	out, err = restore(fresh)
	if err != nil || !strings.Contains(out, "restored") {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	// The new machine serves the restored household.
	q := startHearth(t, fresh, "HEARTH_DEMO=0")
	code, body := q.get("/api/v1/members/maya/weight?limit=1")
	if code != 200 || !strings.Contains(body, `"weight_kg":66.6`) {
		t.Fatalf("restored server: %d %s", code, body)
	}
	q.stop()
	// Restoring over the old machine keeps what it replaces beside it.
	out, err = restore(dataDir)
	if err != nil || !strings.Contains(out, "hearth.db.replaced-") {
		t.Fatalf("restore over existing data: %v\n%s", err, out)
	}
	withDB(t, dataDir, func(db *sql.DB) { integrityOK(t, db) })
}
