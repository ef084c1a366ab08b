package faulttest

import (
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// The hearth binary is built once per test binary, on first use (benchmark
// and fuzz runs of the package build nothing), into binDir.
var (
	binDir    string
	buildOnce sync.Once
	buildErr  error
)

// hearthBin returns the path of the built hearth binary.
func hearthBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		// The tag every build of Hearth needs (see the Makefile).
		build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", filepath.Join(binDir, "hearth"), "hearth/cmd/hearth")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build hearth: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "hearth")
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hearth-faulttest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// syncBuf collects a child's output.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// proc is a running hearth child.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string
	logs   *syncBuf
	exited chan struct{}
	err    error
}

// hearthEnv is the environment of a child over dataDir; extra entries win.
func hearthEnv(dataDir, addr string, extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "HEARTH_ADDR=" + addr,
		"HEARTH_DATA=" + dataDir, "HEARTH_DEMO=1", "HEARTH_TZ=UTC", "HEARTH_LOG_LEVEL=debug"}
	return append(env, extra...)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// launch starts cmd with output captured; the child is killed at cleanup.
func launch(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{t: t, cmd: cmd, logs: &syncBuf{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// startHearth runs the server over dataDir and waits for /healthz.
func startHearth(t *testing.T, dataDir string, extra ...string) *proc {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(hearthBin(t))
	cmd.Env = hearthEnv(dataDir, addr, extra...)
	p := launch(t, cmd)
	p.base = "http://" + addr
	p.waitHealthy(20 * time.Second)
	return p
}

func (p *proc) waitHealthy(d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		select {
		case <-p.exited:
			p.t.Fatalf("hearth exited before answering (%v):\n%s", p.err, p.logs)
		default:
		}
		if code, _ := p.get("/healthz"); code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("hearth did not answer /healthz within %s:\n%s", d, p.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// get fetches path; code 0 means no answer.
func (p *proc) get(path string) (int, string) {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(p.base + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a JSON body like a script would (no browser headers).
func (p *proc) post(path, body string) (int, string) {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post(p.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// kill9 kills the child with SIGKILL, like a power cut for the process.
func (p *proc) kill9() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatal(err)
	}
	<-p.exited
}

// stop sends SIGINT and waits for a clean exit.
func (p *proc) stop() {
	p.t.Helper()
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
		if p.err != nil {
			p.t.Fatalf("hearth stop: %v\n%s", p.err, p.logs)
		}
	case <-time.After(10 * time.Second):
		p.t.Fatalf("hearth did not stop within 10 s of SIGINT:\n%s", p.logs)
	}
}

// waitExit waits for the child to exit on its own and returns its exit code.
func (p *proc) waitExit(d time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(d):
		p.t.Fatalf("still running after %s:\n%s", d, p.logs)
	}
	if p.err == nil {
		return 0
	}
	if ee, ok := p.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	p.t.Fatal(p.err)
	return -1
}

// openDB opens the database file directly (another process may be serving
// it: WAL lets us read alongside).
func openDB(t *testing.T, dataDir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dataDir, "hearth.db")+"?_busy_timeout=5000&_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// withDB runs fn on a short-lived connection and closes it.
func withDB(t *testing.T, dataDir string, fn func(db *sql.DB)) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dataDir, "hearth.db")+"?_busy_timeout=5000&_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fn(db)
}

// integrityOK runs PRAGMA integrity_check and foreign_key_check.
func integrityOK(t *testing.T, db *sql.DB) {
	t.Helper()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	rows, err := db.Query("PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Fatal("foreign_key_check found violations")
	}
}

func count(t *testing.T, db *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}
