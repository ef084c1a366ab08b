package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/homeassistant"
	"hearth/internal/settings"
	"hearth/internal/store/storetest"
	"hearth/web/admin"
)

// haApp is an App with only what homeAssistant reads: the configuration
// (HEARTH_HA_URL / HEARTH_HA_TOKEN) and the saved settings.
func haApp(t *testing.T, envURL, envToken string) (*App, string) {
	t.Helper()
	dir, db := t.TempDir(), storetest.Open(t)
	return &App{cfg: Config{HAURL: envURL, HAToken: envToken}, DB: db, Settings: settings.New(db, dir)}, dir
}

func TestHomeAssistantPrecedence(t *testing.T) {
	ctx := context.Background()
	save := func(t *testing.T, a *App, url, token string) {
		t.Helper()
		if err := a.Settings.Set(ctx, haURLSetting, url); err != nil {
			t.Fatal(err)
		}
		if err := a.Settings.SetSecret(ctx, haTokenSetting, token); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name                 string
		envURL, envToken     string
		savedURL, savedToken string
		wantURL, wantToken   string
		urlFrom, tokenFrom   settings.Source
		wantErr              error
	}{
		{"nothing set", "", "", "", "", "", "", settings.FromDefault, settings.FromDefault, homeassistant.ErrNotConfigured},
		{"admin only", "", "", "http://admin.example:8123", "admin-token", "http://admin.example:8123", "admin-token",
			settings.FromAdmin, settings.FromAdmin, nil},
		{"environment over admin", "http://env.example:8123", "env-token", "http://admin.example:8123", "admin-token",
			"http://env.example:8123", "env-token", settings.FromEnvironment, settings.FromEnvironment, nil},
		{"each field on its own", "http://env.example:8123", "", "http://admin.example:8123", "admin-token",
			"http://env.example:8123", "admin-token", settings.FromEnvironment, settings.FromAdmin, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := haApp(t, c.envURL, c.envToken)
			if c.savedURL != "" {
				save(t, a, c.savedURL, c.savedToken)
			}
			s, err := a.homeAssistantSettings(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if s.URL != c.wantURL || s.Token != c.wantToken || s.URLFrom != c.urlFrom || s.TokenFrom != c.tokenFrom {
				t.Fatalf("settings = %+v; want %s from %s, token from %s", s, c.wantURL, c.urlFrom, c.tokenFrom)
			}
			cl, err := a.homeAssistant(ctx)
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("homeAssistant: %v, want %v", err, c.wantErr)
			}
			if err == nil && cl.BaseURL() != c.wantURL {
				t.Fatalf("client for %s, want %s", cl.BaseURL(), c.wantURL)
			}
		})
	}
}

// A saved token that no longer decrypts (another secret.key) is said, not
// used and not a crash.
func TestHomeAssistantUnreadableToken(t *testing.T) {
	ctx := context.Background()
	a, dir := haApp(t, "", "")
	if err := a.Settings.Set(ctx, haURLSetting, "http://ha.example:8123"); err != nil {
		t.Fatal(err)
	}
	if err := a.Settings.SetSecret(ctx, haTokenSetting, "the-token"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, settings.KeyFileName)); err != nil {
		t.Fatal(err)
	}
	a.Settings = settings.New(a.DB, dir)
	if _, err := a.homeAssistant(ctx); !errors.Is(err, settings.ErrUnreadable) {
		t.Fatalf("homeAssistant with an unreadable token: %v", err)
	}
	v, err := integrationsAdmin{a}.HomeAssistant(ctx)
	if err != nil || v.TokenState != "set but unreadable: enter it again" || !v.TokenSaved {
		t.Fatalf("page view: %+v, %v", v, err)
	}
}

// A secret.key others may read: the page says what to do (it still
// renders), a save of a token is refused with the same words, and the
// client is not built with a token it must not read.
func TestHomeAssistantKeyFileReadableByOthers(t *testing.T) {
	ctx := context.Background()
	a, dir := haApp(t, "", "")
	ia := integrationsAdmin{a}
	if err := ia.SaveHomeAssistant(ctx, admin.HomeAssistantInput{URL: "http://ha.example:8123", Token: "tok"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, settings.KeyFileName), 0o644); err != nil {
		t.Fatal(err)
	}
	a.Settings = settings.New(a.DB, dir)
	v, err := ia.HomeAssistant(ctx)
	if err != nil || !strings.Contains(v.Problem, "chmod 600") || v.URL != "http://ha.example:8123" {
		t.Fatalf("page view: %+v, %v", v, err)
	}
	err = ia.SaveHomeAssistant(ctx, admin.HomeAssistantInput{URL: "http://ha.example:8123", Token: "other"})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("save with a 0644 key file: %v", err)
	}
	if _, err := a.homeAssistant(ctx); !errors.Is(err, settings.ErrKeyFile) {
		t.Fatalf("client with a 0644 key file: %v", err)
	}
}
