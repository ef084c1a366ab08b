package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// bare is the "physical limit" reference: Go's net/http serving files from
// a directory with nothing else (no router, middleware, logging). A Hearth
// figure is compared with this server serving the same bytes on the same
// cores, in the same run.
//
//	hearth-load bare -addr 127.0.0.1:9000 -dir ./pages
func bare(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("hearth-load bare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	dir := fs.String("dir", ".", "directory to serve at /")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := loopbackURL("http://" + *addr); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Addr: *addr, Handler: http.FileServer(http.Dir(*dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("bare server: %w", err)
	}
	return nil
}
