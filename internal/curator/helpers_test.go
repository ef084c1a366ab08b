package curator_test

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/curator"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

const token = "plex-T0KEN-secret"

// library is a fake Plex with a workout section (7) — cool-downs, a
// warm-up twice (a duplicate), a HIIT workout — a film section (8) and a
// collection of warm-ups.
func library(t *testing.T) *plextest.Server {
	t.Helper()
	srv := plextest.New(t, token,
		plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
			{RatingKey: "301", Type: "movie", Title: "Cool-down Stretch", DurationMS: 480_000, Labels: []string{"intensity:low"}},
			{RatingKey: "302", Type: "movie", Title: "Morning Warm-up", DurationMS: 600_000},
			{RatingKey: "303", Type: "movie", Title: "Hill Cool-down Walk", DurationMS: 900_000, Labels: []string{"area:knee", "family"}},
			{RatingKey: "304", Type: "movie", Title: "Iron HIIT", DurationMS: 1_800_000, Labels: []string{"intensity:high"}},
			{RatingKey: "305", Type: "movie", Title: "Morning warm-up", DurationMS: 620_000},
		}},
		plextest.Section{Key: "8", Title: "Films", Type: "movie", Top: []plextest.Item{
			{RatingKey: "401", Type: "movie", Title: "Cool Runnings", DurationMS: 5_880_000},
		}})
	srv.SetCollections(plextest.Collection{Key: "900", Section: "7", Title: "Warm-ups", Type: "movie", Items: []string{"302"}})
	return srv
}

func connect(t *testing.T, srv *plextest.Server) curator.Connect {
	t.Helper()
	px, err := content.NewPlexClient(srv.URL, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return func(context.Context) (*content.PlexClient, string, error) { return px, "7", nil }
}

func toolbox(t *testing.T, connect curator.Connect, catalog curator.Catalog) *agent.Toolbox {
	t.Helper()
	box, err := agent.NewToolbox(curator.Tools(connect, catalog))
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// call runs a tool and decodes its result as the model would read it.
func call[R any](t *testing.T, box *agent.Toolbox, scope agent.Scope, name, args string) (R, error) {
	t.Helper()
	var out R
	err := agent.CallInto(context.Background(), box.Caller(scope), name, json.RawMessage(args), &out)
	return out, err
}

// staged is one row of the proposals table.
type staged struct {
	Kind, Summary string
	Lines         []string
	Payload       json.RawMessage
}

// commit writes what st staged, as a run's commit does, and returns the
// proposals the database then holds.
func commit(t *testing.T, db *store.DB, st *agent.Stager) []staged {
	t.Helper()
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *store.Tx) error {
		_, err := st.Apply(ctx, tx, 0, store.FormatTime(db.Now()))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Read.QueryContext(ctx, `SELECT kind, summary, lines, payload FROM proposals ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []staged
	for rows.Next() {
		var s staged
		var lines, payload string
		if err := rows.Scan(&s.Kind, &s.Summary, &lines, &payload); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(lines), &s.Lines); err != nil {
			t.Fatal(err)
		}
		s.Payload = json.RawMessage(payload)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func newDB(t *testing.T) *store.DB { return storetest.Open(t) }
