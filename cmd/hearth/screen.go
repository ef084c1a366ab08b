package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"hearth/internal/app"
	"hearth/internal/qr"
	"hearth/web"
)

// runScreenURL is `hearth screen-url`: the kiosk URL a tablet on the
// household network opens (the one Admin → Screens shows), with a
// QR code drawn in the terminal.
func runScreenURL(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hearth screen-url", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "listen address of the server (default HEARTH_ADDR, else 127.0.0.1:8080)")
	hosts := fs.String("hosts", "", "host names screens use, comma separated (default HEARTH_HOSTS)")
	light := fs.Bool("light", false, "draw the QR code for a terminal with a light background")
	noQR := fs.Bool("no-qr", false, "print the URL only")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hearth screen-url: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := addressConfig(*addr, *hosts, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth screen-url:", err)
		return 2
	}
	s := web.ScreenURL(cfg.Addr, cfg.Hosts)
	if *noQR {
		fmt.Fprintln(stdout, s.URL)
		return 0
	}
	printScreen(stdout, s, *light)
	return 0
}

// addressConfig is the configuration with a command's -addr and -hosts
// (when given) over the environment: the server's own parsing and checks
// of both settings.
func addressConfig(addr, hosts string, getenv func(string) string, stderr io.Writer) (app.Config, error) {
	var args []string
	if addr != "" {
		args = append(args, "-addr", addr)
	}
	if hosts != "" {
		args = append(args, "-hosts", hosts)
	}
	return app.LoadConfig(args, getenv, stderr)
}

// printScreen writes the URL, where it came from, its QR code and any
// problem (also after `hearth service install`).
func printScreen(w io.Writer, s web.ScreenAddress, light bool) {
	fmt.Fprintf(w, "Open Hearth on a screen in the household at\n\n    %s\n\n(from %s", s.URL, s.From)
	if len(s.Others) > 0 {
		fmt.Fprintf(w, "; also %s", strings.Join(s.Others, ", "))
	}
	fmt.Fprintln(w, ")")
	if code, err := qr.Encode(s.URL); err == nil {
		fmt.Fprintln(w)
		fmt.Fprint(w, code.Terminal(light))
	}
	if s.Problem != "" {
		fmt.Fprintf(w, "\nNote: %s\n", s.Problem)
	}
}
