// Command hearth-load measures a Hearth server under load, on this machine
// only: it starts the server (or targets one on a loopback address), opens
// SSE streams to member dashboards, posts weigh-ins at a fixed rate through
// the JSON API and reports how long each write took to show up on every
// stream, plus the server's memory, goroutines and open files before, during
// and after. Every run is bounded in streams, rate and time and stops by
// itself.
//
//	hearth-load                          100 streams, 20 writes/s for 20 s, own server
//	hearth-load -streams 1000 -duration 60s
//	hearth-load -streams 0 -render 5     page vs static-copy throughput, 5 rounds
//	hearth-load -streams 0 -cycles 10000 connect/disconnect health check
//	hearth-load -streams 0 -restarts 4 -settle 30s   start times, idle memory
//	hearth-load -server ./bin/hearth     the real binary
//	hearth-load -url http://127.0.0.1:8080 -pid 1234
//	hearth-load http [-pin]              wrk: page, static, healthz vs a bare server
//	hearth-load bare -addr A -dir D      the bare net/http static server it compares with
//
// "-server self" (the default) runs this executable as the server child: the
// same app as cmd/hearth plus a static directory for the render comparison.
// Goroutine and heap figures come from the server's GET /debug/vars
// (admin only: loopback without a password or token, else -token).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Bounds keep every run small enough for a shared machine.
const (
	maxStreams  = 5000
	maxRate     = 500
	maxDuration = 10 * time.Minute
	maxCycles   = 100_000
)

