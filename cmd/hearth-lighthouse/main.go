// Command hearth-lighthouse measures the kiosk pages with Lighthouse (mobile
// preset: simulated 4× CPU slowdown and slow 4G, a 412×823 phone screen) the
// same way every time: it starts Hearth on a fresh temp data directory with
// the demo household, runs Lighthouse N times against the household page and
// one member's dashboard (alternating, so a noisy neighbour hits both), and
// prints each run and the medians of the performance score, total blocking
// time, LCP, CLS and DOM size, then the median main-thread breakdown that
// says where the blocking time went (BENCHMARKS.md, "Lighthouse").
//
//	make lighthouse                       # installs what it needs, then runs this
//	go run ./cmd/hearth-lighthouse -runs 5 -server bin/hearth \
//	    -lighthouse .cache/lighthouse/node_modules/.bin/lighthouse
//	go run ./cmd/hearth-lighthouse -server /tmp/hearth-before,bin/hearth   # before and after, interleaved
//
// Lighthouse and Chromium are not Go modules: `make lighthouse` installs
// Lighthouse from npm into .cache/lighthouse (never committed) and expects
// Debian's chromium (apt-get install chromium). Each run's JSON report (and
// with -trace its trace) is kept under -out.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

func main() {
	var (
		server   = flag.String("server", "bin/hearth", "the Hearth binary to start (demo household, fresh temp data dir); several, comma separated, are measured in turn each round")
		lhBin    = flag.String("lighthouse", ".cache/lighthouse/node_modules/.bin/lighthouse", "the lighthouse CLI")
		chrome   = flag.String("chrome", "/usr/bin/chromium", "Chromium to drive")
		runs     = flag.Int("runs", 5, "Lighthouse runs per page")
		out      = flag.String("out", "artifacts/lighthouse", "directory for the JSON reports")
		member   = flag.String("member", "", "member id of the dashboard (default: the household page's first)")
		pages    = flag.String("pages", "household,member", "pages to measure: household, member")
		maxWait  = flag.Int("max-wait", 20000, "Lighthouse's --max-wait-for-load in ms: the live stream never ends, so every run waits this long")
		trace    = flag.Bool("trace", false, "keep each run's trace and devtools log (--save-assets) for reading")
		settle   = flag.Duration("settle", 3*time.Second, "wait after the server answers (the demo's first coach runs publish changes)")
		existing = flag.String("url", "", "measure a running server at this base URL instead of starting one")
	)
	flag.Parse()
	if err := run(*server, *lhBin, *chrome, *out, *member, *pages, *existing, *runs, *maxWait, *trace, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "hearth-lighthouse:", err)
		os.Exit(1)
	}
}

func run(server, lhBin, chrome, out, member, pages, base string, runs, maxWait int, trace bool, settle time.Duration) error {
	for _, p := range []string{lhBin, chrome} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("%s not found (make lighthouse installs Lighthouse; Debian: apt-get install chromium): %w", p, err)
		}
	}
	for _, p := range strings.Split(pages, ",") {
		if p != "household" && p != "member" {
			return fmt.Errorf("unknown page %q (household, member)", p)
		}
	}
	// One target per server and page. Several servers (-server a,b: a
	// before and an after binary) are measured in turn within each round,
	// so the machine's load falls on all of them alike.
	type target struct{ label, url, file string }
	var targets []target
	var bases []string
	var labels []string
	if base != "" {
		bases, labels = []string{base}, []string{base}
	} else {
		for _, bin := range strings.Split(server, ",") {
			srv, err := startServer(context.Background(), bin)
			if err != nil {
				return err
			}
			defer srv.stop()
			bases, labels = append(bases, srv.base), append(labels, bin)
		}
		time.Sleep(settle)
	}
	for i, b := range bases {
		m := member
		if m == "" {
			var err error
			if m, err = firstMember(b); err != nil {
				return err
			}
		}
		for _, p := range strings.Split(pages, ",") {
			url := b + "/"
			if p == "member" {
				url = b + "/m/" + m
			}
			label, file := p, p
			if len(bases) > 1 {
				label = labels[i] + " " + p
				file = fmt.Sprintf("s%d-%s", i+1, p)
			}
			targets = append(targets, target{label, url, file})
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	fmt.Printf("lighthouse %s, %s, %d runs per page, mobile preset (simulated throttling), max wait %d ms\n",
		version(lhBin, "--version"), version(chrome, "--version"), runs, maxWait)
	results := map[string][]report{}
	for i := 1; i <= runs; i++ {
		for _, tg := range targets {
			r, err := lighthouse(lhBin, chrome, tg.url, filepath.Join(out, fmt.Sprintf("%s-%d", tg.file, i)), maxWait, trace)
			if err != nil {
				return fmt.Errorf("%s run %d: %w", tg.label, i, err)
			}
			results[tg.label] = append(results[tg.label], r)
			fmt.Printf("%-9s run %d: %s\n", tg.label, i, r.summary())
		}
	}
	for _, tg := range targets {
		fmt.Printf("\n== %s (%s): median of %d ==\n", tg.label, tg.url, runs)
		printMedians(os.Stdout, results[tg.label])
	}
	return nil
}

// lighthouse runs the CLI once and reads its JSON report.
func lighthouse(lhBin, chrome, url, path string, maxWait int, trace bool) (report, error) {
	args := []string{url,
		"--only-categories=performance",
		"--output=json", "--output-path=" + path + ".json",
		"--chrome-path=" + chrome,
		// Headless, as on a server; the sandbox needs user namespaces a
		// container may not have; /dev/shm may be small.
		"--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
		fmt.Sprintf("--max-wait-for-load=%d", maxWait),
		"--quiet",
	}
	if trace {
		args = append(args, "--save-assets")
	}
	cmd := exec.Command(lhBin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return report{}, fmt.Errorf("%w: %s", err, tail(stderr.String(), 2000))
	}
	b, err := os.ReadFile(path + ".json")
	if err != nil {
		return report{}, err
	}
	return parseReport(b)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func version(bin, flag string) string {
	b, err := exec.Command(bin, flag).Output()
	if err != nil {
		return bin + " (version unknown)"
	}
	return strings.TrimSpace(string(b))
}

var memberLink = regexp.MustCompile(`href="/m/([a-z0-9_-]+)"`)

func firstMember(base string) (string, error) {
	resp, err := http.Get(base + "/")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	m := memberLink.FindSubmatch(b)
	if m == nil {
		return "", errors.New("no member link on the household page")
	}
	return string(m[1]), nil
}

// server is the Hearth child process.
type server struct {
	base string
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
}

func startServer(ctx context.Context, bin string) (*server, error) {
	dir, err := os.MkdirTemp("", "hearth-lighthouse-")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HEARTH_ADDR="+addr, "HEARTH_DATA="+dir, "HEARTH_DEMO=1", "HEARTH_LOG_LEVEL=warn")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the tool
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{base: "http://" + addr, dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(s.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("server exited (log: %s)", logf.Name())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("server did not answer /healthz in 30 s (log: %s)", logf.Name())
		}
	}
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	_ = os.RemoveAll(s.dir)
}
