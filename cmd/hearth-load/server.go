package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"hearth/internal/debugvars"
)

// target is the Hearth server under load: a child process the tool started
// (pid known, data dir owned) or an existing loopback server.
type target struct {
	base    string // http://127.0.0.1:port
	pid     int    // 0 when unknown: no RSS figures
	dataDir string // the child's data dir ("" for an existing server)
	self    bool   // the child is this tool in serve mode (/_load/static)
	token   string // bearer for /debug/vars when the server has an API token
	cmd     *exec.Cmd
	exited  chan error
	logPath string
	// Ready is exec start → first 200 from /healthz; FirstPage adds GET /.
	Ready, FirstPage time.Duration
}

// snapshot is the server's resource use at one moment.
type snapshot struct {
	RSS        uint64 `json:"rss_bytes"`
	RSSAnon    uint64 `json:"rss_anon_bytes"` // heap, stacks, SQLite caches
	RSSFile    uint64 `json:"rss_file_bytes"` // mapped binary and libraries
	Goroutines int    `json:"goroutines"`     // -1: the server exposes no /debug/vars
	OpenFiles  int    `json:"open_files"`     // -1: unknown (no pid)
	HeapAlloc  uint64 `json:"heap_alloc_bytes"`
	Stacks     uint64 `json:"stack_bytes"`
	GoTotal    uint64 `json:"go_total_bytes"` // all memory the Go runtime mapped
}

func (s snapshot) String() string {
	g := "n/a"
	if s.Goroutines >= 0 {
		g = fmt.Sprint(s.Goroutines)
	}
	fds := "n/a"
	if s.OpenFiles >= 0 {
		fds = fmt.Sprint(s.OpenFiles)
	}
	heap := "n/a"
	if s.HeapAlloc > 0 {
		heap = mib(s.HeapAlloc)
	}
	if s.GoTotal > 0 {
		heap += fmt.Sprintf(" stacks=%s go-total=%s", mib(s.Stacks), mib(s.GoTotal))
	}
	return fmt.Sprintf("rss=%s (anon %s, file %s) goroutines=%s fds=%s heap=%s", mib(s.RSS), mib(s.RSSAnon), mib(s.RSSFile), g, fds, heap)
}

// freeLoopbackAddr picks a free port on 127.0.0.1.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startServer starts bin (this executable in serve mode when bin is "self")
// on a free loopback port over a fresh temp data dir with the demo
// household, and waits until it answers.
func startServer(ctx context.Context, bin string, extraEnv []string) (*target, error) {
	dir, err := os.MkdirTemp("", "hearth-load-")
	if err != nil {
		return nil, err
	}
	t := &target{dataDir: dir, self: bin == "self", exited: make(chan error, 1), logPath: filepath.Join(dir, "server.log")}
	if err := t.spawn(ctx, bin, extraEnv); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return t, nil
}

// spawn (re)starts the child on a new port over t.dataDir.
func (t *target) spawn(ctx context.Context, bin string, extraEnv []string) error {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return err
	}
	args := []string{}
	if bin == "self" {
		if bin, err = os.Executable(); err != nil {
			return err
		}
		args = append(args, "serve")
	}
	logf, err := os.OpenFile(t.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	// The load comes from one loopback address: lift the stream caps that
	// protect a household server from one client.
	cmd.Env = append(os.Environ(), "HEARTH_ADDR="+addr, "HEARTH_DATA="+t.dataDir, "HEARTH_DEMO=1",
		"HEARTH_LOAD_STATIC="+filepath.Join(t.dataDir, "loadstatic"),
		"HEARTH_MAX_STREAMS=100000", "HEARTH_MAX_STREAMS_PER_CLIENT=100000")
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the tool
	start := time.Now()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", bin, err)
	}
	t.cmd, t.pid, t.base = cmd, cmd.Process.Pid, "http://"+addr
	t.exited = make(chan error, 1)
	go func() { t.exited <- cmd.Wait(); logf.Close() }()
	if err := t.waitReady(ctx, start, 30*time.Second); err != nil {
		t.kill()
		return fmt.Errorf("%w (server log: %s)", err, t.logPath)
	}
	return nil
}

