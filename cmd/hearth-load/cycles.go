package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// cycleResult is the health check of many stream connect/disconnect cycles.
type cycleResult struct {
	Cycles int      `json:"cycles"`
	Errors int      `json:"errors"`
	Took   string   `json:"took"`
	Before snapshot `json:"before"`
	After  snapshot `json:"after"`
}

// cycles opens a member stream, waits for its first event and closes it, n
// times with conc at once, then waits (up to 10 s) for the server's
// goroutines and open files to come back to where they were. A warm-up of
// 2×conc cycles first lets pools that grow with concurrency (the database
// reader pool: up to max(4, 2×CPUs) connections, two files each) reach
// their size, so growth after the run means a leak.
func cycles(ctx context.Context, t *target, members []*member, n, conc int) (cycleResult, error) {
	// A fresh connection per cycle, closed with the stream, like a tab that goes away.
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, DisableCompression: true}}
	run := func(n int) int {
		var next, errs atomic.Int64
		var wg sync.WaitGroup
		for range conc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := next.Add(1) - 1
					if i >= int64(n) || ctx.Err() != nil {
						return
					}
					if err := oneCycle(ctx, c, t.base, members[int(i)%len(members)]); err != nil {
						errs.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		return int(errs.Load())
	}
	res := cycleResult{Cycles: n}
	res.Errors = run(2 * conc)
	res.Before = t.quiet()
	start := time.Now()
	res.Errors += run(n)
	res.Took = time.Since(start).Round(time.Millisecond).String()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	settled := time.Now().Add(10 * time.Second)
	for {
		res.After = t.quiet()
		okG := res.After.Goroutines < 0 || res.After.Goroutines <= res.Before.Goroutines+2
		okF := res.After.OpenFiles < 0 || res.After.OpenFiles <= res.Before.OpenFiles+2
		if (okG && okF) || time.Now().After(settled) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return res, nil
}

func oneCycle(ctx context.Context, c *http.Client, base string, m *member) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, resp, err := openStream(ctx, c, base, m)
	if err != nil {
		return err
	}
	first := make(chan struct{})
	done := make(chan struct{})
	go func() { s.read(resp.Body, first, time.Now()); close(done) }()
	<-first
	cancel()
	resp.Body.Close()
	<-done
	if s.events == 0 {
		return fmt.Errorf("stream %s: no event", m.id)
	}
	return nil
}

// leaked reports growth beyond a small slack.
func (r cycleResult) leaked() string {
	var out string
	if r.Before.Goroutines >= 0 && r.After.Goroutines > r.Before.Goroutines+2 {
		out += fmt.Sprintf("goroutines %d -> %d; ", r.Before.Goroutines, r.After.Goroutines)
	}
	if r.Before.OpenFiles >= 0 && r.After.OpenFiles > r.Before.OpenFiles+2 {
		out += fmt.Sprintf("open files %d -> %d; ", r.Before.OpenFiles, r.After.OpenFiles)
	}
	return out
}
