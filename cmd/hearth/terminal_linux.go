package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"unsafe"
)

// takeTerminal makes Hearth's own process group the foreground group of its
// controlling terminal and returns how to give it back. `make run` sets
// HEARTH_OWN_TERMINAL: a Ctrl-C then reaches Hearth alone, which stops
// cleanly with status 0, and make, seeing its command succeed, exits 0 too;
// without it the terminal interrupts make as well, and GNU make always
// dies of the signal it caught (status 130) however cleanly Hearth stopped.
//
// It does nothing without a controlling terminal or when Hearth's group is
// not the foreground one (a background job, a test harness).
func takeTerminal() (restore func(), err error) {
	noop := func() {}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return noop, nil // no controlling terminal
	}
	fd := tty.Fd()
	fg, err := tcgetpgrp(fd)
	if err != nil || fg != syscall.Getpgrp() {
		tty.Close()
		return noop, nil
	}
	if err := syscall.Setpgid(0, 0); err != nil {
		tty.Close()
		return noop, fmt.Errorf("own process group: %w", err)
	}
	// Setting the foreground from what is now a background group raises
	// SIGTTOU; and a Ctrl-Z would stop Hearth while make, not stopped, keeps
	// the shell waiting, so suspending is off in this mode.
	signal.Ignore(syscall.SIGTTOU, syscall.SIGTSTP)
	if err := tcsetpgrp(fd, syscall.Getpgrp()); err != nil {
		_ = syscall.Setpgid(0, fg)
		tty.Close()
		return noop, fmt.Errorf("take the terminal: %w", err)
	}
	return func() {
		// Give the terminal back to make's group (gone if make died: ignore).
		_ = tcsetpgrp(fd, fg)
		tty.Close()
	}, nil
}

func tcgetpgrp(fd uintptr) (int, error) {
	var pgrp int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp))); errno != 0 {
		return 0, errno
	}
	if pgrp <= 0 {
		return 0, errors.New("no foreground process group")
	}
	return int(pgrp), nil
}

func tcsetpgrp(fd uintptr, pgrp int) error {
	p := int32(pgrp)
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPGRP, uintptr(unsafe.Pointer(&p))); errno != 0 {
		return errno
	}
	return nil
}
