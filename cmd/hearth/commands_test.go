package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"hearth/internal/qr/qrtest"
	"hearth/internal/store"
	"hearth/internal/systemd"
)

func noEnv(string) string { return "" }

// `hearth -h` prints the server's flags and then every subcommand.
func TestHelpListsEveryCommand(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-h"}, noEnv, &out, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run -h = %v, want flag.ErrHelp", err)
	}
	printCommands(&out)
	help := out.String()
	for _, want := range []string{"-addr", "HEARTH_HOSTS", "Commands"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, c := range commands {
		if !strings.Contains(help, "hearth "+c.name+" ") {
			t.Errorf("help does not list %q:\n%s", c.name, help)
		}
	}
	if len(commands) < 6 {
		t.Fatalf("only %d commands", len(commands))
	}
}

// A plain build says "dev"; the schema is the newest migration it carries.
// (The stamped values of `make release` are checked on the release binary
// by the smoke test, internal/faulttest.)
func TestVersionCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runVersion(nil, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || lines[0] != "hearth dev" || !strings.HasPrefix(lines[1], "commit ") || !strings.HasPrefix(lines[2], "built ") {
		t.Fatalf("output:\n%s", out.String())
	}
	if want := fmt.Sprintf("schema   %d", store.LatestVersion()); lines[3] != want {
		t.Fatalf("schema line %q, want %q", lines[3], want)
	}
	if code := runVersion([]string{"extra"}, noEnv, &out, &errOut); code != 2 {
		t.Fatalf("an argument: exit %d", code)
	}
}

func TestServicePrint(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runService([]string{"print", "-bin", "/usr/local/bin/hearth", "-hosts", "hearth.lan, 192.168.1.20", "-backup-dir", "/media/usb/hearth"},
		noEnv, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want, err := systemd.Unit(systemd.Options{Binary: "/usr/local/bin/hearth", Hosts: []string{"hearth.lan", "192.168.1.20"},
		BackupDir: "/media/usb/hearth", Version: "dev"})
	if err != nil || out.String() != want {
		t.Fatalf("print wrote\n%s\nwant\n%s (%v)", out.String(), want, err)
	}
	for _, line := range []string{"ExecStart=/usr/local/bin/hearth", "Environment=HEARTH_HOSTS=hearth.lan,192.168.1.20", "ReadWritePaths=-/media/usb/hearth"} {
		if !strings.Contains(out.String(), "\n"+line+"\n") {
			t.Errorf("no %q", line)
		}
	}
	// This test binary lives in a temporary directory the sandbox hides.
	out.Reset()
	errOut.Reset()
	if code := runService([]string{"print"}, noEnv, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "sudo install -m 0755") {
		t.Fatalf("a binary under /tmp: exit %d, %s", code, errOut.String())
	}
	for _, bad := range [][]string{nil, {"start"}, {"print", "extra"}, {"print", "-addr", "nonsense"}} {
		if code := runService(bad, noEnv, &out, &errOut); code == 0 {
			t.Errorf("hearth service %q succeeded", bad)
		}
	}
}

// The terminal QR code reads back as the URL printed above it.
func TestScreenURLCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runScreenURL([]string{"-addr", "0.0.0.0:8080", "-hosts", "hearth.lan"}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	if !strings.Contains(text, "\n    http://hearth.lan:8080/\n") || !strings.Contains(text, "from HEARTH_HOSTS") {
		t.Fatalf("output:\n%s", text)
	}
	var code []string
	for _, line := range strings.Split(text, "\n") {
		if line != "" && strings.Trim(line, "█▀▄ ") == "" {
			code = append(code, line)
		}
	}
	if got, err := qrtest.DecodeTerminal(strings.Join(code, "\n")+"\n", false); err != nil || got != "http://hearth.lan:8080/" {
		t.Fatalf("QR code reads %q (%v)", got, err)
	}

	// From the environment, URL only; a loopback address says what to change.
	out.Reset()
	env := func(k string) string { return map[string]string{"HEARTH_ADDR": "127.0.0.1:9090"}[k] }
	if code := runScreenURL([]string{"-no-qr"}, env, &out, &errOut); code != 0 || out.String() != "http://127.0.0.1:9090/\n" {
		t.Fatalf("-no-qr: exit %d %q", code, out.String())
	}
	out.Reset()
	if code := runScreenURL(nil, env, &out, &errOut); code != 0 || !strings.Contains(out.String(), "HEARTH_ADDR=0.0.0.0:9090") {
		t.Fatalf("loopback: exit %d\n%s", code, out.String())
	}
	if code := runScreenURL([]string{"-hosts", "a/b"}, noEnv, &out, &errOut); code != 2 {
		t.Fatalf("a bad host: exit %d", code)
	}
}
