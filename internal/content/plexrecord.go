package content

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Where a Plex sync was started from (PlexSync.Origin).
const (
	PlexSyncAtStart = "start" // the server starting with PLEX_SECTION
	PlexSyncCLI     = "cli"   // hearth plex sync
	PlexSyncAdmin   = "admin" // Admin → Catalog, "Sync now"
)

// plexSyncsKept is how many sync results are kept.
const plexSyncsKept = 50

// maxPlexWarnings caps the warnings one sync records.
const maxPlexWarnings = 20

// PlexSync is the outcome of one Plex sync, recorded in plex_syncs and
// shown on Admin → Catalog and by `hearth plex sync`.
type PlexSync struct {
	ID int64
	// Section is the section id synced; Title its name in Plex ("" when unknown).
	Section, Title string
	Origin         string
	Started        time.Time
	Finished       time.Time
	// Seen counts the episodes and movies Plex listed.
	Seen                      int
	Added, Updated, Unchanged int
	// Removed counts Plex items in the catalog that the section no longer
	// lists; they are kept (workouts and playlists name them).
	Removed int
	// Skipped counts listed entries left out (no duration).
	Skipped                        int
	ProgramsAdded, ProgramsUpdated int
	Warnings                       []string
	// Error says why the sync failed ("" when it succeeded): never the token.
	Error string
}

// OK reports whether the sync succeeded.
func (s PlexSync) OK() bool { return s.Error == "" }

// Name is "section 3 (Fitness)".
func (s PlexSync) Name() string {
	if s.Title != "" {
		return "section " + s.Section + " (" + s.Title + ")"
	}
	return "section " + s.Section
}

// Headline is the one-line outcome.
func (s PlexSync) Headline() string {
	if !s.OK() {
		return "Plex sync of " + s.Name() + " failed: " + s.Error
	}
	return fmt.Sprintf("Plex sync of %s: %d episodes and movies seen; %d added, %d updated, %d unchanged, %d no longer in Plex, %d skipped",
		s.Name(), s.Seen, s.Added, s.Updated, s.Unchanged, s.Removed, s.Skipped)
}

// SyncPlex imports a Plex library section into the catalog, all or
// nothing (see FetchSection for the mapping), and records the outcome,
// failed or not (LastPlexSync). Re-syncing an unchanged library changes
// nothing. The error, when there is one, is also in the result's Error.
func (c *Catalog) SyncPlex(ctx context.Context, px *PlexClient, sectionID, origin string) (PlexSync, error) {
	res := PlexSync{Section: clean(sectionID, 40, false), Origin: origin, Started: c.db.Now()}
	if res.Section == "" {
		res.Section = "(none)"
	}
	err := c.syncPlex(ctx, px, sectionID, &res)
	res.Finished = c.db.Now()
	if err != nil {
		res.Error = plexErrorText(err)
	}
	if len(res.Warnings) > maxPlexWarnings {
		n := len(res.Warnings) - maxPlexWarnings + 1
		res.Warnings = append(res.Warnings[:maxPlexWarnings-1], fmt.Sprintf("and %d more warnings", n))
	}
	// Recorded even when the sync ran out of time or was cancelled.
	if rerr := c.recordPlexSync(context.WithoutCancel(ctx), &res); rerr != nil {
		err = errors.Join(err, rerr)
	}
	return res, err
}

func (c *Catalog) syncPlex(ctx context.Context, px *PlexClient, sectionID string, res *PlexSync) error {
	if px == nil {
		return apperr.Invalidf("Plex is not configured: set PLEX_URL and PLEX_TOKEN")
	}
	f, err := px.FetchSection(ctx, sectionID)
	res.Title, res.Seen, res.Skipped = clean(f.Title, 200, false), f.Seen, len(f.Skipped)
	res.Warnings = append(res.Warnings, f.Warnings...)
	if len(f.Skipped) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d entries have no duration and were left out: %s",
			len(f.Skipped), listSome(f.Skipped, 5)))
	}
	if err != nil {
		return err
	}
	sum, err := c.Import(ctx, f.File, SourcePlex)
	if err != nil {
		return err
	}
	res.Added, res.Updated, res.Unchanged = sum.ItemsAdded, sum.ItemsUpdated, sum.ItemsUnchanged
	res.ProgramsAdded, res.ProgramsUpdated = sum.ProgramsAdded, sum.ProgramsUpdated
	gone, err := c.plexItemsNotIn(ctx, f.File.Items)
	if err != nil {
		return err
	}
	res.Removed = len(gone)
	if len(gone) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d Plex items in the catalog are no longer in this section "+
			"(kept: workouts and playlists name them): %s", len(gone), listSome(gone, 5)))
	}
	return nil
}

