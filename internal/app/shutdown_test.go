package app_test

import (
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/app"
)

// TestShutdownClosesSilentConnections: a connection that has sent nothing
// (a browser's speculative preconnect) must not hold the shutdown until
// http.Server counts it idle (5 s, our whole budget): before the fix,
// Serve returned "context deadline exceeded" after 5 s.
func TestShutdownClosesSilentConnections(t *testing.T) {
	dir := t.TempDir()
	r := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC})
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The server accepts connections in the order they arrived: once a
	// request on a later connection is answered, the silent one has been
	// accepted and is tracked by the server.
	probe := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := probe.Get(r.url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	start := time.Now()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop")
	}
	r.done = nil
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("shutdown took %v with one silent connection open", took)
	}
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatal("the silent connection is still open")
	}
}
