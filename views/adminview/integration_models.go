package adminview

import "hearth/views"

// AdminIntegrations is Admin → Integrations: outside systems Hearth
// talks to, each on its card. Home Assistant is here; Plex and the model
// endpoint are configured in the environment for now.
type AdminIntegrations struct {
	AdminPage
	HA HomeAssistantCard
}

// HomeAssistantCard is the Home Assistant settings card. The token is
// never on it: only whether one is saved (TokenState).
type HomeAssistantCard struct {
	CSRF string
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
