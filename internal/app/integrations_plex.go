package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/settings"
	"hearth/web/admin"
)

// plexTestTimeout bounds a whole connection test (three requests);
// plexSectionsTimeout the sections fetched to fill the page's select, so
// the page answers quickly when Plex does not.
const (
	plexTestTimeout     = 20 * time.Second
	plexSectionsTimeout = 3 * time.Second
)

func (i integrationsAdmin) Plex(ctx context.Context) (admin.PlexSettings, error) {
	s, err := i.a.plexSettings(ctx)
	var out admin.PlexSettings
	if errors.Is(err, settings.ErrKeyFile) {
		out.Problem = err.Error() + ". Saved tokens cannot be used until then."
		s.TokenFrom, err = settings.FromAdmin, nil
		if i.a.cfg.PlexToken != "" {
			s.TokenFrom = settings.FromEnvironment
		}
	}
	if err != nil {
		return out, err
	}
	out.URL, out.Section = s.URL, s.Section
	out.URLFromEnv, out.TokenFromEnv = s.URLFrom == settings.FromEnvironment, s.TokenFrom == settings.FromEnvironment
	out.SectionFromEnv = s.SectionFrom == settings.FromEnvironment
	out.TokenState, out.TokenSaved = s.TokenState.String(), s.TokenState != settings.Unset
	// The select is filled when Plex answers now; else the id is typed.
	if px, _, err := i.a.plexClient(ctx); err == nil {
		sctx, cancel := context.WithTimeout(ctx, plexSectionsTimeout)
		defer cancel()
		if secs, err := px.Sections(sctx); err == nil {
			out.Sections = sectionChoices(secs)
		}
	}
	return out, nil
}

func sectionChoices(secs []content.PlexSection) []admin.PlexSectionChoice {
	out := make([]admin.PlexSectionChoice, 0, len(secs))
	for _, s := range secs {
		out = append(out, admin.PlexSectionChoice{Key: string(s.Key), Title: s.Title, Type: s.Type})
	}
	return out
}

// plexCandidate is what SavePlex would leave in force: the environment's
// fields, else the typed ones (checked), the token typed or else saved
// ("" here: the caller reads the saved one when it needs it).
func (i integrationsAdmin) plexCandidate(in admin.PlexInput) (url, token, section string, err error) {
	errs := map[string]string{}
	url = i.a.cfg.PlexURL
	if url == "" && strings.TrimSpace(in.URL) != "" {
		u, perr := content.ParsePlexURL(in.URL)
		if perr != nil {
			errs["plex_url"] = apperr.As(perr).Message
		} else {
			url = u.String()
		}
	}
	token = strings.TrimSpace(in.Token)
	switch {
	case i.a.cfg.PlexToken != "":
		token = i.a.cfg.PlexToken
	case len(token) > maxTokenLen || strings.ContainsAny(token, "\r\n\t "):
		errs["plex_token"] = "must be one Plex token (X-Plex-Token), with no spaces or line breaks"
	}
	section = i.a.cfg.PlexSection
	if section == "" {
		section = strings.TrimSpace(in.Section)
		if section != "" && !content.ValidPlexKey(section) {
			errs["plex_section"] = "must be a library section id, like 3 (letters and digits only)"
		}
	}
	if len(errs) > 0 {
		return "", "", "", apperr.FieldErrors(errs)
	}
	return url, token, section, nil
}

func (i integrationsAdmin) SavePlex(ctx context.Context, in admin.PlexInput) error {
	url, token, section, err := i.plexCandidate(in)
	if err != nil {
		return err
	}
	if i.a.cfg.PlexToken == "" && token != "" {
		if err := i.a.Settings.SetSecret(ctx, plexTokenSetting, token); err != nil {
			return keyProblem(err)
		}
	}
	if i.a.cfg.PlexURL == "" {
		if err := i.a.Settings.Set(ctx, plexURLSetting, url); err != nil { // "" clears it
			return err
		}
	}
	if i.a.cfg.PlexSection == "" {
		return i.a.Settings.Set(ctx, plexSectionSetting, section)
	}
	return nil
}

func (i integrationsAdmin) RemovePlexToken(ctx context.Context) error {
	return i.a.Settings.Clear(ctx, plexTokenSetting)
}

// TestPlex connects with what SavePlex would save: who the server is
// (GET /identity, which needs no token), its sections (which need it)
// and how many entries the chosen section holds.
func (i integrationsAdmin) TestPlex(ctx context.Context, in admin.PlexInput) (admin.PlexCheck, error) {
	url, token, section, err := i.plexCandidate(in)
	if err != nil {
		return admin.PlexCheck{}, err
	}
	if token == "" {
		if token, err = i.a.Settings.Secret(ctx, plexTokenSetting); err != nil {
			return admin.PlexCheck{Problem: "the saved token: " + err.Error()}, nil
		}
	}
	if url == "" || token == "" {
		return admin.PlexCheck{Problem: "enter the Plex URL and a token"}, nil
	}
	px, err := content.NewPlexClient(url, token, plexHTTP)
	if err != nil {
		return admin.PlexCheck{Problem: scrub(err, token)}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, plexTestTimeout)
	defer cancel()
	id, err := px.ServerIdentity(ctx)
	if err != nil {
		return admin.PlexCheck{Problem: scrub(err, token)}, nil
	}
	secs, err := px.Sections(ctx)
	if err != nil {
		return admin.PlexCheck{Machine: id.Machine, Version: id.Version, Problem: scrub(err, token)}, nil
	}
	check := admin.PlexCheck{Machine: id.Machine, Version: id.Version, Sections: sectionChoices(secs), Section: section, Items: -1}
	if section == "" {
		return check, nil
	}
	if check.Items, err = px.SectionSize(ctx, section); err != nil {
		check.Problem = "section " + section + ": " + scrub(err, token)
	}
	return check, nil
}
