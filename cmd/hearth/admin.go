package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"hearth/internal/session"
	"hearth/web"
	"hearth/web/adminauth"
)

// runAdmin is `hearth admin login-link`: a one-time link to the admin area
// for whoever can run commands on the Hearth box. It is the way in that no
// client on the network can block: while wrong passwords from many
// addresses hold the login back, the link still works (see adminauth).
func runAdmin(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "login-link" {
		fmt.Fprintln(stderr, "usage: hearth admin login-link [-addr A] [-hosts H]")
		return 2
	}
	fs := flag.NewFlagSet("hearth admin login-link", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "listen address of the server (default HEARTH_ADDR, else 127.0.0.1:8080)")
	hosts := fs.String("hosts", "", "host names the household uses, comma separated (default HEARTH_HOSTS)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hearth admin login-link: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := addressConfig(*addr, *hosts, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth admin login-link:", err)
		return 2
	}
	s := web.ScreenURL(cfg.Addr, cfg.Hosts)
	if cfg.AdminPassword == "" {
		fmt.Fprintf(stderr, "hearth admin login-link: no admin password is set (HEARTH_ADMIN_PASSWORD), so there is no login: "+
			"the admin area is open from this machine at %sadmin\n", s.Local)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	db, err := openDatabase(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth admin login-link:", err)
		return 1
	}
	defer db.Close()
	code, err := adminauth.NewLoginLink(ctx, session.New(db))
	if err != nil {
		fmt.Fprintln(stderr, "hearth admin login-link:", err)
		return 1
	}
	link := func(base string) string {
		return strings.TrimSuffix(base, "/") + "/admin/login/link?code=" + url.QueryEscape(code)
	}
	fmt.Fprintf(stdout, "Open this link within %d minutes to log in to the Hearth admin area (it works once):\n\n    %s\n",
		int(adminauth.LoginLinkTTL.Minutes()), link(s.URL))
	if s.Local != s.URL {
		fmt.Fprintf(stdout, "\nOn this machine: %s\n", link(s.Local))
	}
	return 0
}
