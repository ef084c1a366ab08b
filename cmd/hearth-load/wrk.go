package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// httpSuite measures HTTP throughput with wrk (C, event loop: on this
// hardware it drives a bare Go static server far faster than any Go load
// tool), side by side in one run: Hearth's dashboard page, a static asset
// and /healthz against a bare net/http server serving the same page bytes
// on the same cores. Ratios to that bare server are the figures that count:
// it is the physical limit of this machine for these bytes.
//
//	hearth-load http                 2 wrk threads, 32 connections, 5 s × 3 rounds
//	hearth-load http -pin            servers on CPU 0 with GOMAXPROCS=1, wrk on CPU 1
type wrkCase struct {
	Name   string    `json:"name"`
	URL    string    `json:"url"`
	RPS    []float64 `json:"rps"`
	Median float64   `json:"rps_median"`
	Bytes  int       `json:"bytes_per_response"`
	// ToolCores and ServerCores are CPU use during the case (cores).
	ToolCores   []float64 `json:"wrk_cores"`
	ServerCores []float64 `json:"server_cores"`
	headers     []string
	pid         int
}

type wrkReport struct {
	Machine  machine            `json:"machine"`
	Pinned   bool               `json:"pinned"`
	Threads  int                `json:"wrk_threads"`
	Conns    int                `json:"wrk_connections"`
	Duration string             `json:"duration_each"`
	Rounds   int                `json:"rounds"`
	Cases    []*wrkCase         `json:"cases"`
	Ratios   map[string]float64 `json:"ratios"`
	Notes    []string           `json:"notes,omitempty"`
}

