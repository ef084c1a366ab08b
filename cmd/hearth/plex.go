package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"hearth/internal/app"
	"hearth/internal/content"
)

const plexUsage = `usage: hearth plex sync|last [flags]

  sync   sync the Plex library section (PLEX_URL, PLEX_TOKEN, PLEX_SECTION;
         the server's flags work too, e.g. -plex-section 3) into the catalog
         now, and print the outcome: what was seen, added, updated and is no
         longer in Plex, the warnings, and why it failed (a wrong token, a
         missing or empty section, Plex not answering).
  last   print the outcome of the last sync, whoever started it (the server
         at start, Admin → Catalog or this command).

It uses the server's database (HEARTH_DATA / HEARTH_DB) and can run while the
server is up. Exit status 0 when the sync succeeded, 1 when it failed, 2 for
a usage or configuration error.`

// runPlex is `hearth plex sync|last`.
func runPlex(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "sync" && args[0] != "last") {
		fmt.Fprintln(stderr, plexUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := app.LoadConfig(args[1:], getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth plex:", err)
		return 2
	}
	db, err := openDatabase(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth plex:", err)
		return 2
	}
	defer db.Close()
	cat := content.NewCatalog(db, app.NewLogger(stderr, "warn"))
	if args[0] == "last" {
		last, ok, err := cat.LastPlexSync(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "hearth plex last:", err)
			return 2
		}
		if !ok {
			fmt.Fprintln(stdout, "No Plex sync has run yet.")
			return 0
		}
		fmt.Fprintf(stdout, "Last sync (%s, started by %s):\n", last.Finished.In(cfg.Location).Format("2 Jan 2006 15:04:05"), last.Origin)
		return printPlexSync(stdout, last)
	}
	if cfg.PlexURL == "" || cfg.PlexToken == "" || cfg.PlexSection == "" {
		fmt.Fprintln(stderr, "hearth plex sync: Plex is not configured to sync: set PLEX_URL, PLEX_TOKEN and PLEX_SECTION")
		return 2
	}
	px, err := content.NewPlexClient(cfg.PlexURL, cfg.PlexToken, nil)
	if err != nil {
		fmt.Fprintln(stderr, "hearth plex sync:", err)
		return 2
	}
	fmt.Fprintf(stdout, "Syncing Plex section %s from %s\n", cfg.PlexSection, px.BaseURL())
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	res, err := cat.SyncPlex(ctx, px, cfg.PlexSection, content.PlexSyncCLI)
	code := printPlexSync(stdout, res) // a failed sync's outcome carries its error
	if err != nil && res.OK() {
		fmt.Fprintln(stderr, "hearth plex sync: the outcome was not recorded:", err)
		return 1
	}
	return code
}

// printPlexSync prints a sync's outcome; 0 when it succeeded, 1 when not.
func printPlexSync(w io.Writer, s content.PlexSync) int {
	fmt.Fprintln(w, s.Headline())
	if s.OK() {
		fmt.Fprintf(w, "Programs: %d added, %d updated\n", s.ProgramsAdded, s.ProgramsUpdated)
	}
	for _, warning := range s.Warnings {
		fmt.Fprintln(w, "Warning:", warning)
	}
	if !s.OK() {
		return 1
	}
	return 0
}
