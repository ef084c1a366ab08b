package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/settings"
)

// The settings names of Plex on Admin → Integrations.
const (
	plexURLSetting     = "plex.url"
	plexTokenSetting   = "plex.token" // a secret
	plexSectionSetting = "plex.section"
)

// errPlexNotConfigured is plexClient's one answer when the URL or the
// token is missing, and syncPlex's when the section is.
var errPlexNotConfigured = apperr.Invalidf("Plex is not configured to sync: set its URL, token and library section " +
	"on Admin → Integrations (or PLEX_URL, PLEX_TOKEN and PLEX_SECTION where Hearth starts)")

// plexHTTP is shared by every client plexClient builds, so connections
// to Plex are reused although a client is built per use.
var plexHTTP = &http.Client{Timeout: 30 * time.Second}

// plexSettings are Plex's URL, token and section in force, each with
// where it came from (environment over Admin → Integrations over unset).
// TokenState is the saved token's, read only when the environment does
// not set one.
type plexSettings struct {
	URL, Token, Section             string
	URLFrom, TokenFrom, SectionFrom settings.Source
	TokenState                      settings.State
}

// plexSettings resolves each field on its own; a secret.key Hearth
// refuses is the error (the plain fields are still filled).
func (a *App) plexSettings(ctx context.Context) (plexSettings, error) {
	var s plexSettings
	var err error
	if s.URL, s.URLFrom, err = a.savedOr(ctx, plexURLSetting, a.cfg.PlexURL); err != nil {
		return s, err
	}
	if s.Section, s.SectionFrom, err = a.savedOr(ctx, plexSectionSetting, a.cfg.PlexSection); err != nil {
		return s, err
	}
	if a.cfg.PlexToken != "" {
		s.Token, s.TokenFrom = a.cfg.PlexToken, settings.FromEnvironment
		return s, nil
	}
	s.TokenFrom = settings.FromAdmin
	tok, err := a.Settings.Secret(ctx, plexTokenSetting)
	switch {
	case errors.Is(err, settings.ErrUnreadable):
		s.TokenState = settings.Unreadable
		return s, nil
	case err != nil:
		return s, err
	case tok != "":
		s.TokenState = settings.Set
	}
	s.Token, s.TokenFrom = settings.Resolve("", tok, "")
	return s, nil
}

// plexClient is the Plex client for the settings in force now, built per
// use so that a change on Admin → Integrations applies without a restart,
// and the section to sync ("" when none is set: thumbnails need none).
// Without a URL or a token it is errPlexNotConfigured.
func (a *App) plexClient(ctx context.Context) (*content.PlexClient, string, error) {
	s, err := a.plexSettings(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("Plex settings: %w", err)
	}
	if s.TokenState == settings.Unreadable && s.URL != "" {
		return nil, "", fmt.Errorf("Plex token: %w", settings.ErrUnreadable)
	}
	if s.URL == "" || s.Token == "" {
		return nil, "", errPlexNotConfigured
	}
	px, err := content.NewPlexClient(s.URL, s.Token, plexHTTP)
	if err != nil {
		return nil, "", fmt.Errorf("Plex URL: %w", err)
	}
	return px, s.Section, nil
}

// plexConnect is plexClient for the thumbnail cache, which needs no section.
func (a *App) plexConnect(ctx context.Context) (*content.PlexClient, error) {
	px, _, err := a.plexClient(ctx)
	return px, err
}
