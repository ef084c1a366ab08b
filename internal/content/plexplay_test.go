package content_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
)

// playServer is a workout section and a film section, with a TV that
// plays and a phone that only reports its timeline.
func playServer(t *testing.T) (*plextest.Server, *content.PlexClient) {
	t.Helper()
	srv := plextest.New(t, plexToken,
		plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
			{RatingKey: "301", Type: "movie", Title: "Morning Yoga Session", DurationMS: 1_200_000},
			{RatingKey: "302", Type: "movie", Title: "Evening Yoga", DurationMS: 900_000},
		}},
		plextest.Section{Key: "8", Title: "Shows", Type: "show", Top: []plextest.Item{{RatingKey: "500", Type: "show", Title: "Yoga Weekly"}},
			Episodes: []plextest.Item{{RatingKey: "501", Type: "episode", Title: "Yoga for Backs", Show: "500", Season: 1, Index: 1, DurationMS: 600_000}}})
	srv.SetPlayers(plextest.TV("Living Room TV", "A2E901F8-E016-43A7-ADFB-EF8CA8A4AC05"),
		plextest.Player{Name: "Kim's phone", Host: "192.168.1.50", Address: "192.168.1.50", Port: 32500, MachineIdentifier: "phone1",
			Product: "Plex for iOS", DeviceClass: "phone", Capabilities: "timeline"})
	px, err := content.NewPlexClient(srv.URL, plexToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, px
}

func TestPlexClientsListsThePlayers(t *testing.T) {
	srv, px := playServer(t)
	got, err := px.Clients(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("players = %+v", got)
	}
	tv, phone := got[0], got[1]
	if tv.Name != "Living Room TV" || tv.MachineIdentifier != "A2E901F8-E016-43A7-ADFB-EF8CA8A4AC05" || tv.Port != "32500" ||
		tv.Product != "Plex for Android (TV)" || tv.Version != "8.17" || !tv.CanPlay() || strings.Join(tv.Capabilities, ",") != "timeline,playback,navigation,mirror,playqueues,provider-playback" {
		t.Fatalf("tv = %+v", tv)
	}
	if phone.CanPlay() || phone.Name != "Kim's phone" {
		t.Fatalf("phone = %+v: it only reports a timeline", phone)
	}
	if r := srv.Requests()[0]; r.Path != "/clients" || r.Token != plexToken || r.TokenInURL != "" {
		t.Fatalf("request = %+v", r)
	}
	srv.SetPlayers()
	if got, err := px.Clients(context.Background()); err != nil || len(got) != 0 {
		t.Fatalf("no players: %+v %v", got, err)
	}
}

func TestPlexPlayMediaAsksTheServerToPlayOnThePlayer(t *testing.T) {
	srv, px := playServer(t)
	players, err := px.Clients(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := px.PlayMedia(context.Background(), players[0], "301"); err != nil {
		t.Fatal(err)
	}
	if err := px.PlayMedia(context.Background(), players[0], "501"); err != nil {
		t.Fatal(err)
	}
	plays := srv.Plays()
	if len(plays) != 2 {
		t.Fatalf("plays = %+v", plays)
	}
	p := plays[0]
	if p.Client != "A2E901F8-E016-43A7-ADFB-EF8CA8A4AC05" || p.Key != "/library/metadata/301" || p.RatingKey != "301" || p.Controller != content.PlexControllerID {
		t.Fatalf("play = %+v", p)
	}
	host, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	q := p.Params
	if q.Get("machineIdentifier") != srv.Machine || q.Get("address") != host || q.Get("port") != port || q.Get("protocol") != "http" ||
		q.Get("offset") != "0" || q.Get("type") != "video" || q.Get("providerIdentifier") != "com.plexapp.plugins.library" ||
		!strings.HasPrefix(q.Get("containerKey"), "/playQueues/") || q.Get("token") != "" || q.Get("X-Plex-Token") != "" {
		t.Fatalf("params = %v", q)
	}
	first, _ := strconv.Atoi(q.Get("commandID"))
	if second, _ := strconv.Atoi(plays[1].Params.Get("commandID")); first <= 0 || second <= first {
		t.Fatalf("commandIDs %d then %d: each command needs a higher one", first, second)
	}
	for _, r := range srv.Requests() {
		if r.Token != plexToken || r.TokenInURL != "" {
			t.Fatalf("request %+v: the token travels in the header only", r)
		}
	}
}

func TestPlexPlayMediaErrors(t *testing.T) {
	srv, px := playServer(t)
	players, err := px.Clients(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tv, phone := players[0], players[1]
	if err := px.PlayMedia(context.Background(), tv, "../1"); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("bad rating key: %v", err)
	}
	if err := px.PlayMedia(context.Background(), phone, "301"); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("a player without playback: %v", err)
	}
	if err := px.PlayMedia(context.Background(), tv, "999"); err == nil {
		t.Fatal("an unknown item played")
	}
	srv.SetPlayers() // the TV was switched off since the listing
	err = px.PlayMedia(context.Background(), tv, "301")
	if !errors.Is(err, content.ErrPlayerGone) || !apperr.Is(err, apperr.NotFound) || !strings.Contains(err.Error(), "Living Room TV") {
		t.Fatalf("gone player: %v", err)
	}
	if len(srv.Plays()) != 0 {
		t.Fatalf("plays = %+v", srv.Plays())
	}
	bad, err := content.NewPlexClient(srv.URL, "wrong-"+plexToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.SetPlayers(plextest.TV("Living Room TV", tv.MachineIdentifier))
	for _, err := range []error{bad.PlayMedia(context.Background(), tv, "301"), func() error { _, err := bad.Clients(context.Background()); return err }()} {
		if !errors.Is(err, content.ErrPlexUnauthorized) || strings.Contains(err.Error(), plexToken) {
			t.Fatalf("wrong token: %v", err)
		}
	}
	srv.SetDown(true)
	if _, err := px.Clients(context.Background()); err == nil || strings.Contains(err.Error(), plexToken) {
		t.Fatalf("down: %v", err)
	}
}

func TestPlexSearchPlayableSearchesEverySection(t *testing.T) {
	srv, px := playServer(t)
	got, err := px.SearchPlayable(context.Background(), "yoga", 10)
	if err != nil {
		t.Fatal(err)
	}
	if keysOf(got) != "301,302,501" {
		t.Fatalf("found %s, want the movies and the episode (not the show)", keysOf(got))
	}
	if r := srv.Requests()[0]; r.Path != "/hubs/search" || strings.Contains(r.Query, "sectionId") {
		t.Fatalf("request = %+v", r)
	}
	if _, err := px.SearchPlayable(context.Background(), " ", 10); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("empty: %v", err)
	}
}
