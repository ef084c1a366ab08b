package admin

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// PlexSettings are what the page may show of Plex's settings.
type PlexSettings struct {
	URL, Section                             string // in force
	URLFromEnv, TokenFromEnv, SectionFromEnv bool
	TokenState                               string // the saved token's (settings.State's text)
	TokenSaved                               bool
	// Sections are the server's, when it answered now (else the id is typed).
	Sections []PlexSectionChoice
	// Problem says why saved tokens cannot be used now (secret.key).
	Problem string
}

// PlexSectionChoice is one library section of the server.
type PlexSectionChoice struct{ Key, Title, Type string }

// PlexInput is the card's form: Token "" keeps the saved token.
type PlexInput struct{ URL, Token, Section string }

// PlexCheck is a connection test's outcome.
type PlexCheck struct {
	Machine, Version string
	Sections         []PlexSectionChoice
	// Section is the one chosen, Items its entries (-1: not reported).
	Section string
	Items   int
	// Problem is why it did not connect ("" when it did).
	Problem string
}

// plexCard fills the Plex card; typed (a refused form or a test) replaces
// the fields shown, never with a token.
func (s *integrationPages) plexCard(c echo.Context, typed *views.FormState, result adminview.Notice) (adminview.PlexCard, error) {
	st, err := s.integrations.Plex(c.Request().Context())
	if err != nil {
		return adminview.PlexCard{}, err
	}
	p := adminview.PlexCard{CSRF: httpkit.CSRFToken(c), URLEnv: st.URLFromEnv, TokenEnv: st.TokenFromEnv, SectionEnv: st.SectionFromEnv,
		TokenState: st.TokenState, TokenSaved: st.TokenSaved, Problem: st.Problem, Result: result, Copilot: s.copilot,
		Sections: sectionOptions(st.Sections),
		Form:     views.FormState{Values: map[string]string{"plex_url": st.URL, "plex_section": st.Section}}}
	if typed != nil {
		for _, f := range []struct {
			name string
			env  bool
		}{{"plex_url", st.URLFromEnv}, {"plex_section", st.SectionFromEnv}} {
			if !f.env {
				p.Form.Values[f.name] = typed.Value(f.name)
			}
		}
		p.Form.Errors = typed.Errors
	}
	return p, nil
}

func sectionOptions(secs []PlexSectionChoice) []adminview.PlexSectionOption {
	out := make([]adminview.PlexSectionOption, 0, len(secs))
	for _, s := range secs {
		out = append(out, adminview.PlexSectionOption{Key: s.Key, Label: fmt.Sprintf("%s (%s, id %s)", s.Title, s.Type, s.Key)})
	}
	return out
}

// plexForm reads the card's form; a post without its URL field is not
// this form and is refused.
func plexForm(c echo.Context) (PlexInput, views.FormState, error) {
	in := PlexInput{URL: c.FormValue("plex_url"), Token: c.FormValue("plex_token"), Section: c.FormValue("plex_section")}
	typed := views.FormState{Values: map[string]string{"plex_url": in.URL, "plex_section": in.Section}}
	if _, sent := c.Request().Form["plex_url"]; !sent {
		return in, typed, apperr.FieldErrors(map[string]string{"plex_url": "is missing from the form"})
	}
	return in, typed, nil
}

// plexRefused shows a refused Plex form (refusedCard).
func (s *integrationPages) plexRefused(c echo.Context, typed views.FormState, err error) error {
	return s.refusedCard(c, typed, err, refusal{token: "plex_token", fields: adminview.PlexFieldErrors, result: adminview.PlexResult,
		page: func(fs *views.FormState, n adminview.Notice) cards { return cards{plexTyped: fs, plexResult: n} }})
}

// adminPlexSave saves the Plex card.
func (s *integrationPages) adminPlexSave(c echo.Context) error {
	in, typed, err := plexForm(c)
	if err == nil {
		err = s.integrations.SavePlex(c.Request().Context(), in)
	}
	if err != nil {
		return s.plexRefused(c, typed, err)
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/admin/integrations?saved=plex#plex")
	}
	p, err := s.plexCard(c, nil, adminview.Notice{Text: plexNotices["plex"]})
	if err != nil {
		return err
	}
	// Replaced, not morphed: the token just saved must leave its field.
	return httpkit.NewSSE(c).PatchElementTempl(adminview.PlexCardView(p), datastar.WithModeReplace())
}

// adminPlexTest tries what Save would save and says how it went; the
// section field becomes a select of the server's sections.
func (s *integrationPages) adminPlexTest(c echo.Context) error {
	in, typed, err := plexForm(c)
	var check PlexCheck
	if err == nil {
		check, err = s.integrations.TestPlex(c.Request().Context(), in)
	}
	if err != nil {
		return s.plexRefused(c, typed, err)
	}
	res := adminview.Notice{Text: plexConnected(check)}
	if check.Problem != "" {
		res = adminview.Notice{Text: "Could not connect: " + check.Problem, Error: true}
	}
	if !httpkit.IsDatastar(c) {
		return s.render(c, http.StatusOK, cards{plexTyped: &typed, plexResult: res})
	}
	sse := httpkit.NewSSE(c)
	_ = sse.PatchElementTempl(adminview.PlexFieldErrors(views.FormState{}))
	if len(check.Sections) > 0 {
		p, err := s.plexCard(c, &typed, adminview.Notice{})
		if err != nil {
			return err
		}
		p.Sections = sectionOptions(check.Sections)
		_ = sse.PatchElementTempl(adminview.PlexSectionField(p))
	}
	return sse.PatchElementTempl(adminview.PlexResult(res))
}

// plexConnected is a good test's line: the server, its sections, the
// chosen section's size.
func plexConnected(ch PlexCheck) string {
	msg := fmt.Sprintf("Connected: Plex Media Server %s (machine %s), %d library sections", ch.Version, ch.Machine, len(ch.Sections))
	switch {
	case ch.Section == "":
		return msg + ". Choose the section to sync."
	case ch.Items >= 0:
		return msg + "; section " + ch.Section + " holds " + itemCount(ch.Items) + "."
	}
	return msg + "; section " + ch.Section + " answered."
}

// itemCount is "1 item", "1,204 items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return health.Thousands(float64(n)) + " items"
}

// adminPlexRemoveToken removes the saved token (one set in the environment stays).
func (s *integrationPages) adminPlexRemoveToken(c echo.Context) error {
	if err := s.integrations.RemovePlexToken(c.Request().Context()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/integrations?saved=plex-token-removed#plex")
}
