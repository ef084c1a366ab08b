package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/homeassistant"
	"hearth/internal/settings"
	"hearth/web/admin"
)

// haTestTimeout bounds a whole connection test (three requests), so the
// admin's page answers even when Home Assistant hangs.
const haTestTimeout = 20 * time.Second

// maxTokenLen bounds a typed token (Home Assistant's are JWTs of a few
// hundred bytes).
const maxTokenLen = 2048

// integrationsAdmin is Admin → Integrations over the app's settings.
type integrationsAdmin struct{ a *App }

var _ admin.Integrations = integrationsAdmin{}

func (i integrationsAdmin) HomeAssistant(ctx context.Context) (admin.HomeAssistantSettings, error) {
	s, err := i.a.homeAssistantSettings(ctx)
	var out admin.HomeAssistantSettings
	if errors.Is(err, settings.ErrKeyFile) {
		out.Problem = err.Error() + ". Saved tokens cannot be used until then."
		s.URL, s.URLFrom, err = i.a.savedOr(ctx, haURLSetting, i.a.cfg.HAURL)
		s.TokenFrom = settings.FromAdmin
		if i.a.cfg.HAToken != "" {
			s.TokenFrom = settings.FromEnvironment
		}
	}
	if err != nil {
		return out, err
	}
	out.URL, out.URLFromEnv, out.TokenFromEnv = s.URL, s.URLFrom == settings.FromEnvironment, s.TokenFrom == settings.FromEnvironment
	out.TokenState, out.TokenSaved = s.TokenState.String(), s.TokenState != settings.Unset
	return out, nil
}

// savedOr resolves one plain setting against its environment value.
func (a *App) savedOr(ctx context.Context, name, env string) (string, settings.Source, error) {
	saved, err := a.Settings.Get(ctx, name)
	v, from := settings.Resolve(env, saved, "")
	return v, from, err
}

// haCandidate is what Save would leave in force: the environment's
// fields, else the typed URL (checked: http or https only) and the typed
// token, or the saved one when none was typed.
func (i integrationsAdmin) haCandidate(ctx context.Context, in admin.HomeAssistantInput) (url, token string, err error) {
	errs := map[string]string{}
	url = i.a.cfg.HAURL
	if url == "" && strings.TrimSpace(in.URL) != "" {
		u, perr := homeassistant.ParseURL(in.URL)
		if perr != nil {
			errs["ha_url"] = apperr.As(perr).Message
		} else {
			url = u.String()
		}
	}
	token = strings.TrimSpace(in.Token)
	switch {
	case i.a.cfg.HAToken != "":
		token = i.a.cfg.HAToken
	case len(token) > maxTokenLen || strings.ContainsAny(token, "\r\n\t "):
		errs["ha_token"] = "must be one long-lived access token, as Home Assistant shows it (no spaces or line breaks)"
	}
	if len(errs) > 0 {
		return "", "", apperr.FieldErrors(errs)
	}
	return url, token, nil
}

func (i integrationsAdmin) SaveHomeAssistant(ctx context.Context, in admin.HomeAssistantInput) error {
	url, token, err := i.haCandidate(ctx, in)
	if err != nil {
		return err
	}
	if i.a.cfg.HAToken == "" && token != "" {
		if err := i.a.Settings.SetSecret(ctx, haTokenSetting, token); err != nil {
			return keyProblem(err)
		}
	}
	if i.a.cfg.HAURL == "" {
		return i.a.Settings.Set(ctx, haURLSetting, url) // "" clears it
	}
	return nil
}

func (i integrationsAdmin) RemoveHomeAssistantToken(ctx context.Context) error {
	return i.a.Settings.Clear(ctx, haTokenSetting)
}

func (i integrationsAdmin) TestHomeAssistant(ctx context.Context, in admin.HomeAssistantInput) (admin.HomeAssistantCheck, error) {
	url, token, err := i.haCandidate(ctx, in)
	if err != nil {
		return admin.HomeAssistantCheck{}, err
	}
	if token == "" && i.a.cfg.HAToken == "" {
		if token, err = i.a.Settings.Secret(ctx, haTokenSetting); err != nil {
			return admin.HomeAssistantCheck{Problem: "the saved token: " + err.Error()}, nil
		}
	}
	c, err := homeassistant.New(homeassistant.Config{URL: url, Token: token})
	if err != nil {
		return admin.HomeAssistantCheck{Problem: scrub(err, token)}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, haTestTimeout)
	defer cancel()
	info, err := c.Ping(ctx)
	if err != nil {
		return admin.HomeAssistantCheck{Problem: scrub(err, token)}, nil
	}
	states, err := c.States(ctx)
	if err != nil {
		return admin.HomeAssistantCheck{Problem: scrub(err, token)}, nil
	}
	return admin.HomeAssistantCheck{Version: info.Version, Entities: len(states)}, nil
}

// scrub is err's text without the token: an answer Home Assistant (or
// whatever answered at that URL) quoted back must not carry it to a page.
func scrub(err error, token string) string {
	msg := err.Error()
	if token != "" {
		msg = strings.ReplaceAll(msg, token, "•••")
	}
	return msg
}

// keyProblem makes a secret.key Hearth refuses an error the page shows.
func keyProblem(err error) error {
	if errors.Is(err, settings.ErrKeyFile) {
		return apperr.Invalidf("%s", err.Error())
	}
	return err
}
