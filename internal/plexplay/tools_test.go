package plexplay_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/plexplay"
)

func TestFactoryNamesItsToolsAndStatus(t *testing.T) {
	inf := plexplay.Tools(connect(t, house(t))).Info(context.Background())
	if inf.Name != "plexplay" || !inf.Configured || inf.Status != "" {
		t.Fatalf("info = %+v", inf)
	}
	if got := strings.Join(inf.Tools, ","); got != "plex_list_clients,plex_find_media,plex_play" {
		t.Fatalf("tools = %s", got)
	}
}

func TestNotConfigured(t *testing.T) {
	if inf := plexplay.Tools(nil).Info(context.Background()); inf.Configured || !strings.Contains(inf.Status, "Admin → Integrations") {
		t.Fatalf("info = %+v", inf)
	}
	box := toolbox(t, nil)
	for name, args := range map[string]string{
		plexplay.ToolListClients: `{}`, plexplay.ToolFindMedia: `{"query":"yoga"}`,
		plexplay.ToolPlay: `{"item":"301","client":"Living Room TV"}`,
	} {
		if _, err := call[any](t, box, name, args); !errors.Is(err, plexplay.ErrNotConfigured) {
			t.Errorf("%s: %v, want not configured", name, err)
		}
	}
}

func TestListClients(t *testing.T) {
	srv := house(t)
	box := toolbox(t, connect(t, srv))
	got, err := call[plexplay.PlayerList](t, box, plexplay.ToolListClients, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []plexplay.PlayerInfo{{ID: tvID, Name: "Living Room TV", Product: "Plex for Android (TV)", CanPlay: true},
		{ID: "phone1", Name: "Kim's phone", Product: "Plex for iOS"}}
	if got.Count != 2 || len(got.Players) != 2 || got.Players[0] != want[0] || got.Players[1] != want[1] || got.Note != "" {
		t.Fatalf("players = %+v", got)
	}
	srv.SetPlayers(plextest.Player{Name: "Kim's phone\n<b>", MachineIdentifier: "phone1", Product: "Plex for iOS", Capabilities: "timeline"})
	got, err = call[plexplay.PlayerList](t, box, plexplay.ToolListClients, `{}`)
	if err != nil || got.Count != 1 || got.Note != plexplay.ErrNoPlayer.Error() || strings.Contains(got.Players[0].Name, "\n") {
		t.Fatalf("no player that plays: %+v %v", got, err)
	}
}

func TestFindMedia(t *testing.T) {
	box := toolbox(t, connect(t, house(t)))
	got, err := call[plexplay.MediaList](t, box, plexplay.ToolFindMedia, `{"query":"yoga"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Count != 3 || got.Items[0] != (plexplay.MediaInfo{Item: "301", Title: "Morning Yoga Session", Type: "movie", DurationMin: 20}) {
		t.Fatalf("found = %+v", got)
	}
	ep, err := call[plexplay.MediaList](t, box, plexplay.ToolFindMedia, `{"query":"hips"}`)
	if err != nil || ep.Count != 1 || ep.Items[0].Item != "501" || ep.Items[0].Type != "episode" {
		t.Fatalf("episode = %+v %v", ep, err)
	}
	if none, err := call[plexplay.MediaList](t, box, plexplay.ToolFindMedia, `{"query":"stretch weekly"}`); err != nil || none.Count != 0 || none.Items == nil {
		t.Fatalf("a show is not playable on its own: %+v %v", none, err)
	}
	if _, err := call[plexplay.MediaList](t, box, plexplay.ToolFindMedia, `{"query":""}`); err == nil {
		t.Fatal("empty query accepted")
	}
}

func TestPlay(t *testing.T) {
	srv := house(t)
	box := toolbox(t, connect(t, srv))
	got, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, `{"item":"301","client":"living room tv"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Message != "Playing “Morning Yoga Session” on Living Room TV." || got.On.ID != tvID || got.Playing.Item != "301" {
		t.Fatalf("play = %+v", got)
	}
	if _, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, `{"item":"501","client":"`+tvID+`"}`); err != nil {
		t.Fatalf("by id: %v", err)
	}
	plays := srv.Plays()
	if len(plays) != 2 || plays[0].Client != tvID || plays[0].RatingKey != "301" || plays[1].Client != tvID || plays[1].RatingKey != "501" {
		t.Fatalf("plays = %+v", plays)
	}
}

func TestPlayErrors(t *testing.T) {
	srv := house(t)
	box := toolbox(t, connect(t, srv))
	cases := []struct {
		args string
		ok   func(error) bool
		want string
	}{
		{`{"item":"999","client":"Living Room TV"}`, func(err error) bool { return apperr.Is(err, apperr.NotFound) }, "plex_find_media"},
		{`{"item":"500","client":"Living Room TV"}`, func(err error) bool { return apperr.Is(err, apperr.Invalid) }, "is a show"},
		{`{"item":"301","client":"Bedroom TV"}`, func(err error) bool { return apperr.Is(err, apperr.NotFound) }, "“Living Room TV”"},
		{`{"item":"301","client":"kim's phone"}`, func(err error) bool { return apperr.Is(err, apperr.Invalid) }, "does not take playback commands"},
	}
	for _, c := range cases {
		_, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, c.args)
		if err == nil || !c.ok(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, `{"item":"../1","client":"Living Room TV"}`); err == nil {
		t.Error("a bad item id passed the schema")
	}
	srv.SetPlayers()
	if _, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, `{"item":"301","client":"Living Room TV"}`); !errors.Is(err, plexplay.ErrNoPlayer) ||
		err.Error() != "no Plex player is on: open Plex on the TV first" {
		t.Errorf("no player: %v", err)
	}
	if len(srv.Plays()) != 0 {
		t.Fatalf("plays = %+v", srv.Plays())
	}
	bad, err := content.NewPlexClient(srv.URL, "wrong", nil)
	if err != nil {
		t.Fatal(err)
	}
	box = toolbox(t, func(context.Context) (*content.PlexClient, error) { return bad, nil })
	if _, err := call[plexplay.PlayerList](t, box, plexplay.ToolListClients, `{}`); !errors.Is(err, content.ErrPlexUnauthorized) || strings.Contains(err.Error(), token) {
		t.Fatalf("wrong token: %v", err)
	}
}

func TestPlayArgsNameTheTarget(t *testing.T) {
	var a plexplay.PlayArgs
	if err := json.Unmarshal([]byte(`{"item":"301","client":"Living Room TV"}`), &a); err != nil || a.Item != "301" || a.Client != "Living Room TV" {
		t.Fatalf("args = %+v %v", a, err)
	}
	if !plexplay.SameName("Living Room TV", " living  room tv ") || plexplay.SameName("Living Room TV", "Bedroom TV") || plexplay.SameName("", "") {
		t.Fatal("SameName")
	}
}

func TestPlayOnAPlayerWithoutAName(t *testing.T) {
	srv := house(t)
	srv.SetPlayers(plextest.Player{MachineIdentifier: "shield1", Product: "Plex for Android (TV)", Port: 32500, Capabilities: "playback,timeline"})
	box := toolbox(t, connect(t, srv))
	list, err := call[plexplay.PlayerList](t, box, plexplay.ToolListClients, `{}`)
	if err != nil || list.Players[0].Name != "Plex for Android (TV)" {
		t.Fatalf("players = %+v %v", list, err)
	}
	if _, err := call[plexplay.PlayResult](t, box, plexplay.ToolPlay, `{"item":"301","client":"plex for android (tv)"}`); err != nil {
		t.Fatalf("by the listed name: %v", err)
	}
	if p := srv.Plays(); len(p) != 1 || p[0].Client != "shield1" {
		t.Fatalf("plays = %+v", p)
	}
}
