//go:build linux

package faulttest

import (
	"database/sql"
	"fmt"
	"hearth/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// noPanic fails if a child's output shows a panic or a goroutine dump.
func noPanic(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "panic:") || strings.Contains(out, "goroutine ") {
		t.Fatalf("the server panicked:\n%s", out)
	}
}

// seededDataDir creates a database with the demo household in a fresh dir
// (mode 0755, so another user may read it) and returns the dir.
func seededDataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hearth-fault-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755); _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := startHearth(t, dir)
	p.stop()
	return dir
}

// asUnprivileged runs cmd as nobody when the test runs as root (root
// ignores file modes); otherwise as the current user.
func asUnprivileged(t *testing.T, cmd *exec.Cmd, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	for _, p := range []string{dir, filepath.Dir(hearthBin(t))} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range append([]string{dir}, names(dir, entries)...) {
		if err := os.Lchown(e, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}

func names(dir string, es []os.DirEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = filepath.Join(dir, e.Name())
	}
	return out
}

// TestReadOnlyDatabase: with the database file, its directory, or both
// read-only the server refuses to start with a message naming the file, the
// cause and what to check, and exits 1, without a panic and without a restart loop of its own.
func TestReadOnlyDatabase(t *testing.T) {
	for _, c := range []struct{ name, file, dir string }{
		{"file and dir", "0444", "0555"},
		{"file only", "0444", "0755"},
		{"dir only", "0644", "0555"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := seededDataDir(t)
			cmd := exec.Command(hearthBin(t))
			cmd.Env = hearthEnv(dir, freeAddr(t))
			asUnprivileged(t, cmd, dir)
			chmod(t, filepath.Join(dir, "hearth.db"), c.file)
			chmod(t, dir, c.dir)
			t.Cleanup(func() { chmod(t, dir, "0755"); chmod(t, filepath.Join(dir, "hearth.db"), "0644") })
			start := time.Now()
			p := launch(t, cmd)
			code := p.waitExit(10 * time.Second)
			out := p.logs.String()
			t.Logf("exit %d after %s: %s", code, time.Since(start).Round(time.Millisecond), lastLine(out))
			if code != 1 {
				t.Fatalf("exit code %d, want 1:\n%s", code, out)
			}
			if !strings.Contains(out, "readonly database") && !strings.Contains(out, "permission denied") {
				t.Fatalf("no clear reason in the output:\n%s", out)
			}
			if last := lastLine(out); !strings.Contains(last, filepath.Join(dir, "hearth.db")) || !strings.Contains(last, "check the permissions") {
				t.Fatalf("the error does not name the database file and what to check:\n%s", out)
			}
			noPanic(t, out)
		})
	}
}

func chmod(t *testing.T, path, mode string) {
	t.Helper()
	var m uint32
	if _, err := fmt.Sscanf(mode, "%o", &m); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, os.FileMode(m)); err != nil {
		t.Fatal(err)
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// setFileSizeLimit applies RLIMIT_FSIZE to a running process (prlimit(2)):
// its writes past n bytes in any file fail with EFBIG, like a full disk.
func setFileSizeLimit(pid int, n uint64) error {
	lim := syscall.Rlimit{Cur: n, Max: n}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), uintptr(syscall.RLIMIT_FSIZE),
		uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// TestDiskFullWhileServing: once the database can no longer grow, writes
// fail with an error answer while pages, the API's reads and /healthz keep
// answering and the process keeps running; after a restart with room again
// the database is intact and holds exactly the writes that were confirmed.
func TestDiskFullWhileServing(t *testing.T) {
	dir := seededDataDir(t)
	var before int
	withDB(t, dir, func(db *sql.DB) {
		before = count(t, db, `SELECT count(*) FROM weight_readings WHERE member_id = 'maya'`)
	})
	p := startHearth(t, dir)
	st, err := os.Stat(filepath.Join(dir, "hearth.db"))
	if err != nil {
		t.Fatal(err)
	}
	// Room for a few dozen commits in the WAL, none for the file to grow.
	if err := setFileSizeLimit(p.cmd.Process.Pid, uint64(st.Size())+96<<10); err != nil {
		testkit.Need(t, false, fmt.Sprintf("prlimit: %v", err))
	}
	ok, failed := 0, 0
	var failBody string
	for i := 0; i < 400 && failed < 5; i++ {
		code, body := p.post("/api/v1/members/maya/weight", `{"weight_kg": 70.5}`)
		switch {
		case code == 201:
			ok++
		case code >= 400:
			failed++
			failBody = fmt.Sprintf("%d %s", code, body)
		default:
			t.Fatalf("write answered %d %s", code, body)
		}
	}
	if failed == 0 {
		t.Fatalf("%d writes succeeded and none failed: the limit did not bite", ok)
	}
	t.Logf("disk full after %d writes; a failed write answers %s", ok, failBody)
	if !strings.HasPrefix(failBody, "507 ") || !strings.Contains(failBody, "disk is full") {
		t.Errorf("a write on a full disk answered %s, want 507 naming the full disk", failBody)
	}
	select {
	case <-p.exited:
		t.Fatalf("the server exited on a full disk:\n%s", p.logs)
	default:
	}
	for _, path := range []string{"/m/maya", "/api/v1/members/maya/weight", "/"} {
		if code, _ := p.get(path); code != 200 {
			t.Errorf("GET %s with a full disk: %d", path, code)
		}
	}
	hc, hbody := p.get("/healthz")
	t.Logf("/healthz with a full disk: %d %s", hc, strings.TrimSpace(hbody))
	if hc != 503 || !strings.Contains(hbody, "disk is full") {
		t.Errorf("/healthz after failed writes answered %d %s, want 503 naming the full disk", hc, hbody)
	}
	logs := p.logs.String()
	if !strings.Contains(logs, "file too large") && !strings.Contains(logs, "disk is full") {
		t.Errorf("the log does not name the cause:\n%s", lastLine(logs))
	}
	noPanic(t, logs)
	p.kill9() // the worst moment: the WAL is full

	again := startHearth(t, dir)
	again.stop()
	withDB(t, dir, func(db *sql.DB) {
		integrityOK(t, db)
		if n := count(t, db, `SELECT count(*) FROM weight_readings WHERE member_id = 'maya'`); n != before+ok {
			t.Errorf("maya has %d weigh-ins, want %d before + %d confirmed", n, before, ok)
		}
	})
}

// TestDiskFullAtStart: a data directory that cannot hold a new database
// makes the server exit 1 with the reason, without a panic.
func TestDiskFullAtStart(t *testing.T) {
	dir := t.TempDir()
	// ulimit -f counts 512-byte blocks: 64 KiB, far less than the schema needs.
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 128 && exec "$0"`, hearthBin(t))
	cmd.Env = hearthEnv(dir, freeAddr(t))
	p := launch(t, cmd)
	code := p.waitExit(15 * time.Second)
	out := p.logs.String()
	t.Logf("exit %d: %s", code, lastLine(out))
	if code != 1 {
		t.Fatalf("exit code %d, want 1:\n%s", code, out)
	}
	if !strings.Contains(out, "file too large") && !strings.Contains(out, "disk is full") && !strings.Contains(out, "disk I/O error") {
		t.Fatalf("no clear reason in the output:\n%s", out)
	}
	noPanic(t, out)
}
