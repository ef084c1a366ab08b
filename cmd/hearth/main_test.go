package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestServeAndInterrupt is `make run` in miniature: start with the demo
// household, answer on the address, stop cleanly within 2 s on SIGINT
// (Ctrl-C), SIGTERM (a service manager) and SIGHUP (the terminal closed).
func TestServeAndInterrupt(t *testing.T) {
	for _, c := range []struct {
		sig    syscall.Signal
		reason string
	}{{syscall.SIGINT, "interrupt"}, {syscall.SIGTERM, "terminated"}, {syscall.SIGHUP, "hangup"}} {
		t.Run(c.sig.String(), func(t *testing.T) { serveAndStop(t, c.sig, c.reason) })
	}
}

func serveAndStop(t *testing.T, sig syscall.Signal, reason string) {
	addr := freeAddr(t)
	dir := t.TempDir()
	env := map[string]string{"HEARTH_ADDR": addr, "HEARTH_DATA": dir, "HEARTH_DEMO": "1", "HEARTH_TZ": "UTC",
		"OPENAI_API_KEY": "sk-secret-value"}
	var logs syncBuf
	done := make(chan error, 1)
	go func() { done <- run(nil, func(k string) string { return env[k] }, &logs, &logs) }()

	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server never answered: %v\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get("http://" + addr + "/api/v1/members")
	if err != nil {
		t.Fatal(err)
	}
	var members struct{ Members []struct{ ID string } }
	err = json.NewDecoder(resp.Body).Decode(&members)
	resp.Body.Close()
	if err != nil || len(members.Members) != 2 {
		t.Fatalf("demo household: %+v %v", members, err)
	}

	start := time.Now()
	if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run returned %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("did not stop within 2 s of %v", sig)
	}
	t.Logf("stopped %v after %v", time.Since(start), sig)
	out := logs.String()
	if !strings.Contains(out, `hearth stopped cleanly" reason="`+reason+` signal received"`) {
		t.Fatalf("no clean-stop log line:\n%s", out)
	}
	if strings.Contains(out, "sk-secret-value") {
		t.Fatal("the API key was logged")
	}
	if !strings.Contains(out, "openai_api_key=****") {
		t.Fatalf("config summary missing or unmasked:\n%s", out)
	}
	// The database is the file HEARTH_DATA names (filepath.Glob, used here
	// before, reports no error for a missing file).
	if fi, err := os.Stat(filepath.Join(dir, "hearth.db")); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		t.Fatalf("database file in HEARTH_DATA: %v, %v", fi, err)
	}
}
