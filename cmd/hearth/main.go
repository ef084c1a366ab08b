// Command hearth runs the household fitness dashboard and its coach.
//
//	hearth [flags]                      serve (see -h for flags, env vars and commands)
//	hearth import --member ID FILE…     import Apple Health or CSV files
//	hearth backup [--to DIR]            write a verified backup archive (server may run)
//	hearth restore ARCHIVE              restore a backup (server stopped)
//	hearth version                      version, commit, build date, schema
//	hearth service print|install        the systemd service
//	hearth screen-url                   the kiosk URL for a screen, with a QR code
//	hearth admin login-link             a one-time link to the admin area
//	hearth model check                  test the configured model server
//	hearth eval [flags]                 measure the coach on the scenario suite (see hearth eval -h)
//	hearth plex sync|last               sync the Plex section now, or show the last sync's outcome
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"hearth/internal/app"
	"hearth/internal/importer"
	"hearth/internal/store"
	"hearth/internal/systemd"
)

// command is one `hearth NAME …` subcommand.
type command struct {
	name, args, help string
	run              func(args []string, getenv func(string) string, stdout, stderr io.Writer) int
}

// commands are the subcommands, in the order `hearth -h` lists them.
var commands = []command{
	{"import", "--member ID FILE…", "import Apple Health exports or CSV files (the server may run)", runImport},
	{"backup", "[--to DIR]", "write a verified backup archive (the server may run)", runBackup},
	{"restore", "ARCHIVE", "restore a backup archive (stop the server first)", runRestore},
	{"version", "", "print the version, commit, build date and newest schema version", runVersion},
	{"service", "print|install [flags]", "show or install Hearth as a systemd service (-h for its flags)", runService},
	{"screen-url", "[-addr A] [-hosts H]", "print the kiosk URL for a screen on the household network, with a QR code", runScreenURL},
	{"admin", "login-link [flags]", "print a one-time link to the admin area (the way in while wrong passwords hold the login back)", runAdmin},
	{"model", "check [flags]", "test the model server: a structured request, a tool call, a streamed reply; remember what works", runModel},
	{"eval", "[flags]", "measure the coach on the scenario suite; --compare A.json B.json (-h for its flags)", runEval},
	{"plex", "sync|last [flags]", "sync the Plex library section now, or print the last sync's outcome (errors and warnings included)", runPlex},
}

func main() {
	if len(os.Args) > 1 {
		for _, c := range commands {
			if os.Args[1] == c.name {
				os.Exit(c.run(os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
			}
		}
	}
	err := run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) { // the flags were printed: add the commands
		printCommands(os.Stderr)
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hearth:", err)
		if errors.Is(err, store.ErrNewerSchema) || errors.Is(err, app.ErrUpgradeFailed) {
			os.Exit(systemd.ExitRefused) // the service does not restart into the same refusal
		}
		os.Exit(1)
	}
}

// printCommands lists the subcommands after the server's flags in `hearth -h`.
func printCommands(w io.Writer) {
	fmt.Fprintln(w, "\nCommands (hearth COMMAND -h for their flags):")
	for _, c := range commands {
		fmt.Fprintf(w, "  hearth %-10s %-24s %s\n", c.name, c.args, c.help)
	}
}

// runImport is `hearth import`: it uses the same database settings as the
// server (HEARTH_DATA / HEARTH_DB) and can run while the server is up.
func runImport(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := app.LoadConfig(nil, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth import:", err)
		return 2
	}
	// CSV times without an offset are household time unless --tz says
	// otherwise: HEARTH_TZ, else the zone chosen on Admin → Household.
	if tz := app.SavedTimeZone(ctx, cfg); tz != "" {
		cfg.TZName = tz
	}
	args = append([]string{"--tz", cfg.TZName, "--max-bytes", strconv.FormatInt(cfg.ImportMaxBytes, 10)}, args...)
	return importer.RunCLI(ctx, args, stdout, stderr, func(ctx context.Context) (*store.DB, error) {
		return openDatabase(ctx, cfg, stderr)
	})
}

// openDatabase is the server's safe open for a command that may run beside
// the server: a newer schema is refused, an older one is backed up before
// it is migrated, and only while no server (an older Hearth) runs on it.
func openDatabase(ctx context.Context, cfg app.Config, stderr io.Writer) (*store.DB, error) {
	if s, err := store.PeekSchema(ctx, cfg.DBPath); err == nil && s.Version > 0 && len(s.Pending) > 0 {
		release, err := store.LockFile(cfg.DBPath)
		if err != nil {
			return nil, fmt.Errorf("this Hearth would upgrade the database, but a Hearth server (an older version) is running on it: "+
				"stop it and start this version first: %w", err)
		}
		defer release()
	}
	return app.OpenDatabase(ctx, cfg, app.NewLogger(stderr, "warn"))
}

func run(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	stopOn := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) { // under nohup it stays ignored
		stopOn = append(stopOn, syscall.SIGHUP) // the terminal closed
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopOn...)
	defer stop()
	if getenv("HEARTH_OWN_TERMINAL") == "1" {
		restore, err := takeTerminal()
		if err != nil {
			fmt.Fprintln(stderr, "hearth: terminal:", err) // not fatal: Ctrl-C still stops Hearth
		}
		defer restore()
	}
	if getenv("HEARTH_STOP_WITH_PARENT") == "1" {
		var unwatch context.CancelFunc
		ctx, unwatch = watchParent(ctx, 200*time.Millisecond)
		defer unwatch()
	}
	cfg, err := app.LoadConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	// One server per database; `hearth restore` checks the same lock.
	release, err := store.LockFile(cfg.DBPath)
	if err != nil {
		return err
	}
	defer release()
	logger, flushLog := app.NewBufferedLogger(stderr, cfg.LogLevel)
	defer flushLog()
	slog.SetDefault(logger)
	logger.Info("hearth starting", cfg.Summary()...)
	a, err := app.New(ctx, cfg, logger)
	if err != nil {
		return err
	}
	if err := a.Serve(ctx); err != nil {
		return err
	}
	var why []any
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled { // bare Canceled: no reason given
		why = append(why, "reason", cause.Error()) // a signal, or the parent (make) stopping
	}
	logger.Info("hearth stopped cleanly", why...)
	return nil
}
