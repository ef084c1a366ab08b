package faulttest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/backup"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// The real binary on an older Hearth's database: it logs the backup it
// takes before migrating, migrates, serves, and the archive holds the old
// schema.
func TestBinaryUpgradesOlderDatabase(t *testing.T) {
	dir := t.TempDir()
	missing := storetest.OlderSchema(t, filepath.Join(dir, "hearth.db"))
	before, err := store.FileSchema(context.Background(), filepath.Join(dir, "hearth.db"))
	if err != nil {
		t.Fatal(err)
	}
	p := startHearth(t, dir, "HEARTH_LOG_LEVEL=info")
	p.stop()
	logs := p.logs.String()
	as, err := backup.List(filepath.Join(dir, "backups"))
	if err != nil || len(as) != 1 || as[0].Schema != before.Version {
		t.Fatalf("backups %+v %v\n%s", as, err, logs)
	}
	if !strings.Contains(logs, `msg="backed up before upgrading" archive=`+as[0].Path) ||
		!strings.Contains(logs, fmt.Sprintf(`msg="migration applied" version=%d`, missing)) {
		t.Fatalf("the log does not tell the backup, then the migration:\n%s", logs)
	}
	if strings.Index(logs, "backed up before upgrading") > strings.Index(logs, "migration applied") {
		t.Fatal("migrated before the backup was made")
	}
}

// The real binary on a database a newer Hearth migrated: it refuses with
// exit status 3 (the service does not restart on it), says why, and leaves
// every file of the data directory as it was.
func TestBinaryRefusesNewerDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hearth.db")
	storetest.NewerSchema(t, path)
	snapshot := func() string {
		var b strings.Builder
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == "hearth.db.lock" { // the server's lock file, created empty at start
				continue
			}
			c, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			fmt.Fprintf(&b, "%s %x\n", e.Name(), c)
		}
		return b.String()
	}
	before := snapshot()

	cmd := exec.Command(hearthBin(t))
	cmd.Env = hearthEnv(dir, freeAddr(t))
	p := launch(t, cmd)
	if code := p.waitExit(30 * time.Second); code != 3 {
		t.Fatalf("exit status %d, want 3:\n%s", code, p.logs)
	}
	if !strings.Contains(p.logs.String(), "written by a newer version of Hearth") || !strings.Contains(p.logs.String(), "nothing was changed") {
		t.Fatalf("no clear refusal:\n%s", p.logs)
	}
	if after := snapshot(); !bytes.Equal([]byte(after), []byte(before)) {
		t.Fatalf("the data directory changed:\n%s\nwas\n%s", after, before)
	}
}
