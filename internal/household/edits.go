package household

import (
	"context"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Corrections: every entry can be edited (the same checks as when it was
// logged, plausibility included) and deleted, and a delete can be undone
// for a day. A patch field left nil keeps the entry's value. Another
// member's entry is NotFound, as a missing one.

// EntryKind is a kind of entry (store's, named here so callers need not
// import the store).
type EntryKind = store.EntryKind

// Entry kinds.
const (
	EntryWeight  = store.EntryWeight
	EntryMeal    = store.EntryMeal
	EntryWorkout = store.EntryWorkout
	EntryScan    = store.EntryScan
)

// Trashed is a deleted entry that Restore can bring back.
type Trashed = store.TrashedEntry

// WeightPatch changes a weigh-in; Weight is in Unit (kg when empty).
type WeightPatch struct {
	MeasuredAt             *time.Time
	Weight                 *float64
	Unit                   health.Unit
	BodyFatPct, LeanMassKg *float64
	Confirm                bool
}

// MealPatch changes a meal.
type MealPatch struct {
	EatenAt                          *time.Time
	Name                             *string
	Calories, ProteinG, CarbsG, FatG *float64
	Confirm                          bool
}

// WorkoutPatch changes a workout.
type WorkoutPatch struct {
	StartedAt    *time.Time
	Type, Title  *string
	DurationMin  *float64
	AvgHR, MaxHR *int
}

// ScanPatch changes a body scan.
type ScanPatch struct {
	ScannedAt                          *time.Time
	BodyFatPct, LeanMassKg             *float64
	FatMassKg, BoneMassKg, VisceralFat *float64
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func one[T any](list []T, err error, what string, id int64) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(list) == 0 {
		return zero, apperr.NotFoundf("no %s %d for this member", what, id)
	}
	return list[0], nil
}

// Weight returns one of the member's weigh-ins.
func (s *Service) Weight(ctx context.Context, member string, id int64) (health.WeightReading, error) {
	rs, err := s.db.Weights(ctx, member, store.Range{ID: id})
	return one(rs, err, "weigh-in", id)
}

// Meal returns one of the member's meals.
func (s *Service) Meal(ctx context.Context, member string, id int64) (health.Meal, error) {
	ms, err := s.db.Meals(ctx, member, store.Range{ID: id})
	return one(ms, err, "meal", id)
}

// Workout returns one of the member's workouts.
func (s *Service) Workout(ctx context.Context, member string, id int64) (health.Workout, error) {
	ws, err := s.db.Workouts(ctx, member, store.Range{ID: id})
	return one(ws, err, "workout", id)
}

// BodyScan returns one of the member's body scans.
func (s *Service) BodyScan(ctx context.Context, member string, id int64) (health.BodyScan, error) {
	bs, err := s.db.BodyScans(ctx, member, store.Range{ID: id})
	return one(bs, err, "body scan", id)
}

// EditWeight applies p to the member's weigh-in id.
func (s *Service) EditWeight(ctx context.Context, member string, id int64, p WeightPatch) (health.WeightReading, error) {
	cur, err := s.Weight(ctx, member, id)
	if err != nil {
		return cur, err
	}
	unit := p.Unit.Normalize()
	if p.Unit == "" {
		unit = health.KG
	}
	in := WeightInput{MeasuredAt: cur.MeasuredAt, Weight: unit.FromKg(cur.WeightKg), Unit: unit,
		BodyFatPct: cur.BodyFatPct, LeanMassKg: cur.LeanMassKg, Confirm: p.Confirm}
	set(&in.MeasuredAt, p.MeasuredAt)
	set(&in.Weight, p.Weight)
	if p.BodyFatPct != nil {
		in.BodyFatPct = p.BodyFatPct
	}
	if p.LeanMassKg != nil {
		in.LeanMassKg = p.LeanMassKg
	}
	r, err := s.weight(ctx, member, in, id)
	if err != nil {
		return r, err
	}
	if err := s.db.UpdateWeight(ctx, r); err != nil {
		return r, err
	}
	s.changed(member, live.KindWeight)
	return s.Weight(ctx, member, id)
}

// EditMeal applies p to the member's meal id.
func (s *Service) EditMeal(ctx context.Context, member string, id int64, p MealPatch) (health.Meal, error) {
	cur, err := s.Meal(ctx, member, id)
	if err != nil {
		return cur, err
	}
	in := MealInput{EatenAt: cur.EatenAt, Name: cur.Name, Calories: cur.Calories, ProteinG: cur.ProteinG,
		CarbsG: cur.CarbsG, FatG: cur.FatG, Confirm: p.Confirm}
	set(&in.EatenAt, p.EatenAt)
	set(&in.Name, p.Name)
	set(&in.Calories, p.Calories)
	set(&in.ProteinG, p.ProteinG)
	set(&in.CarbsG, p.CarbsG)
	set(&in.FatG, p.FatG)
	m, err := s.meal(member, in, id)
	if err != nil {
		return m, err
	}
	if err := s.db.UpdateMeal(ctx, m); err != nil {
		return m, err
	}
	s.changed(member, live.KindMeal)
	return s.Meal(ctx, member, id)
}

// EditWorkout applies p to the member's workout id.
func (s *Service) EditWorkout(ctx context.Context, member string, id int64, p WorkoutPatch) (health.Workout, error) {
	cur, err := s.Workout(ctx, member, id)
	if err != nil {
		return cur, err
	}
	in := WorkoutInput{StartedAt: cur.StartedAt, Type: cur.Type, Title: cur.Title, DurationMin: cur.DurationMin,
		AvgHR: cur.AvgHR, MaxHR: cur.MaxHR, ContentID: cur.ContentID}
	set(&in.StartedAt, p.StartedAt)
	set(&in.Type, p.Type)
	set(&in.Title, p.Title)
	set(&in.DurationMin, p.DurationMin)
	if p.AvgHR != nil {
		in.AvgHR = p.AvgHR
	}
	if p.MaxHR != nil {
		in.MaxHR = p.MaxHR
	}
	w, err := s.workout(member, in, id)
	if err != nil {
		return w, err
	}
	if err := s.db.UpdateWorkout(ctx, w); err != nil {
		return w, err
	}
	s.changed(member, live.KindWorkout)
	return s.Workout(ctx, member, id)
}

// EditBodyScan applies p to the member's scan id.
func (s *Service) EditBodyScan(ctx context.Context, member string, id int64, p ScanPatch) (health.BodyScan, error) {
	cur, err := s.BodyScan(ctx, member, id)
	if err != nil {
		return cur, err
	}
	in := ScanInput{ScannedAt: cur.ScannedAt, FatMassKg: cur.FatMassKg, BoneMassKg: cur.BoneMassKg, VisceralFat: cur.VisceralFat}
	if cur.BodyFatPct != nil {
		in.BodyFatPct = *cur.BodyFatPct
	}
	if cur.LeanMassKg != nil {
		in.LeanMassKg = *cur.LeanMassKg
	}
	set(&in.ScannedAt, p.ScannedAt)
	set(&in.BodyFatPct, p.BodyFatPct)
	set(&in.LeanMassKg, p.LeanMassKg)
	if p.FatMassKg != nil {
		in.FatMassKg = p.FatMassKg
	}
	if p.BoneMassKg != nil {
		in.BoneMassKg = p.BoneMassKg
	}
	if p.VisceralFat != nil {
		in.VisceralFat = p.VisceralFat
	}
	b, err := s.scan(member, in, id)
	if err != nil {
		return b, err
	}
	if err := s.db.UpdateBodyScan(ctx, b); err != nil {
		return b, err
	}
	s.changed(member, live.KindScan)
	return s.BodyScan(ctx, member, id)
}

// kindOf is the live kind screens re-render for an entry kind.
var kindOf = map[EntryKind]live.Kind{
	EntryWeight: live.KindWeight, EntryMeal: live.KindMeal, EntryWorkout: live.KindWorkout, EntryScan: live.KindScan,
}

// Delete removes one of the member's entries; the returned trash entry's
// id undoes it (Restore) for store.TrashKeep.
func (s *Service) Delete(ctx context.Context, member string, kind EntryKind, id int64) (Trashed, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return Trashed{}, err
	}
	t, err := s.db.DeleteEntry(ctx, member, kind, id)
	if err != nil {
		return t, err
	}
	s.changed(member, kindOf[kind])
	return t, nil
}

// Restore brings back an entry the member deleted.
func (s *Service) Restore(ctx context.Context, member string, trashID int64) (Trashed, error) {
	t, err := s.db.RestoreEntry(ctx, member, trashID)
	if err != nil {
		return t, err
	}
	s.changed(member, kindOf[t.Kind])
	return t, nil
}
