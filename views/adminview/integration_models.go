package adminview

import "hearth/views"

// AdminIntegrations is Admin → Integrations: outside systems Hearth
// talks to, each on its card: Home Assistant and Plex; the model endpoint
// is on Admin → Model.
type AdminIntegrations struct {
	AdminPage
	HA   HomeAssistantCard
	Plex PlexCard
}

// HomeAssistantCard is the Home Assistant settings card. The token is
// never on it: only whether one is saved (TokenState).
type HomeAssistantCard struct {
	CSRF string
	// Copilot binds the URL and token fields to the copilot panel.
	Copilot bool
	// Form holds ha_url (what is saved, in force or typed) and the
	// errors of ha_url and ha_token.
	Form views.FormState
	// URLEnv and TokenEnv: HEARTH_HA_URL / HEARTH_HA_TOKEN set the field,
	// which wins and is shown read-only.
	URLEnv, TokenEnv bool
	// TokenState is the saved token's: "set", "unset" or "set but
	// unreadable: enter it again".
	TokenState string
	// TokenSaved: a token is saved on this page (Remove token is offered).
	TokenSaved bool
	// Problem says why saved tokens cannot be used now (secret.key).
	Problem string
	// Result is the last action's outcome: saved, connected, or why not.
	Result Notice
}

// tokenPlaceholder hints what an empty token field means.
func tokenPlaceholder(state string) string {
	if state == "set" {
		return "saved (leave empty to keep)"
	}
	return "paste a long-lived access token"
}

// PlexCard is the Plex settings card. The token is never on it: only
// whether one is saved (TokenState).
type PlexCard struct {
	CSRF string
	// Copilot binds the URL and token fields to the copilot panel.
	Copilot bool
	// Form holds plex_url and plex_section (in force or typed) and the
	// errors of plex_url, plex_token and plex_section.
	Form views.FormState
	// URLEnv, TokenEnv, SectionEnv: PLEX_URL / PLEX_TOKEN / PLEX_SECTION
	// (or their flags) set the field, which wins and is shown read-only.
	URLEnv, TokenEnv, SectionEnv bool
	TokenState                   string
	TokenSaved                   bool
	// Sections are the server's when it answered: the section is chosen
	// from them; without them its id is typed.
	Sections []PlexSectionOption
	Problem  string
	Result   Notice
}

// PlexSectionOption is one choice of the section select.
type PlexSectionOption struct{ Key, Label string }

// sectionListed reports whether key is among the options.
func sectionListed(opts []PlexSectionOption, key string) bool {
	for _, o := range opts {
		if o.Key == key {
			return true
		}
	}
	return false
}

// plexTokenPlaceholder hints what an empty token field means.
func plexTokenPlaceholder(state string) string {
	if state == "set" {
		return "saved (leave empty to keep)"
	}
	return "paste your X-Plex-Token"
}