// plexItemsNotIn names the catalog's Plex items that are not in items.
func (c *Catalog) plexItemsNotIn(ctx context.Context, items []Item) ([]string, error) {
	in := make(map[string]bool, len(items))
	for _, it := range items {
		in[it.ID] = true
	}
	rows, err := c.db.Read.QueryContext(ctx, `SELECT id, title FROM content_items WHERE source = ? ORDER BY title, id`, SourcePlex)
	if err != nil {
		return nil, fmt.Errorf("content: plex items: %w", err)
	}
	defer rows.Close()
	var gone []string
	for rows.Next() {
		var id, title string
		if err := rows.Scan(&id, &title); err != nil {
			return nil, fmt.Errorf("content: plex items: %w", err)
		}
		if !in[id] {
			gone = append(gone, fmt.Sprintf("%q (%s)", title, id))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("content: plex items: %w", err)
	}
	return gone, nil
}

// listSome joins the first n names and says how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// plexErrorText is what a failed sync says: the user-facing message of
// an apperr (a wrong token, a missing or empty section), else the error,
// which the client has already stripped of the token.
func plexErrorText(err error) string {
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae) && ae.Message != "":
		return ae.Message
	case errors.Is(err, context.DeadlineExceeded):
		return "Plex did not finish answering in time: " + err.Error()
	case errors.Is(err, context.Canceled):
		return "the sync was stopped before it finished"
	}
	return err.Error()
}

func (c *Catalog) recordPlexSync(ctx context.Context, s *PlexSync) error {
	warnings, err := json.Marshal(append([]string{}, s.Warnings...))
	if err != nil {
		return fmt.Errorf("content: record plex sync: %w", err)
	}
	return c.db.Tx(ctx, func(tx *store.Tx) error {
		r, err := tx.ExecContext(ctx, `INSERT INTO plex_syncs (section, section_title, origin, started_at, finished_at,
			items_seen, items_added, items_updated, items_unchanged, items_removed, items_skipped,
			programs_added, programs_updated, warnings, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.Section, s.Title, s.Origin, store.FormatTime(s.Started), store.FormatTime(s.Finished),
			s.Seen, s.Added, s.Updated, s.Unchanged, s.Removed, s.Skipped, s.ProgramsAdded, s.ProgramsUpdated,
			string(warnings), s.Error)
		if err != nil {
			return fmt.Errorf("content: record plex sync: %w", err)
		}
		if s.ID, err = r.LastInsertId(); err != nil {
			return fmt.Errorf("content: record plex sync: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM plex_syncs WHERE id <= ?`, s.ID-plexSyncsKept); err != nil {
			return fmt.Errorf("content: trim plex syncs: %w", err)
		}
		return nil
	})
}

// LastPlexSync returns the newest recorded sync; ok is false when there is none.
func (c *Catalog) LastPlexSync(ctx context.Context) (s PlexSync, ok bool, err error) {
	var started, finished, warnings string
	err = c.db.Read.QueryRowContext(ctx, `SELECT id, section, section_title, origin, started_at, finished_at,
		items_seen, items_added, items_updated, items_unchanged, items_removed, items_skipped,
		programs_added, programs_updated, warnings, error FROM plex_syncs ORDER BY id DESC LIMIT 1`).Scan(
		&s.ID, &s.Section, &s.Title, &s.Origin, &started, &finished, &s.Seen, &s.Added, &s.Updated, &s.Unchanged,
		&s.Removed, &s.Skipped, &s.ProgramsAdded, &s.ProgramsUpdated, &warnings, &s.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return PlexSync{}, false, nil
	}
	if err != nil {
		return PlexSync{}, false, fmt.Errorf("content: last plex sync: %w", err)
	}
	if s.Started, err = store.ParseTime(started); err != nil {
		return PlexSync{}, false, fmt.Errorf("content: last plex sync: %w", err)
	}
	if s.Finished, err = store.ParseTime(finished); err != nil {
		return PlexSync{}, false, fmt.Errorf("content: last plex sync: %w", err)
	}
	if err := json.Unmarshal([]byte(warnings), &s.Warnings); err != nil {
		return PlexSync{}, false, fmt.Errorf("content: last plex sync warnings: %w", err)
	}
	return s, true, nil
}
