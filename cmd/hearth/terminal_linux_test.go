package main

import (
	"fmt"
	"hearth/internal/testkit"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// foreground is the terminal's foreground process group (tcgetpgrp), or
// -1 when it cannot be read.
func foreground(master *os.File) int {
	var pgrp int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp))); errno != 0 {
		return -1
	}
	return int(pgrp)
}

// openPTY opens a pseudo-terminal pair (master, slave) with plain syscalls.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	testkit.Need(t, err == nil, fmt.Sprintf("no pseudo-terminals here: %v", err))
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		m.Close()
		testkit.Need(t, false, fmt.Sprintf("unlockpt: %v", errno))
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		m.Close()
		testkit.Need(t, false, fmt.Sprintf("ptsname: %v", errno))
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		testkit.Need(t, false, fmt.Sprintf("open the pty's slave: %v", err))
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// `make run` in a terminal, then Ctrl-C: Hearth stops cleanly and make
// itself exits 0, because the interrupt reached Hearth alone.
func TestCtrlCInTerminalExitsZero(t *testing.T) {
	master, slave := openPTY(t)
	cmd, addr, _ := makeRunCmd(t, "HEARTH_OWN_TERMINAL=1", "HEARTH_STOP_WITH_PARENT=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// A session of its own with the pty as controlling terminal, make in
	// the foreground: what a shell gives a command typed at the prompt.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Process.Kill() })
	// The children have the slave; with this process's copy closed, the
	// master reads EOF once the last of them exits.
	slave.Close()
	var out syncBuf
	drained := make(chan struct{})
	go func() { _, _ = io.Copy(&out, master); close(drained) }()
	waitAnswering(t, addr, out.String)
	// Hearth takes the terminal's foreground (HEARTH_OWN_TERMINAL): wait
	// until the terminal says so, or ^C would go to make's process group.
	testkit.WaitFor(t, testkit.Patience, "hearth to take the terminal's foreground", func() bool {
		fg := foreground(master)
		return fg > 0 && fg != cmd.Process.Pid // make leads its own group
	})
	start := time.Now()
	if _, err := master.Write([]byte{0x03}); err != nil { // ^C: the terminal's VINTR
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("make run ended with %v after Ctrl-C, want exit 0:\n%s", err, out.String())
		}
	case <-time.After(3 * time.Second):
		t.Fatalf("make run still running 3 s after Ctrl-C:\n%s", out.String())
	}
	took := time.Since(start)
	select {
	case <-drained:
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal still had a writer after make exited")
	}
	log := out.String()
	if !strings.Contains(log, `hearth stopped cleanly" reason="interrupt signal received"`) {
		t.Fatalf("no clean stop on the interrupt in the output:\n%s", log)
	}
	if strings.Contains(log, "Interrupt") {
		t.Fatalf("make reported an interrupt:\n%s", log)
	}
	t.Logf("make run exited 0 %v after Ctrl-C", took.Round(time.Millisecond))
}
