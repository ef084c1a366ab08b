package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Admin → Household → a member: the PIN for shared screens is typed twice,
// 4 to 8 digits, kept only as a hash, never shown; it can be removed.
func TestAdminSetsAMembersPIN(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	for _, c := range []struct{ pin, again, want string }{
		{"2468", "2469", "The two PINs differ."},
		{"12", "12", "A PIN is 4 to 8 digits."},
		{"abcd", "abcd", "A PIN is 4 to 8 digits."},
		{"", "", "Type a PIN of 4 to 8 digits."},
	} {
		resp, body := env.form("/admin/household/ada/pin", url.Values{"pin": {c.pin}, "pin_again": {c.again}}, false)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.want) || (c.pin != "" && strings.Contains(body, `value="`+c.pin+`"`)) {
			t.Errorf("PIN %q/%q: %d, want 400 saying %q and not typing it back", c.pin, c.again, resp.StatusCode, c.want)
		}
	}
	if m, _ := env.app.Household.Member(ctx, "ada"); m.HasPIN {
		t.Fatal("a refused PIN was stored")
	}
	resp, _ := env.form("/admin/household/ada/pin", url.Values{"pin": {"246813"}, "pin_again": {"246813"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("set PIN: %d", resp.StatusCode)
	}
	if _, page := env.page("/admin/household/ada?pin=1"); !strings.Contains(page, "PIN saved.") || !strings.Contains(page, "A PIN is set") {
		t.Error("the member page does not say the PIN is set")
	}
	var hash string
	if err := env.db.Read.QueryRowContext(ctx, `SELECT pin_hash FROM members WHERE id = 'ada'`).Scan(&hash); err != nil ||
		!strings.HasPrefix(hash, "$2") || strings.Contains(hash, "246813") {
		t.Fatalf("stored PIN %q (%v), want a bcrypt hash", hash, err)
	}
	if ok, _ := env.app.Household.CheckPIN(ctx, "ada", "246813"); !ok {
		t.Error("the PIN does not check")
	}
	if ok, _ := env.app.Household.CheckPIN(ctx, "ada", "246812"); ok {
		t.Error("a wrong PIN checks")
	}
	if resp, _ = env.form("/admin/household/ada/pin", url.Values{"remove": {"1"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: %d", resp.StatusCode)
	}
	if m, _ := env.app.Household.Member(ctx, "ada"); m.HasPIN {
		t.Error("the PIN was not removed")
	}
	// A new member starts private on shared screens.
	if _, page := env.page("/admin/household"); !strings.Contains(page, `name="private_figures" value="1" checked`) {
		t.Error("the new-member form does not start private")
	}
}
