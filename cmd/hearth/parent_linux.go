package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// watchParent returns a context cancelled when the process that started
// Hearth is gone or is being interrupted. `make run` sets
// HEARTH_STOP_WITH_PARENT: a SIGINT sent to make's pid alone (not the
// terminal's process group) is not forwarded by GNU make, which instead
// resets its SIGINT handler to the default and waits for its children, so
// without this Hearth would never learn of it and make would wait forever.
// The reset shows in /proc/<ppid>/status (SigCgt), and a parent that exits
// shows as a changed parent pid.
func watchParent(ctx context.Context, every time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	ppid := os.Getppid()
	caught, _ := catchesSIGINT(ppid) // unreadable: false, still watch for the parent going away
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if os.Getppid() != ppid {
				cancel(fmt.Errorf("parent process %d exited", ppid))
				return
			}
			if now, err := catchesSIGINT(ppid); caught && err == nil && !now {
				cancel(fmt.Errorf("parent process %d was interrupted", ppid))
				return
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// catchesSIGINT reports whether pid has a handler installed for SIGINT.
func catchesSIGINT(pid int) (bool, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				return false, fmt.Errorf("parse SigCgt %q: %w", v, err)
			}
			return mask&(1<<(uint(syscall.SIGINT)-1)) != 0, nil
		}
	}
	return false, fmt.Errorf("no SigCgt in /proc/%d/status", pid)
}
