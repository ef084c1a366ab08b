// Command hearth runs the household fitness dashboard and its coach.
//
//	hearth [flags]                      serve (see -h for flags and env vars)
//	hearth import --member ID FILE…     import Apple Health or CSV files
//	hearth backup [--to DIR]            write a verified backup archive (server may run)
//	hearth restore ARCHIVE              restore a backup (server stopped)
package main

import (
	"context"
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
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "import":
			os.Exit(runImport(os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
		case "backup":
			os.Exit(runBackup(os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
		case "restore":
			os.Exit(runRestore(os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
		}
	}
	if err := run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "hearth:", err)
		os.Exit(1)
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
	open := func(ctx context.Context) (*store.DB, error) { return store.Open(ctx, cfg.DBPath, nil) }
	// CSV times without an offset are household time unless --tz says otherwise.
	args = append([]string{"--tz", cfg.TZName, "--max-bytes", strconv.FormatInt(cfg.ImportMaxBytes, 10)}, args...)
	return importer.RunCLI(ctx, args, stdout, stderr, open)
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
	logger := app.NewLogger(stderr, cfg.LogLevel)
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
