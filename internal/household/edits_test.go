package household_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func newService(t *testing.T) (*household.Service, *store.DB) {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bo")
	return household.New(db, nil), db
}

// weighIns logs a reading a day for the last n days (ending yesterday).
func weighIns(t *testing.T, s *household.Service, member string, n int, kg float64) []health.WeightReading {
	t.Helper()
	var out []health.WeightReading
	for d := n; d >= 1; d-- {
		r, err := s.LogWeight(context.Background(), member, household.WeightInput{MeasuredAt: time.Now().AddDate(0, 0, -d), Weight: kg})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestImplausibleWeightNeedsConfirming(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	weighIns(t, s, "ada", 5, 70.5)
	_, err := s.LogWeight(ctx, "ada", household.WeightInput{Weight: 6.9})
	ae := apperr.As(err)
	if ae == nil || ae.Code != apperr.Implausible || ae.Message != "Are you sure? 6.9 kg is far from your trend of 70.5 kg." {
		t.Fatalf("6.9 kg after 70.5 kg: %v", err)
	}
	if rs, _ := s.Weights(ctx, "ada", 10); len(rs) != 5 {
		t.Fatalf("an unconfirmed implausible weight was stored: %d readings", len(rs))
	}
	if _, err := s.LogWeight(ctx, "ada", household.WeightInput{Weight: 6.9, Confirm: true}); err != nil {
		t.Fatalf("confirmed: %v", err)
	}
	// A member without a trend (fewer than 3 readings) gets only the range.
	if _, err := s.LogWeight(ctx, "bo", household.WeightInput{Weight: 6.9}); err != nil {
		t.Fatalf("no trend yet: %v", err)
	}
}

func TestWeightRangeInTheInputUnit(t *testing.T) {
	s, _ := newService(t)
	_, err := s.LogWeight(context.Background(), "ada", household.WeightInput{Weight: 900, Unit: health.LB})
	ae := apperr.As(err)
	if ae == nil || ae.Code != apperr.Invalid || ae.Fields["weight_kg"] != "must be between 4.4 and 882 lb" {
		t.Fatalf("900 lb: %v", err)
	}
	if _, err := s.LogWeight(context.Background(), "ada", household.WeightInput{Weight: 4.4, Unit: health.LB}); err != nil {
		t.Fatalf("4.4 lb is the lower bound: %v", err)
	}
}

func TestImplausibleMealNeedsConfirming(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	_, err := s.LogMeal(ctx, "ada", household.MealInput{Name: "Feast", Calories: 5400})
	if !apperr.Is(err, apperr.Implausible) {
		t.Fatalf("5,400 kcal: %v", err)
	}
	if _, err := s.LogMeal(ctx, "ada", household.MealInput{Name: "Feast", Calories: 5400, Confirm: true}); err != nil {
		t.Fatalf("confirmed: %v", err)
	}
	if _, err := s.LogMeal(ctx, "ada", household.MealInput{Name: "Feast", Calories: 12000, Confirm: true}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("over the hard limit, confirmed: %v", err)
	}
}

func TestEditKeepsWhatThePatchDoesNotName(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	rs := weighIns(t, s, "ada", 4, 70)
	last := rs[len(rs)-1]
	bf := 24.5
	got, err := s.EditWeight(ctx, "ada", last.ID, household.WeightPatch{Weight: new(71.2), BodyFatPct: &bf})
	if err != nil {
		t.Fatal(err)
	}
	if got.WeightKg != 71.2 || got.BodyFatPct == nil || *got.BodyFatPct != 24.5 || !got.MeasuredAt.Equal(last.MeasuredAt.Truncate(time.Millisecond)) || got.ID != last.ID {
		t.Fatalf("edited: %+v (was %+v)", got, last)
	}
	// An edit is checked like a new entry, against the other readings only.
	if _, err := s.EditWeight(ctx, "ada", last.ID, household.WeightPatch{Weight: new(7.1)}); !apperr.Is(err, apperr.Implausible) {
		t.Fatalf("an implausible edit: %v", err)
	}
	if _, err := s.EditWeight(ctx, "ada", last.ID, household.WeightPatch{Weight: new(150.0), Unit: health.LB}); err != nil {
		t.Fatalf("150 lb = 68 kg: %v", err)
	}
	m, err := s.LogMeal(ctx, "ada", household.MealInput{Name: "Oats", Calories: 400, ProteinG: 15})
	if err != nil {
		t.Fatal(err)
	}
	yesterday := time.Now().AddDate(0, 0, -1).UTC().Truncate(time.Millisecond)
	em, err := s.EditMeal(ctx, "ada", m.ID, household.MealPatch{EatenAt: &yesterday, Calories: new(450.0)})
	if err != nil {
		t.Fatal(err)
	}
	if em.Name != "Oats" || em.ProteinG != 15 || em.Calories != 450 || !em.EatenAt.Equal(yesterday) {
		t.Fatalf("edited meal: %+v", em)
	}
}

func TestAnotherMembersEntryIsNotFound(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	rs := weighIns(t, s, "ada", 1, 70)
	if _, err := s.EditWeight(ctx, "bo", rs[0].ID, household.WeightPatch{Weight: new(80.0)}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("edit across members: %v", err)
	}
	if _, err := s.Delete(ctx, "bo", household.EntryWeight, rs[0].ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("delete across members: %v", err)
	}
	if got, _ := s.Weight(ctx, "ada", rs[0].ID); got.WeightKg != 70 {
		t.Fatalf("ada's reading changed: %+v", got)
	}
}

func TestDeleteAndUndo(t *testing.T) {
	s, db := newService(t)
	ctx := context.Background()
	w, err := s.LogWorkout(ctx, "ada", household.WorkoutInput{Type: "run", DurationMin: 30, AvgHR: new(140)})
	if err != nil {
		t.Fatal(err)
	}
	trash, err := s.Delete(ctx, "ada", household.EntryWorkout, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Workout(ctx, "ada", w.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("deleted workout still there: %v", err)
	}
	if _, err := s.Restore(ctx, "bo", trash.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("bo undid ada's delete: %v", err)
	}
	back, err := s.Restore(ctx, "ada", trash.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Workout(ctx, "ada", back.EntryID)
	if err != nil {
		t.Fatal(err)
	}
	if back.EntryID != w.ID || got.AvgHR == nil || *got.AvgHR != 140 || got.Source != "manual" || !got.StartedAt.Equal(w.StartedAt.Truncate(time.Millisecond)) {
		t.Fatalf("restored %+v from %+v", got, w)
	}
	if _, err := s.Restore(ctx, "ada", trash.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("undo twice: %v", err)
	}
	// The id of the newest entry is reused by SQLite once it is deleted:
	// the restored entry then gets a new id rather than failing.
	m, _ := s.LogMeal(ctx, "ada", household.MealInput{Name: "Soup", Calories: 300})
	trash, err = s.Delete(ctx, "ada", household.EntryMeal, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.LogMeal(ctx, "ada", household.MealInput{Name: "Bread", Calories: 200})
	back, err = s.Restore(ctx, "ada", trash.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.EntryID == other.ID {
		t.Fatal("the restored meal took the new meal's id")
	}
	if got, err := s.Meal(ctx, "ada", back.EntryID); err != nil || got.Name != "Soup" {
		t.Fatalf("restored meal: %+v, %v", got, err)
	}
	var n int
	_ = db.Read.QueryRow(`SELECT count(*) FROM entry_trash`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d entries left in the trash after undo", n)
	}
}
