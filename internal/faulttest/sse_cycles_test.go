package faulttest

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/live"
)

// openFiles counts this process's file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(es)
}

// TestSSECyclesNoLeak opens a member's live stream, waits for its first
// patch and drops the connection, 500 times (20 at once; the load tool runs
// 10,000 against a separate process: hearth-load -streams 0 -cycles 10000).
// Afterwards the server has no subscriber left and neither goroutines nor
// file descriptors have grown.
func TestSSECyclesNoLeak(t *testing.T) {
	const cycles, conc = 500, 20
	a, _ := newApp(t, nil)
	addr, err := a.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + addr.String()
	// Fresh connection per cycle, closed with the stream: a tab that goes away.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	cycle := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/live/m/maya", nil)
		req.Header.Set("Datastar-Request", "true")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			if strings.HasPrefix(line, "event: datastar-patch-elements") {
				return nil
			}
		}
	}
	run := func(n int64) (failed int64) {
		var next, bad atomic.Int64
		var wg sync.WaitGroup
		for range conc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= n {
					if err := cycle(); err != nil {
						bad.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		return bad.Load()
	}
	settle := func() {
		client.CloseIdleConnections()
		runtime.GC()
		time.Sleep(50 * time.Millisecond)
	}
	// Warm up at full concurrency so the database reader pool (up to
	// max(4, 2×CPUs) connections, two descriptors each) reaches its size.
	if n := run(2 * conc); n > 0 {
		t.Fatalf("%d warm-up cycles failed", n)
	}
	settle()
	g0, f0 := runtime.NumGoroutine(), openFiles(t)

	start := time.Now()
	failed := run(cycles)
	t.Logf("%d cycles in %s", cycles, time.Since(start).Round(time.Millisecond))
	if failed > 0 {
		t.Fatalf("%d cycles failed", failed)
	}
	var g1, f1, subs int
	for deadline := time.Now().Add(10 * time.Second); ; {
		settle()
		g1, f1, subs = runtime.NumGoroutine(), openFiles(t), a.Hub.Subscribers(live.MemberTopic("maya"))
		if g1 <= g0+2 && f1 <= f0+2 && subs == 0 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("after %d cycles: goroutines %d -> %d, open files %d -> %d, subscribers %d\n%s", cycles, g0, g1, f0, f1, subs, buf)
		}
	}
	t.Logf("goroutines %d -> %d, open files %d -> %d", g0, g1, f0, f1)
}
