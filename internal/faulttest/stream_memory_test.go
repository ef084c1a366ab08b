package faulttest

import (
	"bytes"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"
)

// TestStreamMemoryPerStream opens 200 member streams on the real server
// and measures what they hold in this process (Go heap in use plus
// goroutine stacks, after the garbage collector ran): issue 16's target is
// under 32 KiB a stream. The clients are bare TCP connections (a few
// hundred bytes each, counted against the server here), so the figure is
// an upper bound of the server's share. On net/http's goroutine per
// connection a stream held ~44 KB; off it (web/stream_detach.go) it holds
// a fraction of that.
func TestStreamMemoryPerStream(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 200 streams")
	}
	const n = 200
	a, _ := newApp(t, map[string]string{"HEARTH_MAX_STREAMS_PER_CLIENT": "1000"})
	addr := serveApp(t, a)
	buf := make([]byte, 64<<10)
	open := func() net.Conn {
		c, err := net.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET /live/m/maya HTTP/1.1\r\nHost: %s\r\nDatastar-Request: true\r\n\r\n", addr)
		// The first batch (every widget, then the keep-alive signal) is in
		// once the keep-alive arrives: the server's write is done.
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var seen []byte
		for first := true; !bytes.Contains(seen, []byte(`"_ka":`)); first = false {
			k, err := c.Read(buf)
			if err != nil {
				t.Fatalf("stream: %v after %q", err, tail(seen))
			}
			if first && !bytes.HasPrefix(buf[:k], []byte("HTTP/1.1 200 OK\r\n")) {
				t.Fatalf("stream answered %q", buf[:min(k, 200)])
			}
			seen = append(tail(seen), buf[:k]...)
		}
		return c
	}
	warm := open() // builds the shared model and patches
	_ = warm.Close()
	inUse := func() uint64 {
		var m runtime.MemStats
		for range 3 { // stacks shrink one halving per cycle
			runtime.GC()
		}
		time.Sleep(20 * time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapInuse + m.StackInuse
	}
	before, g0 := inUse(), runtime.NumGoroutine()
	conns := make([]net.Conn, 0, n)
	for range n {
		conns = append(conns, open())
	}
	after, g1 := inUse(), runtime.NumGoroutine()
	per := float64(after-before) / n
	t.Logf("%d streams: %.0f B per stream (heap + stacks), %.2f goroutines per stream", n, per, float64(g1-g0)/n)
	if per >= 32<<10 {
		t.Errorf("%.0f B per open stream, want under 32 KiB", per)
	}
	for _, c := range conns {
		_ = c.Close()
	}
}

// tail keeps the last bytes read, enough to find a marker split by reads.
func tail(b []byte) []byte {
	if len(b) > 16 {
		return b[len(b)-16:]
	}
	return b
}
