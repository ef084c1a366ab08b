package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hearth/internal/settings"
	"hearth/internal/store/storetest"
)

// plexApp is an App with only what plexClient reads: the configuration
// (PLEX_URL / PLEX_TOKEN / PLEX_SECTION) and the saved settings.
func plexApp(t *testing.T, envURL, envToken, envSection string) (*App, string) {
	t.Helper()
	dir, db := t.TempDir(), storetest.Open(t)
	return &App{cfg: Config{PlexURL: envURL, PlexToken: envToken, PlexSection: envSection}, DB: db, Settings: settings.New(db, dir)}, dir
}

func TestPlexPrecedence(t *testing.T) {
	ctx := context.Background()
	const (
		envURL, adminURL = "http://env.example:32400", "http://admin.example:32400"
		env, admin, none = settings.FromEnvironment, settings.FromAdmin, settings.FromDefault
	)
	for _, c := range []struct {
		name                            string
		envURL, envToken, envSection    string
		savedURL, savedToken, savedSec  string
		wantURL, wantToken, wantSection string
		urlFrom, tokenFrom, sectionFrom settings.Source
		wantErr                         error
	}{
		{"nothing set", "", "", "", "", "", "", "", "", "", none, none, none, errPlexNotConfigured},
		{"admin only", "", "", "", adminURL, "admin-token", "7", adminURL, "admin-token", "7", admin, admin, admin, nil},
		{"environment over admin", envURL, "env-token", "3", adminURL, "admin-token", "7", envURL, "env-token", "3", env, env, env, nil},
		{"each field on its own", envURL, "", "", adminURL, "admin-token", "7", envURL, "admin-token", "7", env, admin, admin, nil},
		{"section from the environment only", "", "", "3", adminURL, "admin-token", "", adminURL, "admin-token", "3", admin, admin, env, nil},
		{"no token anywhere", envURL, "", "3", "", "", "", envURL, "", "3", env, none, env, errPlexNotConfigured},
		{"no section: a client for thumbnails", "", "", "", adminURL, "admin-token", "", adminURL, "admin-token", "", admin, admin, none, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := plexApp(t, c.envURL, c.envToken, c.envSection)
			for name, v := range map[string]string{plexURLSetting: c.savedURL, plexSectionSetting: c.savedSec} {
				if err := a.Settings.Set(ctx, name, v); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Settings.SetSecret(ctx, plexTokenSetting, c.savedToken); err != nil {
				t.Fatal(err)
			}
			s, err := a.plexSettings(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if s.URL != c.wantURL || s.Token != c.wantToken || s.Section != c.wantSection ||
				s.URLFrom != c.urlFrom || s.TokenFrom != c.tokenFrom || s.SectionFrom != c.sectionFrom {
				t.Fatalf("settings = %+v; want %q/%q/%q from %s/%s/%s", s, c.wantURL, c.wantToken, c.wantSection, c.urlFrom, c.tokenFrom, c.sectionFrom)
			}
			px, section, err := a.plexClient(ctx)
			if err != c.wantErr { // the one value, not a copy
				t.Fatalf("plexClient: %v, want %v", err, c.wantErr)
			}
			if err == nil && (px.BaseURL() != c.wantURL || section != c.wantSection) {
				t.Fatalf("client for %s section %q, want %s %q", px.BaseURL(), section, c.wantURL, c.wantSection)
			}
			if c.wantSection == "" {
				if _, err := a.syncPlex(ctx, "test"); err != errPlexNotConfigured {
					t.Fatalf("syncPlex without a section: %v", err)
				}
			}
		})
	}
}

// A saved token that no longer decrypts is said, not used.
func TestPlexUnreadableToken(t *testing.T) {
	ctx := context.Background()
	a, dir := plexApp(t, "", "", "")
	if err := a.Settings.Set(ctx, plexURLSetting, "http://plex.example:32400"); err != nil {
		t.Fatal(err)
	}
	if err := a.Settings.SetSecret(ctx, plexTokenSetting, "the-token"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, settings.KeyFileName)); err != nil {
		t.Fatal(err)
	}
	a.Settings = settings.New(a.DB, dir)
	if _, _, err := a.plexClient(ctx); !errors.Is(err, settings.ErrUnreadable) {
		t.Fatalf("plexClient with an unreadable token: %v", err)
	}
	v, err := integrationsAdmin{a}.Plex(ctx)
	if err != nil || v.TokenState != "set but unreadable: enter it again" || !v.TokenSaved {
		t.Fatalf("page view: %+v, %v", v, err)
	}
}