func httpSuite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hearth-load http", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "self", `Hearth binary to start ("self" = this tool's serve mode)`)
	rounds := fs.Int("rounds", 3, "rounds over every case (medians are reported)")
	dur := fs.Duration("d", 5*time.Second, "wrk duration per case")
	conns := fs.Int("c", 32, "wrk connections")
	threads := fs.Int("t", 2, "wrk threads")
	pin := fs.Bool("pin", false, "servers on CPU 0 with GOMAXPROCS=1 (a Pi-class core), wrk on CPU 1")
	jsonOut := fs.String("json", "", "also write the report as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rounds < 1 || *rounds > 20 || *dur < time.Second || *dur > time.Minute || *conns < 1 || *conns > 1024 || *threads < 1 || *threads > 16 {
		return errors.New("want -rounds 1..20, -d 1s..1m, -c 1..1024, -t 1..16")
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk is not installed: it is the HTTP load reference (Debian/Ubuntu: sudo apt-get install wrk; macOS: brew install wrk)")
	}
	if *pin {
		if _, err := exec.LookPath("taskset"); err != nil {
			return errors.New("-pin needs taskset (util-linux)")
		}
		if *threads > 1 {
			*threads = 1 // one core for wrk
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*rounds)*7*(*dur+2*time.Second)+2*time.Minute)
	defer cancel()
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s  %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	}
	var env []string
	if *pin {
		env = append(env, "GOMAXPROCS=1")
	}
	logf("starting Hearth (%s) and a copy with access logging off", *server)
	hearth, err := startServer(ctx, *server, env)
	if err != nil {
		return err
	}
	defer hearth.cleanup()
	quiet, err := startServer(ctx, *server, append(env, "HEARTH_LOG_LEVEL=error"))
	if err != nil {
		return err
	}
	defer quiet.cleanup()

	c := streamClient(2)
	members, err := listMembers(ctx, c, hearth.base, nil)
	if err != nil {
		return err
	}
	page := "/m/" + members[0].id
	cookie, body, err := kioskVisit(ctx, hearth.base, page)
	if err != nil {
		return err
	}
	qcookie, _, err := kioskVisit(ctx, quiet.base, page)
	if err != nil {
		return err
	}
	dir := filepath.Join(hearth.dataDir, "bare")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), body, 0o644); err != nil {
		return err
	}
	bareURL, barePID, stopBare, err := startBare(ctx, dir, env)
	if err != nil {
		return err
	}
	defer stopBare()
	asset, err := assetURL(body, "datastar")
	if err != nil {
		return err
	}
	if *pin {
		for _, pid := range []int{hearth.pid, quiet.pid, barePID} {
			if out, err := exec.Command("taskset", "-a", "-pc", "0", strconv.Itoa(pid)).CombinedOutput(); err != nil {
				return fmt.Errorf("taskset %d: %v: %s", pid, err, out)
			}
		}
	}
	ck := "Cookie: hearth_csrf=" + cookie
	cases := []*wrkCase{
		{Name: "bare net/http, same page bytes", URL: bareURL + "/page.html", pid: barePID},
		{Name: "page (kiosk with its cookie)", URL: hearth.base + page, headers: []string{ck}, pid: hearth.pid},
		{Name: "page, gzip", URL: hearth.base + page, headers: []string{ck, "Accept-Encoding: gzip"}, pid: hearth.pid},
		{Name: "page, revalidated (304)", URL: hearth.base + page, headers: []string{ck}, pid: hearth.pid},
		{Name: "page, first visit (no cookie)", URL: hearth.base + page, pid: hearth.pid},
		{Name: "page, access log off", URL: quiet.base + page, headers: []string{"Cookie: hearth_csrf=" + qcookie}, pid: quiet.pid},
		{Name: "static " + asset, URL: hearth.base + asset, pid: hearth.pid},
		{Name: "/healthz", URL: hearth.base + "/healthz", pid: hearth.pid},
	}
	rep := wrkReport{Machine: describeMachine(), Pinned: *pin, Threads: *threads, Conns: *conns, Duration: dur.String(), Rounds: *rounds, Cases: cases}
	for r := 0; r < *rounds; r++ {
		for i := range cases {
			k := cases[(i+r)%len(cases)] // rotate the order: no case always runs first
			if k == cases[3] {
				// The page's current ETag (the demo plan may have been
				// written since the last round). A server without ETags
				// (an older Hearth) has no 304 case.
				etag, err := pageETag(ctx, hearth.base+page, cookie)
				if err != nil {
					logf("%s: %v; case skipped", k.Name, err)
					continue
				}
				k.headers = []string{ck, "If-None-Match: " + etag}
			}
			rps, bytes, tool, srv, err := runWrk(ctx, wrk, k, *threads, *conns, *dur, *pin)
			if err != nil {
				return fmt.Errorf("%s: %w", k.Name, err)
			}
			k.RPS, k.ToolCores, k.ServerCores, k.Bytes = append(k.RPS, rps), append(k.ToolCores, tool), append(k.ServerCores, srv), bytes
			logf("round %d  %-40s %9.0f req/s  wrk %.2f cores  server %.2f cores", r+1, k.Name, rps, tool, srv)
		}
	}
	for _, k := range cases {
		k.Median = medianF(k.RPS)
	}
	b := cases[0].Median
	rep.Ratios = map[string]float64{
		"page/bare":               cases[1].Median / b,
		"page_gzip/bare":          cases[2].Median / b,
		"page_304/bare":           cases[3].Median / b,
		"page_new_client/bare":    cases[4].Median / b,
		"access_log_cost":         1 - cases[1].Median/cases[5].Median,
		"static/bare":             cases[6].Median / b,
		"healthz/bare":            cases[7].Median / b,
		"wrk_cores_against_bare":  medianF(cases[0].ToolCores),
		"bare_server_cores":       medianF(cases[0].ServerCores),
		"hearth_page_server_core": medianF(cases[1].ServerCores),
		"page/bare_per_cpu":       perCPU(cases[1]) / perCPU(cases[0]),
		"page_gzip/bare_per_cpu":  perCPU(cases[2]) / perCPU(cases[0]),
		"access_log_cost_per_cpu": 1 - perCPU(cases[1])/perCPU(cases[5]),
	}
	if *pin && medianF(cases[0].ServerCores) < 0.9 {
		rep.Notes = append(rep.Notes, "the pinned bare server used less than 0.9 of its core: wrk, not the server, may have been the limit")
	}
	if !*pin && medianF(cases[0].ToolCores) > 0.9*float64(*threads) {
		rep.Notes = append(rep.Notes, "wrk used nearly all of its threads against the bare server: it may be the limit there")
	}
	printWrk(stdout, rep)
	if *jsonOut != "" {
		j, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonOut, j, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// kioskVisit loads the household view and the member page like a kiosk's
// first visit and returns the CSRF cookie it was given and the page bytes.
func kioskVisit(ctx context.Context, base, page string) (cookie string, body []byte, err error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+page, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("GET %s: %d %v", page, resp.StatusCode, err)
	}
	for _, c := range resp.Cookies() {
		if c.Name == "hearth_csrf" {
			cookie = c.Value
		}
	}
	if cookie == "" {
		return "", nil, errors.New("no CSRF cookie on the first visit")
	}
	// The bytes a kiosk holding this cookie gets (the token is theirs).
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, base+page, nil)
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: cookie})
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp2.Body.Close()
	body, err = io.ReadAll(resp2.Body)
	return cookie, body, err
}

func pageETag(ctx context.Context, u, cookie string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: cookie})
	req.Header.Set("Accept-Encoding", "identity") // wrk's 304 case asks for the identity copy
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if e := resp.Header.Get("ETag"); e != "" {
		return e, nil
	}
	return "", errors.New("the page has no ETag")
}

var assetRe = regexp.MustCompile(`src="(/static/[^"]+\.js)"`)

// assetURL finds the page's link to the named script.
func assetURL(page []byte, name string) (string, error) {
	for _, m := range assetRe.FindAllSubmatch(page, -1) {
		if strings.Contains(string(m[1]), name) {
			return string(m[1]), nil
		}
	}
	return "", fmt.Errorf("the page links no %s script (run make assets)", name)
}

