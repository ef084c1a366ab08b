package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"hearth/internal/buildinfo"
	"hearth/internal/systemd"
	"hearth/web"
)

// runService is `hearth service print|install [flags]`.
func runService(args []string, _ func(string) string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: hearth service print|install [flags]")
		fmt.Fprintln(stderr, "  print    show the systemd unit install would write")
		fmt.Fprintln(stderr, "  install  create the hearth user and its directories, write the unit and the secrets file, start it (as root)")
	}
	if len(args) == 0 || (args[0] != "print" && args[0] != "install") {
		usage()
		return 2
	}
	verb := args[0]
	fs := flag.NewFlagSet("hearth service "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o systemd.Options
	fs.StringVar(&o.Binary, "bin", "", "the hearth executable the service runs (default: this one)")
	fs.StringVar(&o.User, "user", systemd.DefaultUser, "system user (and group) the service runs as")
	fs.StringVar(&o.DataDir, "data", systemd.DefaultDataDir, "data directory (HEARTH_DATA)")
	fs.StringVar(&o.BackupDir, "backup-dir", "", "backup directory (HEARTH_BACKUP_DIR; default DATA/backups), e.g. a USB drive")
	fs.StringVar(&o.Addr, "addr", systemd.DefaultAddr, "listen address (HEARTH_ADDR); 0.0.0.0 lets the household's screens in")
	hosts := fs.String("hosts", "", "host names screens use, comma separated (HEARTH_HOSTS)")
	fs.StringVar(&o.TZ, "tz", "", "household time zone (HEARTH_TZ; default the machine's)")
	fs.StringVar(&o.EnvFile, "env-file", systemd.DefaultEnvFile, "file with the secrets (admin password, API keys), root-only")
	fs.StringVar(&o.MemoryMax, "memory-max", systemd.DefaultMemoryMax, "memory ceiling (systemd MemoryMax)")
	unitPath := fs.String("unit", systemd.DefaultUnitPath, "where the unit is written")
	noStart := fs.Bool("no-start", false, "enable the service without starting it now")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hearth service %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 2
	}
	for _, h := range strings.Split(*hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			o.Hosts = append(o.Hosts, h)
		}
	}
	if o.Binary == "" {
		o.Binary = selfPath()
	}
	o.Version = buildinfo.Read().Short()
	if verb == "print" {
		unit, err := systemd.Unit(o)
		if err != nil {
			fmt.Fprintln(stderr, "hearth service print:", err)
			return 1
		}
		fmt.Fprint(stdout, unit)
		return 0
	}
	if os.Geteuid() != 0 {
		fmt.Fprintln(stderr, "hearth service install: run it as root: sudo", strings.Join(os.Args, " "))
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := systemd.Install(ctx, systemd.InstallOptions{Options: o, UnitPath: *unitPath, NoStart: *noStart, Out: stderr},
		systemd.OS{Out: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "hearth service install:", err)
		return 1
	}
	name := strings.TrimSuffix(filepath.Base(res.UnitPath), ".service")
	if res.Started {
		fmt.Fprintf(stdout, "Hearth is running as the %s service. Logs: journalctl -u %s -f\n", name, name)
	} else {
		fmt.Fprintf(stdout, "Hearth is installed as the %s service; start it with: sudo systemctl start %s\n", name, name)
	}
	if res.Password != "" {
		fmt.Fprintf(stdout, "\nAdmin password (kept in %s; change it there, then sudo systemctl restart %s):\n\n    %s\n\n",
			res.EnvFile, name, res.Password)
	}
	fmt.Fprintln(stdout)
	printScreen(stdout, web.ScreenURL(o.Addr, o.Hosts), false)
	return 0
}

// selfPath is the running executable with symlinks resolved: the unit runs
// the binary that wrote it unless -bin says otherwise.
func selfPath() string {
	p, err := os.Executable()
	if err != nil {
		return systemd.DefaultBinary
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
}