type config struct {
	server, url string
	token       string // bearer for the server's admin-only /debug/vars
	pid         int
	streams     int
	rate        float64
	duration    time.Duration
	members     []string
	settle      time.Duration
	grace       time.Duration
	needle      string
	render      int
	renderConc  int
	renderSlice time.Duration
	cycles      int
	cycleConc   int
	restarts    int
	pin         bool
	jsonOut     string
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serve(os.Args[2:], os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "hearth-load serve:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "bare" {
		if err := bare(os.Args[2:], os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "hearth-load bare:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "http" {
		if err := httpSuite(os.Args[2:], os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "hearth-load http:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "hearth-load:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var members string
	fs := flag.NewFlagSet("hearth-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.server, "server", "self", `server to start: "self" (this tool as the app, plus a static dir) or a hearth binary path`)
	fs.StringVar(&c.url, "url", "", "load an already running server at this loopback URL instead of starting one")
	fs.IntVar(&c.pid, "pid", 0, "with -url: the server's pid, for RSS and open files")
	fs.StringVar(&c.token, "token", os.Getenv("HEARTH_API_TOKEN"), "the server's HEARTH_API_TOKEN, when it has one, for goroutine and heap figures (/debug/vars)")
	fs.IntVar(&c.streams, "streams", 100, fmt.Sprintf("SSE streams to member dashboards (0-%d)", maxStreams))
	fs.Float64Var(&c.rate, "rate", 20, fmt.Sprintf("weigh-ins per second (≤ %d)", maxRate))
	fs.DurationVar(&c.duration, "duration", 20*time.Second, fmt.Sprintf("how long to write (≤ %s)", maxDuration))
	fs.StringVar(&members, "members", "", "comma-separated member ids to load (default: the whole household)")
	fs.DurationVar(&c.settle, "settle", 2*time.Second, "pause before measuring idle and open-stream memory")
	fs.DurationVar(&c.grace, "grace", 5*time.Second, "how long to wait for the last deliveries")
	fs.StringVar(&c.needle, "needle", `<span class="num">%s</span>`, "markup of a weight in the weight widget (%s = the value)")
	fs.IntVar(&c.render, "render", 0, "rounds of the page vs static-file throughput comparison (0 = skip)")
	fs.IntVar(&c.renderConc, "render-conc", 4, "concurrent clients in the render comparison")
	fs.DurationVar(&c.renderSlice, "render-slice", 2*time.Second, "length of each page or static phase")
	fs.IntVar(&c.cycles, "cycles", 0, fmt.Sprintf("stream connect/disconnect cycles to check for leaks (≤ %d)", maxCycles))
	fs.IntVar(&c.cycleConc, "cycle-conc", 20, "concurrent connect/disconnect cycles")
	fs.BoolVar(&c.pin, "pin", false, "server child on CPU 0 with GOMAXPROCS=1 (a Pi-class core), this tool on CPU 1")
	fs.IntVar(&c.restarts, "restarts", 0, "extra stop/start cycles of the server child to time start on an existing database")
	fs.StringVar(&c.jsonOut, "json", "", "also write the report as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case c.streams < 0 || c.streams > maxStreams:
		return c, fmt.Errorf("-streams %d: want 0..%d", c.streams, maxStreams)
	case c.rate <= 0 || c.rate > maxRate:
		return c, fmt.Errorf("-rate %g: want > 0 and ≤ %d", c.rate, maxRate)
	case c.duration <= 0 || c.duration > maxDuration:
		return c, fmt.Errorf("-duration %s: want > 0 and ≤ %s", c.duration, maxDuration)
	case c.cycles < 0 || c.cycles > maxCycles:
		return c, fmt.Errorf("-cycles %d: want 0..%d", c.cycles, maxCycles)
	case c.render < 0 || c.render > 50 || c.renderConc < 1 || c.renderConc > 256:
		return c, errors.New("-render want 0..50 rounds, -render-conc 1..256")
	case c.cycleConc < 1 || c.cycleConc > 500:
		return c, errors.New("-cycle-conc want 1..500")
	case c.restarts < 0 || c.restarts > 20:
		return c, errors.New("-restarts want 0..20")
	case c.url != "" && c.restarts > 0:
		return c, errors.New("-restarts needs a server the tool starts")
	case !strings.Contains(c.needle, "%s"):
		return c, errors.New("-needle must contain %s")
	}
	if members != "" {
		c.members = strings.Split(members, ",")
	}
	return c, nil
}

// report is everything one run measured.
type report struct {
	Machine    machine        `json:"machine"`
	Args       []string       `json:"args"`
	Server     string         `json:"server"`
	ReadyMS    float64        `json:"start_to_healthz_ms"`
	FirstMS    float64        `json:"start_to_first_page_ms"`
	RestartsMS []float64      `json:"restart_to_healthz_ms,omitempty"`
	Idle       snapshot       `json:"idle"`
	Render     *renderResult  `json:"render,omitempty"`
	Fanout     *fanoutResult  `json:"fanout,omitempty"`
	Cycles     *cycleResult   `json:"cycles,omitempty"`
	ShutdownMS float64        `json:"shutdown_ms"`
	Notes      []string       `json:"notes,omitempty"`
	PerStream  map[string]any `json:"per_stream,omitempty"`
}

func run(args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	// Hard stop: the longest phase plus generous slack, and Ctrl-C.
	budget := cfg.duration + cfg.grace + 2*cfg.settle + time.Duration(cfg.render)*2*cfg.renderSlice +
		time.Duration(cfg.cycles)*50*time.Millisecond + time.Duration(cfg.restarts)*15*time.Second + 3*time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s  %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	}
	limit, err := raiseOpenFiles(uint64(2*max(cfg.streams, cfg.cycleConc) + 256))
	if err != nil {
		return fmt.Errorf("raise open-files limit: %w", err)
	}
	if need := uint64(cfg.streams + 128); limit < need {
		return fmt.Errorf("open-files limit %d is below the %d this run needs (raise the hard limit: ulimit -Hn)", limit, need)
	}

	rep := report{Machine: describeMachine(), Args: args}
	var t *target
	if cfg.url != "" {
		base, err := loopbackURL(cfg.url)
		if err != nil {
			return err
		}
		t = &target{base: base, pid: cfg.pid, token: cfg.token}
		rep.Server = base
		if cfg.pid == 0 {
			rep.Notes = append(rep.Notes, "no -pid: RSS and open files are not measured")
		}
	} else {
		logf("starting server %q", cfg.server)
		var env []string
		if cfg.pin {
			env = []string{"GOMAXPROCS=1"}
		}
		t, err = startServer(ctx, cfg.server, env)
		if err != nil {
			return err
		}
		t.token = cfg.token // the child inherits HEARTH_API_TOKEN
		defer t.cleanup()
		rep.Server = cfg.server
		rep.ReadyMS, rep.FirstMS = msf(t.Ready), msf(t.FirstPage)
		logf("server %s (pid %d) answered /healthz %s after exec, first page %s", t.base, t.pid, ms(t.Ready), ms(t.FirstPage))
		for i := 0; i < cfg.restarts; i++ {
			if _, err := t.stop(); err != nil {
				return err
			}
			if err := t.spawn(ctx, cfg.server, env); err != nil {
				return err
			}
			rep.RestartsMS = append(rep.RestartsMS, msf(t.Ready))
			logf("restart %d: /healthz after %s", i+1, ms(t.Ready))
		}
	}
	if cfg.pin {
		if err := pinCPUs(t.pid); err != nil {
			return err
		}
		rep.Notes = append(rep.Notes, "pinned: server on CPU 0 with GOMAXPROCS=1, this tool on CPU 1")
	}
	c := streamClient(8)
	members, err := listMembers(ctx, c, t.base, cfg.members)
	if err != nil {
		return err
	}
	time.Sleep(cfg.settle)
	rep.Idle = t.quiet()
	logf("idle: %s", rep.Idle)
	if rep.Idle.Goroutines < 0 {
		rep.Notes = append(rep.Notes, "no /debug/vars from the server (older binary, or it has a password or token and -token was not given): goroutine counts are not available")
	}

	if cfg.render > 0 {
		logf("render comparison: %d rounds × %s, %d clients", cfg.render, cfg.renderSlice, cfg.renderConc)
		r, err := compareRender(ctx, t, members[0].id, cfg.renderConc, cfg.render, cfg.renderSlice)
		if err != nil {
			return err
		}
		rep.Render = &r
		logf("page %v req/s, static %v req/s, ratio %.2f", roundAll(r.PageRPS), roundAll(r.StaticRPS), r.Ratio)
	}
	if cfg.streams > 0 {
		f, err := fanout(ctx, t, members, cfg, logf)
		rep.Fanout = &f
		if err != nil {
			return err
		}
		n := uint64(f.Streams - f.OpenFailed)
		if n > 0 {
			// RSS can dip below idle with few streams (the runtime returned
			// pages meanwhile): report 0 then rather than drop the line.
			rep.PerStream = map[string]any{"rss_bytes": (f.Opened.RSS - min(f.Opened.RSS, rep.Idle.RSS)) / n}
			if f.Opened.Goroutines >= 0 {
				rep.PerStream["goroutines"] = float64(f.Opened.Goroutines-rep.Idle.Goroutines) / float64(n)
				rep.PerStream["heap_bytes"] = (f.Opened.HeapAlloc - min(f.Opened.HeapAlloc, rep.Idle.HeapAlloc)) / n
				rep.PerStream["stack_bytes"] = (f.Opened.Stacks - min(f.Opened.Stacks, rep.Idle.Stacks)) / n
				rep.PerStream["go_total_bytes"] = (f.Opened.GoTotal - min(f.Opened.GoTotal, rep.Idle.GoTotal)) / n
			}
		}
	}
	if cfg.cycles > 0 {
		logf("%d connect/disconnect cycles, %d at once", cfg.cycles, cfg.cycleConc)
		r, err := cycles(ctx, t, members, cfg.cycles, cfg.cycleConc)
		rep.Cycles = &r
		if err != nil {
			return err
		}
		logf("cycles done in %s: before %s, after %s", r.Took, r.Before, r.After)
	}
	if t.cmd != nil {
		d, err := t.stop()
		rep.ShutdownMS = msf(d)
		if err != nil {
			rep.Notes = append(rep.Notes, "stop: "+err.Error())
		}
	}
	printReport(stdout, rep)
	if cfg.jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(cfg.jsonOut, b, 0o644); err != nil {
			return err
		}
	}
	return verdict(rep)
}

// verdict fails the run on errors the tool saw (not on missed targets).
func verdict(r report) error {
	var errs []string
	if f := r.Fanout; f != nil {
		if f.OpenFailed > 0 {
			errs = append(errs, fmt.Sprintf("%d streams failed to open", f.OpenFailed))
		}
		if f.WriteErrors > 0 {
			errs = append(errs, fmt.Sprintf("%d writes failed", f.WriteErrors))
		}
	}
	if c := r.Cycles; c != nil {
		if c.Errors > 0 {
			errs = append(errs, fmt.Sprintf("%d cycles failed", c.Errors))
		}
		if l := c.leaked(); l != "" {
			errs = append(errs, "growth after cycles: "+l)
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(int(x*10+0.5)) / 10
	}
	return out
}
