package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hearth/internal/health"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"
)

// fanoutResult is what the stream + write phase measured.
type fanoutResult struct {
	Streams      int        `json:"streams"`
	OpenFailed   int        `json:"open_failed"`
	Open         dist       `json:"open"` // request → first event
	Writes       int        `json:"writes"`
	WriteErrors  int        `json:"write_errors"`
	SkippedTicks int        `json:"skipped_ticks"`
	WriteRTT     dist       `json:"write_rtt"`
	Delivery     dist       `json:"delivery"` // write sent → patch showing it received, per (write, stream)
	Expected     int        `json:"expected_deliveries"`
	Missing      int        `json:"missing_deliveries"`
	StreamsEnded int        `json:"streams_ended_early"`
	Events       int        `json:"events"`
	BytesIn      int64      `json:"bytes_in"`
	Opened       snapshot   `json:"with_streams_open"`
	During       []snapshot `json:"-"`
	DuringPeak   snapshot   `json:"during_peak"`
	DuringMedian snapshot   `json:"during_median"`
	ServerCPU    float64    `json:"server_cpu_cores"` // cores busy during the write phase
	// ToolCPU is this tool's own use in the same phase: with 1,000 streams
	// it parses every patch, and on a 2-core machine it competes with the
	// server. A delivery figure counts only while the tool left the server
	// room (ToolCPU + ServerCPU clearly under the cores there are).
	ToolCPU   float64       `json:"tool_cpu_cores"`
	After     snapshot      `json:"after_close"`
	AfterWait time.Duration `json:"after_wait"`
}

