package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"hearth/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
)

// durabilityChild runs in a child process under strace: it commits single
// weigh-ins and, after each commit returned, makes a marker system call
// (a write to a descriptor that does not exist) that strace records.
func durabilityChild(path, mode string, n int) error {
	ctx := context.Background()
	var add func(i int) error
	switch mode {
	case "store": // the app's own handle: synchronous=FULL
		db, err := store.Open(ctx, path, nil)
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
			return err
		}
		add = func(i int) error {
			_, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(int64(1_700_000_000+i), 0), WeightKg: 70})
			return err
		}
	case "normal": // a connection with synchronous=NORMAL, to show the instrument can tell
		db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=NORMAL")
		if err != nil {
			return err
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		if _, err := db.Exec(`CREATE TABLE t (v)`); err != nil {
			return err
		}
		add = func(i int) error { _, err := db.Exec(`INSERT INTO t VALUES (?)`, i); return err }
	}
	for i := range n {
		if err := add(i); err != nil {
			return err
		}
		_, _ = syscall.Write(1023, []byte(fmt.Sprintf("ack %d", i)))
	}
	return nil
}

func TestMain(m *testing.M) {
	if mode := os.Getenv("HEARTH_DURABILITY_CHILD"); mode != "" {
		if err := durabilityChild(os.Getenv("HEARTH_DURABILITY_DB"), mode, 20); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var (
	ackRE  = regexp.MustCompile(`write\(1023, "ack (\d+)"`)
	syncRE = regexp.MustCompile(`\b(fsync|fdatasync)\(\d+`)
)

// syncsBeforeAcks runs the child under strace and returns, for each
// acknowledged commit, how many fsync/fdatasync calls happened between the
// previous acknowledgement and this one.
func syncsBeforeAcks(t *testing.T, mode string) []int {
	t.Helper()
	strace := testkit.NeedTool(t, "strace", "strace")
	dir := t.TempDir()
	log := filepath.Join(dir, "strace.log")
	cmd := exec.Command(strace, "-f", "-qq", "-e", "trace=fsync,fdatasync,write", "-e", "signal=none", "-o", log,
		os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "HEARTH_DURABILITY_CHILD="+mode, "HEARTH_DURABILITY_DB="+filepath.Join(dir, "h.db"))
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "PTRACE") || strings.Contains(string(out), "Operation not permitted") {
			testkit.Need(t, false, fmt.Sprintf("strace cannot trace here (ptrace is not permitted): %s", out))
		}
		t.Fatalf("child: %v\n%s", err, out)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	syncs := 0
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case ackRE.MatchString(line):
			out = append(out, syncs)
			syncs = 0
		case syncRE.MatchString(line) && !strings.Contains(line, "unfinished"):
			syncs++
		case strings.Contains(line, "fdatasync resumed") || strings.Contains(line, "fsync resumed"):
			syncs++
		}
	}
	if len(out) != 20 {
		t.Fatalf("saw %d acknowledgements in the trace, want 20", len(out))
	}
	return out
}

// Every commit Hearth acknowledges was fsynced before the commit returned
// (synchronous=FULL), so a power cut cannot take it back; with NORMAL, the
// same trace shows commits acknowledged without any sync.
func TestAcknowledgedCommitsAreSynced(t *testing.T) {
	if testing.Short() {
		t.Skip("traces a child process")
	}
	for i, n := range syncsBeforeAcks(t, "store") {
		if n == 0 {
			t.Errorf("commit %d was acknowledged with no fsync before it", i)
		}
	}
	unsynced := 0
	for _, n := range syncsBeforeAcks(t, "normal") {
		if n == 0 {
			unsynced++
		}
	}
	if unsynced == 0 {
		t.Fatal("the instrument sees syncs under synchronous=NORMAL too: it cannot tell")
	}
	t.Logf("synchronous=NORMAL: %d of 20 commits acknowledged without a sync", unsynced)
}
