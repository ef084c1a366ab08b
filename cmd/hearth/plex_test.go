package main

import (
	"bytes"
	"strings"
	"testing"

	"hearth/internal/content/plextest"
)

// `hearth plex sync` prints what the sync did and why it failed, with the
// exit status saying which; `hearth plex last` prints the last outcome.
func TestPlexSyncCommandSaysWhatHappened(t *testing.T) {
	const token = "cli-T0KEN-s3cret"
	srv := plextest.New(t, token, plextest.Library("3", "Fitness", 1, 4), plextest.Section{Key: "8", Title: "Empty", Type: "movie"})
	dir := t.TempDir()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string {
			if k == "HEARTH_DATA" {
				return dir
			}
			return vars[k]
		}
	}
	plex := func(section, tok string) func(string) string {
		return env(map[string]string{"PLEX_URL": srv.URL, "PLEX_TOKEN": tok, "PLEX_SECTION": section})
	}
	for _, tc := range []struct {
		name    string
		args    []string
		getenv  func(string) string
		code    int
		want    []string
		notWant string
	}{
		{"wrong token", []string{"sync"}, plex("3", "wrong-"+token), 1, []string{
			"Plex sync of section 3 failed: Plex rejected the token (HTTP 401) for /library/sections/3/all: the token is wrong or was revoked; check the Plex token (Admin → Integrations, or PLEX_TOKEN)"},
			"wrong-" + token},
		{"missing section", []string{"sync"}, plex("4", token), 1, []string{
			"Plex sync of section 4 failed: Plex has no library section 4 (HTTP 404): check PLEX_SECTION; this server's sections: 3 Fitness (show), 8 Empty (movie)"}, token},
		{"empty section", []string{"sync"}, plex("8", token), 1, []string{
			"Plex sync of section 8 (Empty) failed: Plex section 8 (Empty) is empty: it lists no shows or movies"}, token},
		{"last is the failure", []string{"last"}, env(nil), 1, []string{"started by cli", "Plex section 8 (Empty) is empty"}, ""},
		{"synced", []string{"sync"}, plex("3", token), 0, []string{
			"Syncing Plex section 3 from " + srv.URL,
			"Plex sync of section 3 (Fitness): 4 episodes and movies seen; 4 added, 0 updated, 0 unchanged, 0 no longer in Plex, 0 skipped",
			"Programs: 1 added, 0 updated"}, token},
		{"section from the flag", []string{"sync", "-plex-section", "3"}, plex("", token), 0, []string{
			"Plex sync of section 3 (Fitness): 4 episodes and movies seen; 0 added, 0 updated, 4 unchanged"}, token},
		{"not configured", []string{"sync"}, env(nil), 2, nil, ""},
		{"usage", []string{"resync"}, env(nil), 2, nil, ""},
	} {
		var out, errb bytes.Buffer
		code := runPlex(tc.args, tc.getenv, &out, &errb)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.code, out.String(), errb.String())
		}
		for _, want := range tc.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, want, out.String())
			}
		}
		if tc.notWant != "" && strings.Contains(out.String()+errb.String(), tc.notWant) {
			t.Errorf("%s: the token is in the output", tc.name)
		}
	}

	// A listing that ends short is a warning line.
	srv.Set(func(s *plextest.Server) { s.ExtraTotal = 3 })
	var out bytes.Buffer
	if code := runPlex([]string{"sync"}, plex("3", token), &out, &out); code != 0 ||
		!strings.Contains(out.String(), "Warning: Plex reported 4 entries in section 3's shows and movies but sent 1") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
}
