package admin

import (
	"context"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Integrations are the settings of Admin → Integrations: the environment
// wins over what is saved here, which wins over the default (package
// internal/settings). Tokens are never handed to a page.
type Integrations interface {
	HomeAssistant(ctx context.Context) (HomeAssistantSettings, error)
	// SaveHomeAssistant saves the URL and, when typed, the token; a field
	// the environment sets is left alone. A refusal names the field
	// (ha_url, ha_token) and saves nothing.
	SaveHomeAssistant(ctx context.Context, in HomeAssistantInput) error
	RemoveHomeAssistantToken(ctx context.Context) error
	// TestHomeAssistant connects with what SaveHomeAssistant would save,
	// saving nothing. A refused input is the error; a failed connection
	// is the check's Problem.
	TestHomeAssistant(ctx context.Context, in HomeAssistantInput) (HomeAssistantCheck, error)
	// Plex, SavePlex, RemovePlexToken and TestPlex are the same for
	// Plex (fields plex_url, plex_token, plex_section).
	Plex(ctx context.Context) (PlexSettings, error)
	SavePlex(ctx context.Context, in PlexInput) error
	RemovePlexToken(ctx context.Context) error
	TestPlex(ctx context.Context, in PlexInput) (PlexCheck, error)
}

// HomeAssistantSettings are what the page may show of Home Assistant's settings.
type HomeAssistantSettings struct {
	URL                      string // in force: the environment's or the saved one
	URLFromEnv, TokenFromEnv bool
	// TokenState is the saved token's (settings.State's text).
	TokenState string
	TokenSaved bool
	// Problem says why saved tokens cannot be used now (secret.key).
	Problem string
}

// HomeAssistantInput is the card's form: Token "" keeps the saved token.
type HomeAssistantInput struct{ URL, Token string }

// HomeAssistantCheck is a connection test's outcome.
type HomeAssistantCheck struct {
	Version  string
	Entities int
	// Problem is why it did not connect ("" when it did).
	Problem string
}

type integrationPages struct {
	*core
	integrations Integrations
	copilot      bool // the copilot panels beside the Home Assistant and Plex cards
}

// card fills the Home Assistant card from what is in force; typed (a
// refused form) replaces the URL shown, never with a token.
func (s *integrationPages) card(c echo.Context, typed *views.FormState, result adminview.Notice) (adminview.HomeAssistantCard, error) {
	st, err := s.integrations.HomeAssistant(c.Request().Context())
	if err != nil {
		return adminview.HomeAssistantCard{}, err
	}
	h := adminview.HomeAssistantCard{CSRF: httpkit.CSRFToken(c), URLEnv: st.URLFromEnv, TokenEnv: st.TokenFromEnv,
		TokenState: st.TokenState, TokenSaved: st.TokenSaved, Problem: st.Problem, Result: result, Copilot: s.copilot,
		Form: views.FormState{Values: map[string]string{"ha_url": st.URL}}}
	if typed != nil && !st.URLFromEnv {
		h.Form = *typed
	}
	return h, nil
}

// cards are the page's cards; a refused form or a test fills the
// typed fields and result of its own card.
type cards struct {
	haTyped, plexTyped   *views.FormState
	haResult, plexResult adminview.Notice
}

func (s *integrationPages) render(c echo.Context, status int, k cards) error {
	h, err := s.card(c, k.haTyped, k.haResult)
	if err != nil {
		return err
	}
	px, err := s.plexCard(c, k.plexTyped, k.plexResult)
	if err != nil {
		return err
	}
	p := adminview.AdminIntegrations{AdminPage: s.adminPage(c, "Integrations", "integrations"), HA: h, Plex: px}
	return httpkit.Render(c, status, adminview.AdminIntegrationsPage(p))
}

// savedNotices are the outcomes a redirect after a post names.
var savedNotices = map[string]string{
	"homeassistant": "Home Assistant settings saved.",
	"token-removed": "The Home Assistant token was removed.",
}

// plexNotices are the Plex card's.
var plexNotices = map[string]string{
	"plex":               "Plex settings saved.",
	"plex-token-removed": "The Plex token was removed.",
}

func (s *integrationPages) adminIntegrations(c echo.Context) error {
	saved := c.QueryParam("saved")
	return s.render(c, http.StatusOK, cards{haResult: adminview.Notice{Text: savedNotices[saved]},
		plexResult: adminview.Notice{Text: plexNotices[saved]}})
}

// haForm reads the card's form; a post without its URL field is not this
// form and is refused (the field is there, read-only, when the
// environment sets the URL).
func haForm(c echo.Context) (HomeAssistantInput, views.FormState, error) {
	in := HomeAssistantInput{URL: c.FormValue("ha_url"), Token: c.FormValue("ha_token")}
	typed := views.FormState{Values: map[string]string{"ha_url": in.URL}}
	if _, sent := c.Request().Form["ha_url"]; !sent {
		return in, typed, apperr.FieldErrors(map[string]string{"ha_url": "is missing from the form"})
	}
	return in, typed, nil
}

// refused shows a refused Home Assistant form (refusedCard).
func (s *integrationPages) refused(c echo.Context, typed views.FormState, err error) error {
	return s.refusedCard(c, typed, err, refusal{token: "ha_token", fields: adminview.HAFieldErrors, result: adminview.HomeAssistantResult,
		page: func(fs *views.FormState, n adminview.Notice) cards { return cards{haTyped: fs, haResult: n} }})
}

// refusal is what tells one card's refused form apart: its token field,
// the parts a Datastar post patches, and the page a plain post gets.
type refusal struct {
	token  string
	fields func(views.FormState) templ.Component
	result func(adminview.Notice) templ.Component
	page   func(*views.FormState, adminview.Notice) cards
}

// refusedCard shows a card's refused form: a Datastar post patches only
// the messages (the fields keep what was typed, the token too); a plain
// post gets the page with the URL as typed, and the token, never echoed,
// to type again.
func (s *integrationPages) refusedCard(c echo.Context, typed views.FormState, err error, r refusal) error {
	fs, err := formFailure(err, typed.Values)
	if err != nil {
		return err
	}
	msg := "Nothing was saved: see the fields."
	if m := fs.Error("_"); m != "" {
		msg = m
	}
	if c.FormValue(r.token) != "" && !httpkit.IsDatastar(c) {
		msg += " The token you typed was not kept: paste it again."
	}
	if httpkit.IsDatastar(c) {
		sse := httpkit.NewSSE(c)
		_ = sse.PatchElementTempl(r.fields(fs))
		return sse.PatchElementTempl(r.result(adminview.Notice{Text: msg, Error: true}))
	}
	return s.render(c, http.StatusBadRequest, r.page(&fs, adminview.Notice{Text: msg, Error: true}))
}

// adminHASave saves the Home Assistant card.
func (s *integrationPages) adminHASave(c echo.Context) error {
	in, typed, err := haForm(c)
	if err == nil {
		err = s.integrations.SaveHomeAssistant(c.Request().Context(), in)
	}
	if err != nil {
		return s.refused(c, typed, err)
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/admin/integrations?saved=homeassistant#homeassistant")
	}
	h, err := s.card(c, nil, adminview.Notice{Text: savedNotices["homeassistant"]})
	if err != nil {
		return err
	}
	// Replaced, not morphed: a morph keeps what the fields hold, and the
	// token just saved must leave its field.
	return httpkit.NewSSE(c).PatchElementTempl(adminview.HomeAssistantCardView(h), datastar.WithModeReplace())
}

// adminHATest tries what Save would save and says how it went.
func (s *integrationPages) adminHATest(c echo.Context) error {
	in, typed, err := haForm(c)
	var check HomeAssistantCheck
	if err == nil {
		check, err = s.integrations.TestHomeAssistant(c.Request().Context(), in)
	}
	if err != nil {
		return s.refused(c, typed, err)
	}
	res := adminview.Notice{Text: "Connected: Home Assistant " + check.Version + ", " + entityCount(check.Entities) + "."}
	if check.Problem != "" {
		res = adminview.Notice{Text: "Could not connect: " + check.Problem, Error: true}
	}
	if httpkit.IsDatastar(c) {
		sse := httpkit.NewSSE(c)
		_ = sse.PatchElementTempl(adminview.HAFieldErrors(views.FormState{}))
		return sse.PatchElementTempl(adminview.HomeAssistantResult(res))
	}
	return s.render(c, http.StatusOK, cards{haTyped: &typed, haResult: res})
}

// adminHARemoveToken removes the saved token (one set in the environment stays).
func (s *integrationPages) adminHARemoveToken(c echo.Context) error {
	if err := s.integrations.RemoveHomeAssistantToken(c.Request().Context()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/integrations?saved=token-removed#homeassistant")
}

// entityCount is "1 entity", "1,204 entities".
func entityCount(n int) string {
	if n == 1 {
		return "1 entity"
	}
	return health.Thousands(float64(n)) + " entities"
}
