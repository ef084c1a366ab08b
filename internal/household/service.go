// Package household validates and records members' health entries, then
// tells live screens. The JSON API and the kiosk forms both go through it so
// they accept and refuse exactly the same input.
package household

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/text"
)

// Service records health entries for members.
type Service struct {
	db  *store.DB
	pub live.Publisher
	now func() time.Time
	loc *time.Location // the household calendar the weight trend's days are in
}

// New returns a Service over db that notifies pub.
func New(db *store.DB, pub live.Publisher) *Service {
	return &Service{db: db, pub: pub, now: time.Now, loc: time.UTC}
}

// In sets the household calendar (the kiosk's): the "Are you sure?" check
// compares a weigh-in with the trend the weight widget shows, whose days
// are local days.
func (s *Service) In(loc *time.Location) *Service {
	if loc != nil {
		s.loc = loc
	}
	return s
}

// Member returns a member or apperr.NotFound.
func (s *Service) Member(ctx context.Context, id string) (health.Member, error) {
	return s.db.Member(ctx, id)
}

// Members lists the household.
func (s *Service) Members(ctx context.Context) ([]health.Member, error) {
	return s.db.ListMembers(ctx)
}

// WeightInput is a weigh-in as entered; Unit converts Weight to kg.
// Confirm stores a weight far from the member's trend (health.CheckWeight),
// which is otherwise refused as apperr.Implausible.
type WeightInput struct {
	MeasuredAt time.Time
	Weight     float64
	Unit       health.Unit
	BodyFatPct *float64
	LeanMassKg *float64
	Confirm    bool
}

// MealInput is a nutrition entry as entered; Confirm stores a meal over
// health.MaxPlausibleMealKcal.
type MealInput struct {
	EatenAt                          time.Time
	Name                             string
	Calories, ProteinG, CarbsG, FatG float64
	Confirm                          bool
}

// WorkoutInput is a workout as entered.
type WorkoutInput struct {
	StartedAt    time.Time
	Type, Title  string
	DurationMin  float64
	AvgHR, MaxHR *int
	ContentID    string
}

// ScanInput is a body-composition scan as entered.
type ScanInput struct {
	ScannedAt                          time.Time
	BodyFatPct, LeanMassKg             float64
	FatMassKg, BoneMassKg, VisceralFat *float64
}

type fieldErrs map[string]string

func (f fieldErrs) check(ok bool, field, msg string) {
	if !ok {
		if _, dup := f[field]; !dup {
			f[field] = msg
		}
	}
}

