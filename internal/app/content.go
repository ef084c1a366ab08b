package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

// loadCatalog imports the demo catalog (demo mode), the configured catalog
// file, and starts a Plex sync in the background when Plex is configured.
func (a *App) loadCatalog(ctx context.Context) error {
	if a.cfg.Demo {
		if _, err := a.Catalog.LoadDemo(ctx); err != nil {
			return fmt.Errorf("app: demo catalog: %w", err)
		}
	}
	if a.cfg.Catalog != "" {
		f, err := os.Open(a.cfg.Catalog)
		if err != nil {
			return fmt.Errorf("app: HEARTH_CATALOG: %w", err)
		}
		sum, err := a.Catalog.ImportFile(ctx, f)
		_ = f.Close()
		if err != nil {
			return fmt.Errorf("app: HEARTH_CATALOG %s: %w", a.cfg.Catalog, err)
		}
		a.log.Info("catalog imported", "file", a.cfg.Catalog, "items_added", sum.ItemsAdded, "items_updated", sum.ItemsUpdated)
	}
	// The cache is there whether or not Plex is configured: Plex may be
	// set on Admin → Integrations later, and the thumbnails asks for a
	// client on each fetch.
	dir := filepath.Join(a.dataDir(), "cache", "plex-thumbs")
	var err error
	if a.plex.thumbs, err = content.NewPlexThumbs(a.Catalog, a.plexConnect, dir, a.cfg.ThumbCacheBytes, a.log); err != nil {
		return fmt.Errorf("app: %w", err)
	}
	if _, section, err := a.plexClient(ctx); err == nil && section != "" {
		a.plex.wg.Add(1)
		go a.syncPlexAtStart()
	} else if err != nil && !errors.Is(err, errPlexNotConfigured) {
		a.log.Warn("plex: not synced at start", "err", err)
	}
	return nil
}

// plexState is Hearth's side of Plex beyond the client: the thumbnail
// cache and the syncs, one at a time (Close waits for one under way).
type plexState struct {
	thumbs *content.PlexThumbs
	mu     sync.Mutex
	wg     sync.WaitGroup
}

// syncPlexAtStart syncs the configured section in the background at
// start; the outcome is recorded (Admin → Catalog shows it) and logged.
func (a *App) syncPlexAtStart() {
	defer a.plex.wg.Done()
	ctx, cancel := context.WithTimeout(a.bg, 5*time.Minute)
	defer cancel()
	res, err := a.syncPlex(ctx, content.PlexSyncAtStart)
	if err != nil {
		a.log.Warn("plex sync failed", "section", res.Section, "err", res.Error)
		return
	}
	a.log.Info("plex synced", "section", res.Section, "seen", res.Seen, "items_added", res.Added, "items_updated", res.Updated,
		"no_longer_in_plex", res.Removed, "warnings", len(res.Warnings))
}

// syncPlex syncs the section in force now (plexClient), after any sync
// under way.
func (a *App) syncPlex(ctx context.Context, origin string) (content.PlexSync, error) {
	px, section, err := a.plexClient(ctx)
	if err == nil && section == "" {
		err = errPlexNotConfigured
	}
	if err != nil {
		return content.PlexSync{}, err
	}
	a.plex.mu.Lock()
	defer a.plex.mu.Unlock()
	return a.Catalog.SyncPlex(ctx, px, section, origin)
}

// plexAdmin is the Plex sync on Admin → Catalog.
type plexAdmin struct{ a *App }

func (p plexAdmin) LastPlexSync(ctx context.Context) (content.PlexSync, bool, error) {
	return p.a.Catalog.LastPlexSync(ctx)
}

// PlexSection is the section synced, "" when Plex is not configured to sync.
func (p plexAdmin) PlexSection(ctx context.Context) string {
	if _, section, err := p.a.plexClient(ctx); err == nil {
		return section
	}
	return ""
}

// SyncPlexNow syncs while the admin waits (at most two minutes).
func (p plexAdmin) SyncPlexNow(ctx context.Context) (content.PlexSync, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return p.a.syncPlex(ctx, content.PlexSyncAdmin)
}

// declareDemoPrograms puts the demo members on programs so the first screen
// shows program-aware Up Next cards: one mid-program, one just started.
func (a *App) declareDemoPrograms(ctx context.Context) error {
	today := time.Now().In(a.cfg.Location)
	// day is how far each member has got: demo workouts carry no content
	// ids, so nothing would have advanced the program by itself.
	plans := []struct {
		member, program, pattern string
		daysAgo, day             int
	}{
		{"maya", "ember-core-30", "mon,tue,thu,fri,sat", 16, 11},
		{"theo", "ironwood-strength-6", "mon,wed,fri", 4, 2},
	}
	for _, p := range plans {
		if _, err := a.Programs.Current(ctx, p.member); err == nil || !apperr.Is(err, apperr.NotFound) {
			continue // already on a program, or the member is not the demo one
		}
		if _, err := a.DB.Member(ctx, p.member); err != nil {
			continue
		}
		start := today.AddDate(0, 0, -p.daysAgo).Format(time.DateOnly)
		if _, err := a.Programs.Declare(ctx, p.member, p.program, start, p.pattern); err != nil {
			return fmt.Errorf("app: demo program for %s: %w", p.member, err)
		}
		if _, err := a.Programs.SetDay(ctx, p.member, p.day); err != nil {
			return fmt.Errorf("app: demo program day for %s: %w", p.member, err)
		}
	}
	return nil
}
