package plexplay_test

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/plexplay"
)

const token = "plex-T0KEN-secret"

// tvID is the living room TV's machineIdentifier.
const tvID = "A2E901F8-E016-43A7-ADFB-EF8CA8A4AC05"

// house is a fake Plex with a workout section (7) and a show section (8),
// the living room TV's Plex app open and a phone that only reports its
// timeline.
func house(t *testing.T) *plextest.Server {
	t.Helper()
	srv := plextest.New(t, token,
		plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
			{RatingKey: "301", Type: "movie", Title: "Morning Yoga Session", DurationMS: 1_200_000},
			{RatingKey: "302", Type: "movie", Title: "Evening Yoga", DurationMS: 900_000},
			{RatingKey: "303", Type: "movie", Title: "Yoga on the Beach", DurationMS: 1_500_000},
			{RatingKey: "304", Type: "movie", Title: "Iron HIIT", DurationMS: 1_800_000},
		}},
		plextest.Section{Key: "8", Title: "Shows", Type: "show", Top: []plextest.Item{{RatingKey: "500", Type: "show", Title: "Stretch Weekly"}},
			Episodes: []plextest.Item{{RatingKey: "501", Type: "episode", Title: "Hips and Backs", Show: "500", Season: 1, Index: 1, DurationMS: 600_000}}})
	srv.SetPlayers(plextest.TV("Living Room TV", tvID),
		plextest.Player{Name: "Kim's phone", Host: "192.168.1.50", Address: "192.168.1.50", Port: 32500, MachineIdentifier: "phone1",
			Product: "Plex for iOS", DeviceClass: "phone", Capabilities: "timeline"})
	return srv
}

func connect(t *testing.T, srv *plextest.Server) plexplay.Connect {
	t.Helper()
	px, err := content.NewPlexClient(srv.URL, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return func(context.Context) (*content.PlexClient, error) { return px, nil }
}

func toolbox(t *testing.T, connect plexplay.Connect) *agent.Toolbox {
	t.Helper()
	box, err := agent.NewToolbox(plexplay.Tools(connect))
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// call runs a tool and decodes its result as the model would read it.
func call[R any](t *testing.T, box *agent.Toolbox, name, args string) (R, error) {
	t.Helper()
	var out R
	err := agent.CallInto(context.Background(), box.Caller(agent.Scope{}), name, json.RawMessage(args), &out)
	return out, err
}