func (f fieldErrs) err() error {
	if len(f) == 0 {
		return nil
	}
	return apperr.FieldErrors(f)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (s *Service) when(t time.Time, f fieldErrs, field string) time.Time {
	now := s.now()
	if t.IsZero() {
		return now
	}
	// A little slack for clock skew between a phone and the server.
	f.check(!t.After(now.Add(10*time.Minute)), field, "must not be in the future")
	f.check(t.Year() >= 1900, field, "is too far in the past")
	return t
}

func optRange(f fieldErrs, v *float64, field string, lo, hi float64) {
	if v != nil {
		f.check(finite(*v) && *v >= lo && *v <= hi, field, fmt.Sprintf("must be between %g and %g", lo, hi))
	}
}

// implausible is the error for a figure that needs confirming.
func implausible(field string, v health.Verdict) error {
	return &apperr.Error{Code: apperr.Implausible, Message: "Are you sure? " + v.Message + ".",
		Fields: map[string]string{field: v.Message}}
}

// weight validates a weigh-in of member (skip: the reading being edited)
// and returns it ready to store.
func (s *Service) weight(ctx context.Context, member string, in WeightInput, skip int64) (health.WeightReading, error) {
	f := fieldErrs{}
	at := s.when(in.MeasuredAt, f, "measured_at")
	unit := in.Unit
	if unit == "" {
		unit = health.KG
	}
	f.check(unit == health.KG || unit == health.LB, "unit", "must be kg or lb")
	f.check(finite(in.Weight) && health.InWeightRange(in.Weight, unit), "weight_kg", health.WeightRange(unit))
	optRange(f, in.BodyFatPct, "body_fat_pct", 1, 75)
	optRange(f, in.LeanMassKg, "lean_mass_kg", 1, 200)
	if err := f.err(); err != nil {
		return health.WeightReading{}, err
	}
	kg := round(unit.ToKg(in.Weight), 2)
	if !in.Confirm {
		// The trend the dashboard's weight widget shows (board.WeightOf: the
		// same window, the plausible readings only, local days), so the
		// check and the widget quote one figure.
		hist, err := s.db.Weights(ctx, member, store.Range{From: at.AddDate(0, 0, -board.WeightDays), To: at})
		if err != nil {
			return health.WeightReading{}, err
		}
		hist = slices.DeleteFunc(hist, func(r health.WeightReading) bool { return r.ID == skip && skip != 0 })
		if v := health.CheckWeight(kg, at, skip, health.PlausibleWeights(hist, s.loc), unit, s.loc); !v.Plausible {
			return health.WeightReading{}, implausible("weight_kg", v)
		}
	}
	return health.WeightReading{ID: skip, MemberID: member, MeasuredAt: at, WeightKg: kg,
		BodyFatPct: in.BodyFatPct, LeanMassKg: in.LeanMassKg}, nil
}

// LogWeight validates and stores a weigh-in.
func (s *Service) LogWeight(ctx context.Context, member string, in WeightInput) (health.WeightReading, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.WeightReading{}, err
	}
	r, err := s.weight(ctx, member, in, 0)
	if err != nil {
		return r, err
	}
	if r, err = s.db.AddWeight(ctx, r); err != nil {
		return r, err
	}
	s.changed(member, live.KindWeight)
	return r, nil
}

func (s *Service) meal(member string, in MealInput, id int64) (health.Meal, error) {
	f := fieldErrs{}
	at := s.when(in.EatenAt, f, "eaten_at")
	name := text.Required(f, "name", text.Line, in.Name, 120)
	f.check(finite(in.Calories) && in.Calories >= 0 && in.Calories <= health.MaxMealKcal, "calories",
		fmt.Sprintf("must be between 0 and %g", health.MaxMealKcal))
	for field, v := range map[string]float64{"protein_g": in.ProteinG, "carbs_g": in.CarbsG, "fat_g": in.FatG} {
		f.check(finite(v) && v >= 0 && v <= 1000, field, "must be between 0 and 1000 g")
	}
	if err := f.err(); err != nil {
		return health.Meal{}, err
	}
	if v := health.CheckMeal(in.Calories); !v.Plausible && !in.Confirm {
		return health.Meal{}, implausible("calories", v)
	}
	return health.Meal{ID: id, MemberID: member, EatenAt: at, Name: name, Calories: in.Calories,
		ProteinG: in.ProteinG, CarbsG: in.CarbsG, FatG: in.FatG}, nil
}

// LogMeal validates and stores a meal.
func (s *Service) LogMeal(ctx context.Context, member string, in MealInput) (health.Meal, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.Meal{}, err
	}
	m, err := s.meal(member, in, 0)
	if err != nil {
		return m, err
	}
	if m, err = s.db.AddMeal(ctx, m); err != nil {
		return m, err
	}
	s.changed(member, live.KindMeal)
	return m, nil
}

func (s *Service) workout(member string, in WorkoutInput, id int64) (health.Workout, error) {
	f := fieldErrs{}
	at := s.when(in.StartedAt, f, "started_at")
	typ := strings.ToLower(text.Required(f, "type", text.Line, in.Type, 40))
	title := text.Field(f, "title", text.Line, in.Title, 120)
	f.check(finite(in.DurationMin) && in.DurationMin > 0 && in.DurationMin <= 24*60, "duration_min", "must be between 1 and 1440 minutes")
	for field, v := range map[string]*int{"avg_hr": in.AvgHR, "max_hr": in.MaxHR} {
		f.check(v == nil || (*v >= 30 && *v <= 250), field, "must be between 30 and 250 bpm")
	}
	contentID := text.Field(f, "content_id", text.Line, in.ContentID, 200)
	if err := f.err(); err != nil {
		return health.Workout{}, err
	}
	if title == "" {
		title = capitalise(typ)
	}
	return health.Workout{ID: id, MemberID: member, StartedAt: at, Type: typ, Title: title,
		DurationMin: in.DurationMin, AvgHR: in.AvgHR, MaxHR: in.MaxHR, ContentID: contentID}, nil
}