// listMembers reads the household from the JSON API.
func listMembers(ctx context.Context, c *http.Client, base string, only []string) ([]*member, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/members", nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Members []struct{ ID, Unit string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("members: %w", err)
	}
	want := map[string]bool{}
	for _, id := range only {
		want[id] = true
	}
	var out []*member
	for _, m := range body.Members {
		if len(want) > 0 && !want[m.ID] {
			continue
		}
		start, err := markerStart(ctx, c, base, m.ID, m.Unit)
		if err != nil {
			return nil, err
		}
		out = append(out, &member{id: m.ID, unit: m.Unit, seen: map[string]bool{}, center: start})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no members to load (household: %d members, -members %v)", len(body.Members), only)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// streamClient is a client for many long-lived streams and small writes.
func streamClient(n int) *http.Client {
	tr := &http.Transport{
		MaxIdleConns: n + 64, MaxIdleConnsPerHost: n + 64, IdleConnTimeout: 30 * time.Second,
		DisableCompression: true, ResponseHeaderTimeout: 30 * time.Second,
	}
	return &http.Client{Transport: tr}
}

// fanout opens n streams spread round-robin over members, waits for each
// first event, drives writes, waits for deliveries, then closes the streams.
func fanout(ctx context.Context, t *target, members []*member, cfg config, logf func(string, ...any)) (fanoutResult, error) {
	res := fanoutResult{Streams: cfg.streams}
	sc := streamClient(cfg.streams)
	wc := streamClient(64)
	sctx, closeStreams := context.WithCancel(ctx)
	defer closeStreams()

	var (
		mu      sync.Mutex
		streams []*stream
		readers sync.WaitGroup
		dial    sync.WaitGroup
		sem     = make(chan struct{}, 32) // concurrent connects
		firsts  []chan struct{}
	)
	logf("opening %d streams over %d member(s)", cfg.streams, len(members))
	for i := 0; i < cfg.streams; i++ {
		m := members[i%len(members)]
		mu.Lock()
		m.streams++
		mu.Unlock()
		dial.Add(1)
		sem <- struct{}{}
		go func() {
			defer dial.Done()
			defer func() { <-sem }()
			start := time.Now()
			s, resp, err := openStream(sctx, sc, t.base, m)
			if err != nil {
				mu.Lock()
				res.OpenFailed++
				m.streams--
				mu.Unlock()
				return
			}
			first := make(chan struct{})
			mu.Lock()
			streams = append(streams, s)
			firsts = append(firsts, first)
			mu.Unlock()
			readers.Add(1)
			go func() {
				defer readers.Done()
				defer resp.Body.Close()
				s.read(resp.Body, first, start)
			}()
			select { // hold the connect slot until the first patch: a real page does the same
			case <-first:
			case <-sctx.Done():
			}
		}()
	}
	dial.Wait()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	opens := make([]time.Duration, 0, len(streams))
	for _, s := range streams {
		opens = append(opens, s.opened)
	}
	res.Open = summarize(opens)
	logf("streams open: %d (failed %d), first event %s", len(streams), res.OpenFailed, res.Open)
	time.Sleep(cfg.settle)
	res.Opened = t.quiet()
	logf("with streams open: %s", res.Opened)

	// Sample the server while writes run.
	stopSampling := make(chan struct{})
	sampled := make(chan []snapshot)
	go func() {
		var out []snapshot
		tk := time.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stopSampling:
				sampled <- out
				return
			case <-tk.C:
				out = append(out, t.snap())
			}
		}
	}()
	cpu0, self0, wall0 := cpuTicks(t.pid), cpuTicks(os.Getpid()), time.Now()
	logf("writing %.0f weigh-ins/s for %s", cfg.rate, cfg.duration)
	writes, skipped, err := driveWrites(ctx, wc, t.base, members, cfg.rate, cfg.duration, cfg.needle)
	res.SkippedTicks = skipped
	if cpu1 := cpuTicks(t.pid); cpu0 >= 0 && cpu1 >= cpu0 {
		res.ServerCPU = float64(cpu1-cpu0) / clockTicks / time.Since(wall0).Seconds()
	}
	if self1 := cpuTicks(os.Getpid()); self0 >= 0 && self1 >= self0 {
		res.ToolCPU = float64(self1-self0) / clockTicks / time.Since(wall0).Seconds()
	}
	close(stopSampling)
	res.During = <-sampled
	res.DuringPeak, res.DuringMedian = peakAndMedian(res.During)
	if err != nil {
		return res, err
	}

	// Wait for the last deliveries, then account.
	var rtts []time.Duration
	for _, w := range writes {
		if w.err != nil {
			res.WriteErrors++
			continue
		}
		rtts = append(rtts, w.rtt)
		res.Expected += w.member.streams
	}
	res.Writes = len(writes)
	res.WriteRTT = summarize(rtts)
	deadline := time.Now().Add(cfg.grace)
	for time.Now().Before(deadline) && delivered(writes) < res.Expected {
		time.Sleep(20 * time.Millisecond)
	}
	closeStreams()
	readers.Wait()
	var lat []time.Duration
	got := 0
	for _, s := range streams {
		lat = append(lat, s.lat...)
		res.Events += s.events
		res.BytesIn += s.bytes
		if s.ended && s.err != nil && sctx.Err() == nil {
			res.StreamsEnded++
		}
	}
	for _, w := range writes {
		if w.err == nil {
			got += int(w.delivered.Load())
		}
	}
	res.Missing = max(0, res.Expected-got)
	res.Delivery = summarize(lat)
	sc.CloseIdleConnections()
	wc.CloseIdleConnections()

	// After: give the server a moment to notice the closed streams (its
	// goroutines end first; sockets close a little later).
	start := time.Now()
	for {
		res.After = t.quiet()
		g := res.After.Goroutines < 0 || res.After.Goroutines <= res.Opened.Goroutines-len(streams)+5
		f := res.After.OpenFiles < 0 || res.After.OpenFiles <= res.Opened.OpenFiles-len(streams)+10
		if (g && f) || time.Since(start) > 10*time.Second {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	res.AfterWait = time.Since(start)
	return res, nil
}

func delivered(ws []*write) int {
	n := 0
	for _, w := range ws {
		if w.err == nil {
			n += int(w.delivered.Load())
		}
	}
	return n
}

func peakAndMedian(ss []snapshot) (snapshot, snapshot) {
	if len(ss) == 0 {
		return snapshot{Goroutines: -1, OpenFiles: -1}, snapshot{Goroutines: -1, OpenFiles: -1}
	}
	peak := ss[0]
	rss := make([]uint64, len(ss))
	gs := make([]uint64, len(ss))
	for i, s := range ss {
		rss[i], gs[i] = s.RSS, uint64(max(0, s.Goroutines))
		if s.RSS > peak.RSS {
			peak.RSS = s.RSS
		}
		if s.Goroutines > peak.Goroutines {
			peak.Goroutines = s.Goroutines
		}
		if s.OpenFiles > peak.OpenFiles {
			peak.OpenFiles = s.OpenFiles
		}
		if s.HeapAlloc > peak.HeapAlloc {
			peak.HeapAlloc = s.HeapAlloc
		}
	}
	med := ss[len(ss)/2]
	med.RSS = medianU(rss)
	if med.Goroutines >= 0 {
		med.Goroutines = int(medianU(gs))
	}
	return peak, med
}

// markerStart is the center of a member's markers, in their unit: their
// newest weigh-in (nextWrite keeps the markers near it). A member with no
// weigh-in is centred on 70 kg (154 lb).
func markerStart(ctx context.Context, c *http.Client, base, member, unit string) (float64, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/members/"+member+"/weight?limit=1", nil)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var body struct {
		Readings []struct {
			WeightKg float64 `json:"weight_kg"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, fmt.Errorf("member %s weight: %w", member, err)
	}
	kg := 70.0
	if len(body.Readings) > 0 {
		kg = body.Readings[0].WeightKg
	}
	return health.Round1(health.Unit(unit).Normalize().FromKg(kg)), nil
}