// startBare runs this tool's bare static server as a child.
func startBare(ctx context.Context, dir string, env []string) (base string, pid int, stop func(), err error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return "", 0, nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return "", 0, nil, err
	}
	cmd := exec.Command(self, "bare", "-addr", addr, "-dir", dir)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", 0, nil, err
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	base = "http://" + addr
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := get(ctx, http.DefaultClient, base+"/page.html"); err == nil {
			return base, cmd.Process.Pid, stop, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			stop()
			return "", 0, nil, errors.New("bare server did not answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	wrkRPS = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkXfr = regexp.MustCompile(`(\d+) requests in [^,]+, ([0-9.]+)([KMG]?B) read`)
)

// runWrk runs one wrk case and returns req/s, bytes per response, and the
// CPU cores wrk and the server used meanwhile.
func runWrk(ctx context.Context, wrk string, k *wrkCase, threads, conns int, d time.Duration, pin bool) (rps float64, per int, tool, srv float64, err error) {
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns), "-d", fmt.Sprintf("%ds", int(d.Seconds()))}
	for _, h := range k.headers {
		args = append(args, "-H", h)
	}
	args = append(args, k.URL)
	name := wrk
	if pin {
		args = append([]string{"-c", "1", wrk}, args...)
		name = "taskset"
	}
	cmd := exec.CommandContext(ctx, name, args...)
	before := cpuTicks(k.pid)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start).Seconds()
	after := cpuTicks(k.pid)
	if err != nil {
		return 0, 0, 0, 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	m := wrkRPS.FindSubmatch(out)
	if m == nil {
		return 0, 0, 0, 0, fmt.Errorf("no Requests/sec in wrk output: %s", out)
	}
	rps, _ = strconv.ParseFloat(string(m[1]), 64)
	if strings.Contains(string(out), "Non-2xx or 3xx responses") {
		return 0, 0, 0, 0, fmt.Errorf("wrk saw error responses: %s", out)
	}
	if x := wrkXfr.FindSubmatch(out); x != nil {
		n, _ := strconv.ParseFloat(string(x[1]), 64)
		v, _ := strconv.ParseFloat(string(x[2]), 64)
		mult := map[string]float64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[string(x[3])]
		if n > 0 {
			per = int(v * mult / n)
		}
	}
	ps := cmd.ProcessState
	tool = (ps.UserTime() + ps.SystemTime()).Seconds() / wall
	if before >= 0 && after >= 0 {
		srv = float64(after-before) / clockTicks / wall
	}
	return rps, per, tool, srv, nil
}

// perCPU is the median over rounds of requests per second of server CPU:
// on a shared machine a server that got less CPU in one case serves fewer
// requests for that reason alone; per CPU-second compares the work each
// request costs. Both figures are reported; they agree on a quiet machine.
func perCPU(k *wrkCase) float64 {
	if len(k.RPS) == 0 {
		return 0
	}
	var xs []float64
	for i, v := range k.RPS {
		if i < len(k.ServerCores) && k.ServerCores[i] > 0 {
			xs = append(xs, v/k.ServerCores[i])
		}
	}
	return medianF(xs)
}

func printWrk(w io.Writer, r wrkReport) {
	pin := "unpinned (both cores shared)"
	if r.Pinned {
		pin = "servers pinned to CPU 0, GOMAXPROCS=1; wrk on CPU 1"
	}
	fmt.Fprintf(w, "wrk -t%d -c%d, %s per case, %d rounds, %s; %d CPUs %s, load %s\n", r.Threads, r.Conns, r.Duration, r.Rounds, pin, r.Machine.CPUs, r.Machine.Model, r.Machine.Load)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\treq/s median\truns\tbytes/resp\twrk cores\tserver cores\t× bare\treq per CPU-s\t× bare per CPU\t")
	bare, barePerCPU := r.Cases[0].Median, perCPU(r.Cases[0])
	for _, k := range r.Cases {
		var runs []string
		for _, v := range k.RPS {
			runs = append(runs, strconv.FormatFloat(v, 'f', 0, 64))
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.0f\t%.2f\t\n", k.Name, k.Median, strings.Join(runs, " "), k.Bytes,
			medianF(k.ToolCores), medianF(k.ServerCores), k.Median/bare, perCPU(k), perCPU(k)/barePerCPU)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "access logging costs %.1f%% of page throughput, %.1f%% per CPU-second (page with logging vs the same server with HEARTH_LOG_LEVEL=error)\n",
		100*r.Ratios["access_log_cost"], 100*r.Ratios["access_log_cost_per_cpu"])
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// pinCPUs puts every thread of the server on CPU 0 and this tool on CPU 1.
func pinCPUs(server int) error {
	for _, p := range []struct{ pid, cpu int }{{server, 0}, {os.Getpid(), 1}} {
		if out, err := exec.Command("taskset", "-a", "-pc", strconv.Itoa(p.cpu), strconv.Itoa(p.pid)).CombinedOutput(); err != nil {
			return fmt.Errorf("taskset %d: %v: %s", p.pid, err, out)
		}
	}
	return nil
}
