package app

import (
	"context"
	"errors"
	"fmt"

	"hearth/internal/homeassistant"
	"hearth/internal/settings"
)

// The settings names of Home Assistant on Admin → Integrations.
const (
	haURLSetting   = "homeassistant.url"
	haTokenSetting = "homeassistant.token" // a secret
)

// haSettings are Home Assistant's URL and token in force, each with where
// it came from (settings.Resolve: environment over Admin → Integrations
// over unset). TokenState is the saved token's, read only when the
// environment does not set one.
type haSettings struct {
	URL, Token         string
	URLFrom, TokenFrom settings.Source
	TokenState         settings.State
}

// homeAssistantSettings resolves each field on its own, so a URL in the
// environment can go with a token saved (encrypted) in admin. A saved
// token that cannot be read is TokenState Unreadable with no Token; a
// secret.key Hearth refuses is the error.
func (a *App) homeAssistantSettings(ctx context.Context) (haSettings, error) {
	var s haSettings
	saved, err := a.Settings.Get(ctx, haURLSetting)
	if err != nil {
		return s, err
	}
	s.URL, s.URLFrom = settings.Resolve(a.cfg.HAURL, saved, "")
	if a.cfg.HAToken != "" {
		s.Token, s.TokenFrom = a.cfg.HAToken, settings.FromEnvironment
		return s, nil
	}
	tok, err := a.Settings.Secret(ctx, haTokenSetting)
	switch {
	case errors.Is(err, settings.ErrUnreadable):
		s.TokenState = settings.Unreadable
	case err != nil:
		return s, err
	case tok != "":
		s.TokenState = settings.Set
	}
	s.Token, s.TokenFrom = settings.Resolve("", tok, "")
	if s.TokenState == settings.Unreadable {
		s.TokenFrom = settings.FromAdmin
	}
	return s, nil
}

// homeAssistant is the Home Assistant client for the settings in force
// now (homeassistant.Connect), or homeassistant.ErrNotConfigured.
func (a *App) homeAssistant(ctx context.Context) (*homeassistant.Client, error) {
	s, err := a.homeAssistantSettings(ctx)
	if err != nil {
		return nil, fmt.Errorf("Home Assistant settings: %w", err)
	}
	if s.TokenState == settings.Unreadable && s.URL != "" {
		return nil, fmt.Errorf("Home Assistant token: %w", settings.ErrUnreadable)
	}
	return homeassistant.New(homeassistant.Config{URL: s.URL, Token: s.Token})
}
