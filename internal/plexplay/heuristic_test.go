package plexplay_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/content/plextest"
	"hearth/internal/plexplay"
)

// recordingCaller is the engine's caller over the toolbox, remembering
// which tools the heuristic used.
func recordingCaller(t *testing.T, connect plexplay.Connect) (agent.ToolCaller, *[]string) {
	inner := toolbox(t, connect).Caller(agent.Scope{})
	var used []string
	return func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		used = append(used, name+" "+string(args))
		return inner(ctx, name, args)
	}, &used
}

func TestReplyPlaysOnThePlayer(t *testing.T) {
	srv := house(t)
	caller, used := recordingCaller(t, connect(t, srv))
	reply, ok := plexplay.Reply(context.Background(), caller, "Play my yoga session on the living room TV")
	if !ok || reply != "Playing “Morning Yoga Session” on Living Room TV." {
		t.Fatalf("reply = %q %v", reply, ok)
	}
	plays := srv.Plays()
	if len(plays) != 1 || plays[0].Client != tvID || plays[0].RatingKey != "301" || plays[0].Key != "/library/metadata/301" {
		t.Fatalf("plays = %+v", plays)
	}
	want := []string{`plex_list_clients {}`, `plex_find_media {"query":"yoga session"}`, `plex_play {"client":"Living Room TV","item":"301"}`}
	if strings.Join(*used, "; ") != strings.Join(want, "; ") {
		t.Fatalf("calls = %v", *used)
	}
}

func TestReply(t *testing.T) {
	cases := []struct {
		message, reply, played string
	}{
		{"Put on the morning yoga session on the TV, please.", "Playing “Morning Yoga Session” on Living Room TV.", "301"},
		{"play yoga on the beach on the living room tv", "Playing “Yoga on the Beach” on Living Room TV.", "303"},
		{"Can you play “Hips and Backs” on Living Room TV?", "Playing “Hips and Backs” on Living Room TV.", "501"},
		{"play iron hiit on " + tvID, "Playing “Iron HIIT” on Living Room TV.", "304"},
		{"play a session of morning yoga on the tv", "Playing “Morning Yoga Session” on Living Room TV.", "301"},
		{"play yoga on the living room tv", "Which one: “Morning Yoga Session”, “Evening Yoga” or “Yoga on the Beach”? Say its full title.", ""},
		{"play pilates on the living room tv", "I couldn't find “pilates” in Plex.", ""},
		{"play yoga on the bedroom tv", "I couldn't find a Plex player called “bedroom tv”. The players on now: Living Room TV.", ""},
		{"play yoga on kim's phone", "Kim's phone (Plex for iOS) is on, but it does not take playback commands from Hearth.", ""},
	}
	for _, c := range cases {
		t.Run(c.message, func(t *testing.T) {
			srv := house(t)
			caller, _ := recordingCaller(t, connect(t, srv))
			reply, ok := plexplay.Reply(context.Background(), caller, c.message)
			if !ok || reply != c.reply {
				t.Fatalf("reply = %q %v, want %q", reply, ok, c.reply)
			}
			plays := srv.Plays()
			if c.played == "" && len(plays) != 0 || c.played != "" && (len(plays) != 1 || plays[0].RatingKey != c.played || plays[0].Client != tvID) {
				t.Fatalf("plays = %+v, want %q", plays, c.played)
			}
		})
	}
}

func TestReplyLeavesOtherMessages(t *testing.T) {
	srv := house(t)
	caller, used := recordingCaller(t, connect(t, srv))
	for _, msg := range []string{"turn on the living room lights", "play my yoga session", "what's on the TV?", "put on the tv", "", "play " + strings.Repeat("yoga ", 80) + "on the living room tv"} {
		if reply, ok := plexplay.Reply(context.Background(), caller, msg); ok {
			t.Errorf("%q answered %q", msg, reply)
		}
	}
	if len(*used) != 0 {
		t.Fatalf("calls = %v", *used)
	}
}

func TestReplyWithoutPlayersOrPlex(t *testing.T) {
	srv := house(t)
	srv.SetPlayers()
	caller, _ := recordingCaller(t, connect(t, srv))
	if reply, ok := plexplay.Reply(context.Background(), caller, "play my yoga session on the living room TV"); !ok || reply != "No Plex player is on: open Plex on the TV first." {
		t.Fatalf("no players: %q %v", reply, ok)
	}
	caller, _ = recordingCaller(t, nil)
	if reply, ok := plexplay.Reply(context.Background(), caller, "play my yoga session on the living room TV"); !ok || !strings.Contains(reply, "Plex is not set up") {
		t.Fatalf("not configured: %q %v", reply, ok)
	}
	srv.SetPlayers(plextest.TV("Living Room TV", tvID), plextest.TV("Living Room TV", "second-tv"))
	caller, _ = recordingCaller(t, connect(t, srv))
	if reply, ok := plexplay.Reply(context.Background(), caller, "play iron hiit on the living room TV"); !ok || reply != "Playing “Iron HIIT” on Living Room TV." {
		t.Fatalf("two of one name: %q %v", reply, ok)
	}
	if p := srv.Plays(); len(p) != 1 || p[0].Client != tvID {
		t.Fatalf("plays = %+v: the first of two same-named players, by id", p)
	}
}