// LogWorkout validates and stores a workout.
func (s *Service) LogWorkout(ctx context.Context, member string, in WorkoutInput) (health.Workout, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.Workout{}, err
	}
	w, err := s.workout(member, in, 0)
	if err != nil {
		return w, err
	}
	if w, err = s.db.AddWorkout(ctx, w); err != nil {
		return w, err
	}
	s.changed(member, live.KindWorkout)
	return w, nil
}

func (s *Service) scan(member string, in ScanInput, id int64) (health.BodyScan, error) {
	f := fieldErrs{}
	at := s.when(in.ScannedAt, f, "scanned_at")
	f.check(finite(in.BodyFatPct) && in.BodyFatPct >= 1 && in.BodyFatPct <= 75, "body_fat_pct", "must be between 1 and 75")
	f.check(finite(in.LeanMassKg) && in.LeanMassKg >= 1 && in.LeanMassKg <= 200, "lean_mass_kg", "must be between 1 and 200")
	optRange(f, in.FatMassKg, "fat_mass_kg", 0, 300)
	optRange(f, in.BoneMassKg, "bone_mass_kg", 0, 20)
	optRange(f, in.VisceralFat, "visceral_fat", 0, 5000)
	if err := f.err(); err != nil {
		return health.BodyScan{}, err
	}
	return health.BodyScan{ID: id, MemberID: member, ScannedAt: at, BodyFatPct: &in.BodyFatPct,
		LeanMassKg: &in.LeanMassKg, FatMassKg: in.FatMassKg, BoneMassKg: in.BoneMassKg, VisceralFat: in.VisceralFat}, nil
}

// LogBodyScan validates and stores a body-composition scan.
func (s *Service) LogBodyScan(ctx context.Context, member string, in ScanInput) (health.BodyScan, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.BodyScan{}, err
	}
	b, err := s.scan(member, in, 0)
	if err != nil {
		return b, err
	}
	if b, err = s.db.AddBodyScan(ctx, b); err != nil {
		return b, err
	}
	s.changed(member, live.KindScan)
	return b, nil
}

func (s *Service) changed(member string, kind live.Kind) {
	if s.pub == nil {
		return
	}
	s.pub.Publish(live.MemberTopic(member), kind, nil)
	s.pub.Publish(live.TopicHousehold, kind, member)
}

// capitalise upper-cases the first letter, by rune ("étirements" →
// "Étirements"; slicing the first byte would split the letter).
func capitalise(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}

// Weights returns the member's latest readings, newest first.
func (s *Service) Weights(ctx context.Context, member string, limit int) ([]health.WeightReading, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return nil, err
	}
	return s.db.Weights(ctx, member, store.Range{Limit: limit, Desc: true})
}

// Meals returns the member's latest meals, newest first.
func (s *Service) Meals(ctx context.Context, member string, limit int) ([]health.Meal, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return nil, err
	}
	return s.db.Meals(ctx, member, store.Range{Limit: limit, Desc: true})
}

// Workouts returns the member's latest workouts, newest first.
func (s *Service) Workouts(ctx context.Context, member string, limit int) ([]health.Workout, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return nil, err
	}
	return s.db.Workouts(ctx, member, store.Range{Limit: limit, Desc: true})
}

// BodyScans returns the member's latest scans, newest first.
func (s *Service) BodyScans(ctx context.Context, member string, limit int) ([]health.BodyScan, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return nil, err
	}
	return s.db.BodyScans(ctx, member, store.Range{Limit: limit, Desc: true})
}
