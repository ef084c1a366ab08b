package main

import (
	"errors"
	"fmt"
	"hearth/internal/testkit"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain doubles as the server started by make in the tests below.
func TestMain(m *testing.M) {
	if os.Getenv("HEARTH_TEST_SERVE") == "1" {
		if err := run(nil, os.Getenv, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "hearth:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// makeRunCmd is `make run` in miniature: a real GNU make whose recipe execs
// this test binary as the server (see TestMain), with env added.
func makeRunCmd(t *testing.T, env ...string) (cmd *exec.Cmd, addr, dir string) {
	t.Helper()
	makeBin := testkit.NeedTool(t, "make", "make")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	mk := filepath.Join(dir, "Makefile")
	if err := os.WriteFile(mk, []byte("run:\n\texec \"$(SELF)\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr = freeAddr(t)
	cmd = exec.Command(makeBin, "-f", mk, "run", "SELF="+self)
	cmd.Env = append(os.Environ(), "HEARTH_TEST_SERVE=1", "GORACE=atexit_sleep_ms=0",
		"HEARTH_ADDR="+addr, "HEARTH_DATA="+dir, "HEARTH_DEMO=0", "HEARTH_TZ=UTC")
	cmd.Env = append(cmd.Env, env...)
	return cmd, addr, dir
}

// waitAnswering waits for the server under make to answer /healthz.
func waitAnswering(t *testing.T, addr string, logs func() string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !answers(addr); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("server under make never answered:\n%s", logs())
		}
	}
}

// startUnderMake runs the server through make in its own process group
// (no terminal), as a harness would.
func startUnderMake(t *testing.T) (makeCmd *exec.Cmd, addr string, logPath string) {
	t.Helper()
	makeCmd, addr, dir := makeRunCmd(t, "HEARTH_STOP_WITH_PARENT=1")
	logPath = filepath.Join(dir, "out.log")
	out, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	makeCmd.Stdout, makeCmd.Stderr = out, out
	makeCmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := makeCmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := makeCmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	waitAnswering(t, addr, func() string { b, _ := os.ReadFile(logPath); return string(b) })
	return makeCmd, addr, logPath
}

func answers(addr string) bool {
	c := http.Client{Timeout: time.Second}
	resp, err := c.Get("http://" + addr + "/healthz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// waitLog waits until the server's log has want, or fails after d.
func waitLog(t *testing.T, path, want string, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), want) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %v:\n%s", want, d, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A SIGINT sent to make alone is not forwarded to its child; Hearth must
// still stop cleanly, and make must not hang waiting for it.
func TestStopsWhenMakeIsInterrupted(t *testing.T) {
	makeCmd, addr, logPath := startUnderMake(t)
	start := time.Now()
	if err := makeCmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- makeCmd.Wait() }()
	select {
	case err := <-exited:
		// make re-raises the SIGINT it handled, so it always reports it.
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
			t.Fatalf("make ended with %v, want killed by SIGINT", err)
		}
	case <-time.After(3 * time.Second):
		b, _ := os.ReadFile(logPath)
		t.Fatalf("make still waiting on Hearth 3 s after SIGINT:\n%s", b)
	}
	log := waitLog(t, logPath, "hearth stopped cleanly", time.Second)
	if !strings.Contains(log, "was interrupted") {
		t.Fatalf("clean stop without the reason:\n%s", log)
	}
	if answers(addr) {
		t.Fatal("server still answering after make stopped")
	}
	if err := syscall.Kill(-makeCmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("processes left in make's group: %v", err)
	}
	t.Logf("make and Hearth stopped %v after SIGINT to make", time.Since(start))
}

// A parent killed outright leaves Hearth orphaned; it stops on its own.
func TestStopsWhenMakeIsKilled(t *testing.T) {
	makeCmd, addr, logPath := startUnderMake(t)
	if err := makeCmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = makeCmd.Wait()
	log := waitLog(t, logPath, "hearth stopped cleanly", 2*time.Second)
	if !strings.Contains(log, "exited") {
		t.Fatalf("clean stop without the reason:\n%s", log)
	}
	if answers(addr) {
		t.Fatal("server still answering after its parent died")
	}
}
