package dashboard_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// The staleness rules (DESIGN §2), applied by Today against live data.
func TestTodayAppliesTheStalenessRules(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	now := time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	s := dashboard.NewStore(db, nil, time.UTC)

	// No document yet: onboarding nudges from live state, never an error.
	td, err := s.Today(ctx, "ada", now)
	if err != nil || td.Doc != nil || len(td.Onboarding) != 3 || td.Onboarding[0].Action != dashboard.ActionOpenWeight {
		t.Fatalf("before the first run: %+v, %v", td, err)
	}

	doc := dashboard.Document{GeneratedAt: now.Add(-3 * time.Hour),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{Primary: &dashboard.ContentRef{ContentID: "local:a", Duration: 20},
				Alternates: []dashboard.ContentRef{{ContentID: "local:b"}, {ContentID: "local:c"}}},
			PlaylistSuggestion: []dashboard.ContentRef{{ContentID: "local:a"}}},
		Coach: dashboard.Coach{Briefing: "Morning.",
			CTA: []dashboard.CTA{
				{Type: dashboard.CTADataGap, Message: "No weigh-in this week.", Action: dashboard.ActionOpenWeight},
				{Type: dashboard.CTADataGap, Message: "No meals yesterday.", Action: dashboard.ActionOpenNutrition},
				{Type: dashboard.CTAProgram, Message: "Play it.", Action: dashboard.ActionPlayUpNext}},
			Prompts: []dashboard.Prompt{
				{ID: "p1", Type: dashboard.PromptMultipleChoice, Question: "Energy?", Options: []string{"low", "high"}},
				{ID: "p2", Type: dashboard.PromptVoiceMemo, Question: "How was the run?"}}}}
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		return s.PutTx(ctx, tx, now.Add(-3*time.Hour), "ada", "2026-02-14", 1, doc, "test")
	}); err != nil {
		t.Fatal(err)
	}
	// Before anything happened: the document as written.
	td, err = s.Today(ctx, "ada", now)
	if err != nil || td.UpNext == nil || len(td.Alternates) != 2 || len(td.CTAs) != 3 || td.Prompts[0].Answer != nil {
		t.Fatalf("fresh document: %+v, %v", td, err)
	}
	// A weigh-in after the document fills its gap (a meal before it would not);
	// a workout naming the primary finishes Up Next (and its "play" CTA goes);
	// a done tap finishes an alternate; a tap answers p1; a voice memo for p2
	// waits for its transcript.
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: now.Add(-time.Hour), WeightKg: 70}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: now.Add(-5 * time.Hour), Name: "Oats", Calories: 300}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ada", StartedAt: now.Add(-time.Hour), Type: "core", Title: "A",
		DurationMin: 20, ContentID: "local:a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkConsumed(ctx, "ada", "local:c", "done_tap"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordAnswer(ctx, "ada", "p1", "high", "tap", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddVoiceMemo(ctx, dashboard.VoiceMemo{MemberID: "ada", PromptID: "p2", Path: "x.webm"}); err != nil {
		t.Fatal(err)
	}
	td, err = s.Today(ctx, "ada", now)
	if err != nil {
		t.Fatal(err)
	}
	if td.UpNext != nil || td.UpNextDone == nil || td.UpNextDone.ContentID != "local:a" {
		t.Errorf("Up Next after the workout: %+v / done %+v", td.UpNext, td.UpNextDone)
	}
	if len(td.Alternates) != 1 || td.Alternates[0].ContentID != "local:b" {
		t.Errorf("alternates = %+v, want local:c gone", td.Alternates)
	}
	if len(td.CTAs) != 1 || td.CTAs[0].Action != dashboard.ActionOpenNutrition {
		t.Errorf("CTAs = %+v, want only the meal gap (a meal before the document does not fill it)", td.CTAs)
	}
	if a := td.Prompts[0].Answer; a == nil || a.Answer != "high" {
		t.Errorf("p1 = %+v, want its answer", td.Prompts[0])
	}
	if td.Prompts[1].Voice != "stored" {
		t.Errorf("p2 voice state = %q, want stored", td.Prompts[1].Voice)
	}
}

// Two screens editing the playlist at once lose nothing: each edit is one
// transaction (it was a read-modify-write in the handler).
func TestConcurrentPlaylistEditsAllLand(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	s := dashboard.NewStore(db, nil, time.UTC)
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := "local:item-" + string(rune('a'+i))
			if err := s.EditPlaylist(ctx, "ada", dashboard.PlaylistEdit{Op: dashboard.PlaylistAdd, ContentID: id}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	pl, err := s.Playlist(ctx, "ada")
	if err != nil || len(pl) != n {
		t.Fatalf("playlist after %d concurrent adds: %d items (%v)", n, len(pl), err)
	}
}
