package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"hearth/internal/app"
	"hearth/internal/backup"
	"hearth/internal/importer"
	"hearth/internal/store"
)

// runBackup is `hearth backup [--to DIR]`: a verified archive of the live
// database (the server may be running) and the files it refers to.
func runBackup(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("hearth backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "directory to write the archive to (default HEARTH_BACKUP_DIR, else $HEARTH_DATA/backups)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hearth backup: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := app.LoadConfig(nil, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth backup:", err)
		return 2
	}
	dir := cfg.BackupDir
	if *to != "" {
		dir = *to
	}
	last := ""
	a, err := backup.Create(ctx, backup.CreateOptions{DBPath: cfg.DBPath, DataDir: cfg.DataDir, Dir: dir, Trigger: backup.TriggerCLI,
		Progress: func(p backup.Progress) {
			if line := fmt.Sprintf("%s %d%%", p.Phase, p.Percent()/10*10); line != last { // every 10 %
				last = line
				fmt.Fprintln(stderr, line)
			}
		}})
	if err != nil {
		fmt.Fprintln(stderr, "hearth backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up to %s (%s, schema %d, verified)\n", a.Path, importer.FormatBytes(a.Size), a.Schema)
	return 0
}

// runRestore is `hearth restore ARCHIVE`, with the server stopped.
func runRestore(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("hearth restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: hearth restore ARCHIVE   (stop the server first; HEARTH_DATA / HEARTH_DB say where)")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	cfg, err := app.LoadConfig(nil, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth restore:", err)
		return 2
	}
	archive := fs.Arg(0)
	res, err := backup.Restore(ctx, archive, backup.RestoreOptions{DBPath: cfg.DBPath, DataDir: cfg.DataDir})
	if err != nil {
		fmt.Fprintln(stderr, "hearth restore:", err)
		if errors.Is(err, backup.ErrBadArchive) || errors.Is(err, store.ErrNewerSchema) {
			fmt.Fprintln(stderr, "hearth restore: nothing was changed")
		}
		return 1
	}
	fmt.Fprintf(stdout, "restored %s (made %s, schema %d, %d files) into %s\n", filepath.Base(archive),
		res.Manifest.CreatedAt.Local().Format(time.DateTime), res.Manifest.Schema, res.Files, cfg.DBPath)
	if len(res.Migrated) > 0 {
		fmt.Fprintf(stdout, "migrated it to schema %d\n", res.Migrated[len(res.Migrated)-1])
	}
	if res.ReplacedDB != "" {
		fmt.Fprintf(stdout, "the database it replaced is kept as %s\n", res.ReplacedDB)
	}
	if res.ReplacedVoice != "" {
		fmt.Fprintf(stdout, "the voice memos it replaced are kept in %s\n", res.ReplacedVoice)
	}
	return 0
}
