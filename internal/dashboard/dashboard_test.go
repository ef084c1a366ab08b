package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func sampleDoc() dashboard.Document {
	return dashboard.Document{
		GeneratedAt: time.Date(2026, 2, 14, 4, 12, 0, 0, time.UTC),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{
				Primary:    &dashboard.ContentRef{ContentID: "local:core-1", Title: "Core Day 1", Duration: 30, ProgramContext: "Week 1, Day 1"},
				Alternates: []dashboard.ContentRef{{ContentID: "local:yoga-1", Title: "Easy Yoga", Duration: 20, Reason: "lighter"}},
			},
			PlaylistSuggestion: []dashboard.ContentRef{{ContentID: "local:warm-1", Title: "Warm-up", Duration: 5}},
		},
		Coach: dashboard.Coach{
			Briefing: "Good morning.",
			CTA: []dashboard.CTA{{Type: dashboard.CTADataGap, Message: "No meals logged yesterday.", Action: dashboard.ActionOpenNutrition,
				Record: dashboard.RecordMeal, Day: dashboard.DayYesterday, Macro: dashboard.MacroNone}},
			Prompts: []dashboard.Prompt{
				{ID: "p1", Type: dashboard.PromptMultipleChoice, Question: "How did you sleep?", Options: []string{"Well", "Badly"}},
				{ID: "p2", Type: dashboard.PromptVoiceMemo, Question: "Anything on your mind?", Options: []string{}},
			},
			Feedback: []string{"Three workouts this week."},
		},
	}
}

var catalog = map[string]dashboard.CatalogEntry{
	"local:core-1": {Title: "Core Day 1", Duration: 30},
	"local:yoga-1": {Title: "Easy Yoga", Duration: 20},
	"local:warm-1": {Title: "Warm-up", Duration: 5},
}

func TestSchemaAcceptsSampleAndRejectsExtras(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(dashboard.SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://dashboard.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(sampleDoc())
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("sample rejected: %v", err)
	}
	bad := bytes.Replace(raw, []byte(`"briefing":"Good morning."`), []byte(`"briefing":"","extra":1`), 1)
	inst, _ = jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err := sch.Validate(inst); err == nil {
		t.Fatal("empty briefing and extra property accepted")
	}
}

func TestValidateDomain(t *testing.T) {
	if p := dashboard.ValidateDomain(sampleDoc(), catalog); len(p) != 0 {
		t.Fatalf("valid doc: %v", p)
	}
	d := sampleDoc()
	d.Curated.UpNext.Primary.ContentID = "local:made-up"
	d.Curated.PlaylistSuggestion[0].Duration = 7
	d.Coach.Prompts[1].ID = "p1"
	d.Coach.Prompts[0].Options = []string{"Only one", " "}
	got := dashboard.ValidateDomain(d, catalog)
	want := []string{"/curated/up_next/primary/content_id", "/curated/playlist_suggestion/0/duration",
		"/coach/prompts/0/options", "/coach/prompts/1/id"}
	if len(got) != len(want) {
		t.Fatalf("problems = %v, want paths %v", got, want)
	}
	for i, p := range got {
		if p.Path != want[i] {
			t.Errorf("problem %d path = %s, want %s (%s)", i, p.Path, want[i], p.Message)
		}
	}
}

func TestPutGetAnswerConsume(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	now := time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	s := dashboard.NewStore(db, nil, time.UTC)
	if _, err := s.Get(ctx, "ada", "2026-02-14"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("want not found, got %v", err)
	}
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		return s.PutTx(ctx, tx, now, "ada", "2026-02-13", 7, sampleDoc(), "weight, meals")
	}); err != nil {
		t.Fatal(err)
	}
	// Today has no document yet: Latest falls back to yesterday's.
	st, err := s.Latest(ctx, "ada", "2026-02-14")
	if err != nil || st.Day != "2026-02-13" || st.RunID != 7 || st.Document.Coach.Briefing != "Good morning." {
		t.Fatalf("latest = %+v, %v", st, err)
	}
	if _, err := s.RecordAnswer(ctx, "ada", "p1", "Sideways", "tap", 0); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("tap outside options: %v", err)
	}
	if _, err := s.RecordAnswer(ctx, "ada", "nope", "Well", "tap", 0); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown prompt: %v", err)
	}
	a, err := s.RecordAnswer(ctx, "ada", "p1", "Well", "tap", 0)
	if err != nil || a.ID == 0 {
		t.Fatalf("answer: %+v %v", a, err)
	}
	if _, err := s.RecordAnswer(ctx, "ada", "p1", "Badly", "tap", 0); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("second answer: %v", err)
	}
	un, err := s.UnprocessedAnswers(ctx, "ada")
	if err != nil || len(un) != 1 || un[0].Answer != "Well" {
		t.Fatalf("unprocessed = %+v %v", un, err)
	}
	if err := db.Tx(ctx, func(tx *store.Tx) error { return dashboard.MarkProcessedTx(ctx, tx, now, []int64{a.ID}) }); err != nil {
		t.Fatal(err)
	}
	if un, _ := s.UnprocessedAnswers(ctx, "ada"); len(un) != 0 {
		t.Fatalf("still unprocessed: %+v", un)
	}
	if err := s.MarkConsumed(ctx, "ada", "local:core-1", "done_tap"); err != nil {
		t.Fatal(err)
	}
	got, err := s.ConsumedSince(ctx, "ada", s.DayStart(now))
	if err != nil || !got["local:core-1"].Equal(now) {
		t.Fatalf("consumed = %v %v", got, err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if err := s.EditPlaylist(ctx, "ada", dashboard.PlaylistEdit{Op: dashboard.PlaylistAdd, ContentID: id}); err != nil {
			t.Fatal(err)
		}
	}
	// "b" moved up from row 1; a stale row number still finds its id.
	if err := s.EditPlaylist(ctx, "ada", dashboard.PlaylistEdit{Op: dashboard.PlaylistUp, ContentID: "b", Pos: 7}); err != nil {
		t.Fatal(err)
	}
	pl, err := s.Playlist(ctx, "ada")
	if err != nil || len(pl) != 3 || pl[0] != "b" || pl[1] != "a" || pl[2] != "c" {
		t.Fatalf("playlist = %v %v", pl, err)
	}
}