// waitReady polls /healthz every 2 ms, then fetches the household page once.
func (t *target) waitReady(ctx context.Context, start time.Time, limit time.Duration) error {
	c := &http.Client{Timeout: 2 * time.Second}
	deadline := start.Add(limit)
	for {
		select {
		case err := <-t.exited:
			return fmt.Errorf("server exited before answering: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if resp, err := c.Get(t.base + "/healthz"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Ready = time.Since(start)
				break
			}
		}
		if time.Now().After(deadline) {
			return errors.New("server did not answer /healthz in time")
		}
		time.Sleep(2 * time.Millisecond)
	}
	resp, err := c.Get(t.base + "/")
	if err != nil {
		return fmt.Errorf("GET /: %w", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	t.FirstPage = time.Since(start)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /: status %d", resp.StatusCode)
	}
	return nil
}

// stop sends SIGINT and waits up to 10 s (then SIGKILL); it returns how long
// the graceful stop took.
func (t *target) stop() (time.Duration, error) {
	if t.cmd == nil {
		return 0, nil
	}
	start := time.Now()
	_ = t.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-t.exited:
		t.cmd = nil
		return time.Since(start), err
	case <-time.After(10 * time.Second):
		t.kill()
		return time.Since(start), errors.New("server did not stop within 10 s of SIGINT; killed")
	}
}

func (t *target) kill() {
	if t.cmd == nil {
		return
	}
	_ = t.cmd.Process.Kill()
	<-t.exited
	t.cmd = nil
}

// cleanup stops a child and removes its data dir.
func (t *target) cleanup() {
	t.kill()
	if t.dataDir != "" {
		_ = os.RemoveAll(t.dataDir)
	}
}

// snap reads the server's RSS and open files (/proc, needs the pid) and its
// goroutines and heap (/debug/vars, when the server has it).
func (t *target) snap() snapshot { return t.snapshot(false) }

// quiet is snap after a garbage collection in the server (/debug/vars?gc=1):
// the heap figure is then live data, comparable between phases.
func (t *target) quiet() snapshot { return t.snapshot(true) }

func (t *target) snapshot(gc bool) snapshot {
	s := snapshot{Goroutines: -1, OpenFiles: -1}
	if t.pid > 0 {
		st := debugvars.Status(t.pid)
		s.RSS, s.RSSAnon, s.RSSFile = st["VmRSS"], st["RssAnon"], st["RssFile"]
		s.OpenFiles = debugvars.OpenFiles(t.pid)
	}
	c := &http.Client{Timeout: 2 * time.Second}
	u := t.base + "/debug/vars"
	if gc {
		u += "?gc=1"
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return s
	}
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return s
	}
	defer resp.Body.Close()
	var v debugvars.Vars
	if resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&v) == nil {
		s.Goroutines, s.HeapAlloc, s.Stacks, s.GoTotal = v.Goroutines, v.HeapAlloc, v.StackSys, v.GoTotal
		if s.RSS == 0 {
			s.RSS = v.RSS
		}
	}
	return s
}

// loopbackURL checks that raw names a server on this machine.
func loopbackURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("-url %q: want http://127.0.0.1:PORT", raw)
	}
	host := u.Hostname()
	ips, err := net.LookupIP(host)
	if ip := net.ParseIP(host); ip != nil {
		ips, err = []net.IP{ip}, nil
	}
	if err != nil || len(ips) == 0 {
		return "", fmt.Errorf("-url %q: cannot resolve %q", raw, host)
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return "", fmt.Errorf("-url %q: refusing a non-loopback target (%s); hearth-load only loads this machine", raw, ip)
		}
	}
	return u.Scheme + "://" + u.Host, nil
}
