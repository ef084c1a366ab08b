package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"syscall"

	"hearth/internal/app"
)

// serve is the child side of "-server self": exactly cmd/hearth's server
// (same config from the environment, same app.New and Serve; GET
// /debug/vars is the app's own) plus /_load/static/* serving
// $HEARTH_LOAD_STATIC, where the tool puts a copy of a rendered page to
// compare dynamic and static serving.
func serve(args []string, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := app.LoadConfig(args, os.Getenv, stderr)
	if err != nil {
		return err
	}
	logger, flushLog := app.NewBufferedLogger(stderr, cfg.LogLevel)
	defer flushLog()
	slog.SetDefault(logger)
	logger.Info("hearth starting (hearth-load serve)", cfg.Summary()...)
	a, err := app.New(ctx, cfg, logger)
	if err != nil {
		return err
	}
	if dir := os.Getenv("HEARTH_LOAD_STATIC"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("static dir: %w", err)
		}
		a.Echo.Static("/_load/static", dir)
	}
	if addr := os.Getenv("HEARTH_LOAD_PPROF"); addr != "" {
		// Profiling the server under load (loopback only): go tool pprof
		// http://ADDR/debug/pprof/profile?seconds=5
		if _, err := loopbackURL("http://" + addr); err != nil {
			return err
		}
		go func() { _ = http.ListenAndServe(addr, nil) }() // net/http/pprof registers on the default mux
	}
	return a.Serve(ctx)
}
