package faulttest

import (
	"bufio"
	"context"
	"database/sql"
	"hearth/internal/testkit"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/live"
)

// openFiles counts this process's file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		testkit.Need(t, false, "no /proc/self/fd")
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
	addr := serveApp(t, a)
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
	// Warm up: the database reader pool opens connections (three
	// descriptors each: the database, its WAL and shared-memory files) as
	// concurrent reads need them, up to its maximum. Warm-up cycles alone
	// do not reach it (streams share one model build), so a read burst
	// later in the run could open one more connection and look like a
	// leak ("open files 18 -> 22", 2 of 5 runs). Open every connection of
	// the pool at once first; it keeps them idle.
	warmReaders(t, a.DB.Read)
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
		if g1 <= g0+2 && f1 <= f0 && subs == 0 { // no descriptor may stay open
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

// warmReaders opens every connection the pool allows at the same time and
// returns them to it (idle connections are kept: no idle timeout is set).
func warmReaders(t *testing.T, pool *sql.DB) {
	t.Helper()
	ctx := context.Background()
	n := pool.Stats().MaxOpenConnections
	conns := make([]*sql.Conn, 0, n)
	for range n {
		c, err := pool.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.PingContext(ctx); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		_ = c.Close()
	}
	if st := pool.Stats(); st.OpenConnections != n {
		t.Fatalf("reader pool: %d connections open after warming, want %d", st.OpenConnections, n)
	}
}

// serveApp serves a on a free loopback port until the test ends (a clean
// shutdown is part of the test) and returns its address.
func serveApp(t *testing.T, a *app.App) net.Addr {
	t.Helper()
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
	return addr
}
