// Package health holds the household's health records and the summaries the
// coach and the dashboard read: weight trend, nutrition vs targets, streaks,
// workouts, BMR/TDEE and remaining macros. Everything is stored metric; Unit
// only changes how a member sees weights.
package health

import (
	"time"
)

// Unit is a member's display preference for body weight.
type Unit string

// Weight units.
const (
	KG Unit = "kg"
	LB Unit = "lb"
)

// KgPerLb converts pounds to kilograms.
const KgPerLb = 0.45359237

// KgPerStone (14 lb) and KgPerOunce (1/16 lb) convert the other imperial
// masses imports and scales report.
const (
	KgPerStone = 14 * KgPerLb
	KgPerOunce = KgPerLb / 16
)

// FromKg converts kilograms to the unit.
func (u Unit) FromKg(kg float64) float64 {
	if u == LB {
		return kg / KgPerLb
	}
	return kg
}

// ToKg converts a weight in the unit to kilograms.
func (u Unit) ToKg(v float64) float64 {
	if u == LB {
		return v * KgPerLb
	}
	return v
}

// Normalize is the unit a member sees: LB for pounds, KG for anything else
// (unset included). Every place that shows or converts a weight uses it.
func (u Unit) Normalize() Unit {
	if u == LB {
		return LB
	}
	return KG
}

// Format renders a weight in kilograms in the unit with one decimal, e.g. "81.4 kg".
func (u Unit) Format(kg float64) string {
	u = u.Normalize()
	return formatOne(u.FromKg(kg)) + " " + string(u)
}

func formatOne(v float64) string {
	return trimFloat(Round1(v))
}

// Targets are a member's daily nutrition targets; nil means not set.
type Targets struct {
	Calories *float64 `json:"calories,omitempty"`
	ProteinG *float64 `json:"protein_g,omitempty"`
	CarbsG   *float64 `json:"carbs_g,omitempty"`
	FatG     *float64 `json:"fat_g,omitempty"`
}

// Member is one person in the household.
type Member struct {
	ID             string     `json:"id"`
	Name           string     `json:"name"`
	Color          string     `json:"color"`
	Avatar         string     `json:"avatar"`
	Unit           Unit       `json:"unit"`
	Targets        Targets    `json:"targets"`
	GoalWeightKg   *float64   `json:"goal_weight_kg,omitempty"`
	HeightCm       *float64   `json:"height_cm,omitempty"`
	BirthDate      *time.Time `json:"birth_date,omitempty"`
	Sex            string     `json:"sex,omitempty"`            // female | male | ""
	ActivityLevel  string     `json:"activity_level,omitempty"` // sedentary … very_active
	PrivateFigures bool       `json:"private_figures"`
	// Role decides what the kiosk assistant (Talos) may do for the member
	// on the house and the media library: adult, child or guest.
	Role      Role      `json:"role"`
	CreatedAt time.Time `json:"created_at"`
	// HasPIN: the member set a PIN for shared screens (the hash stays in
	// the store, never in a Member).
	HasPIN bool `json:"-"`
}

// Role is a member's role in the household, for what the kiosk assistant
// may do for them (issue 39): adults may confirm gated actions, children
// and guests get narrower policies. A screen's anonymous user is a guest.
type Role string

// The roles.
const (
	RoleAdult Role = "adult"
	RoleChild Role = "child"
	RoleGuest Role = "guest"
)

// Roles are every role, in the order forms list them.
var Roles = []Role{RoleAdult, RoleChild, RoleGuest}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return r == RoleAdult || r == RoleChild || r == RoleGuest }

// OrAdult is r, or adult when unset (members made before roles existed
// are adults).
func (r Role) OrAdult() Role {
	if r == "" {
		return RoleAdult
	}
	return r
}

// AgeOn returns the member's age in whole years on day's calendar date (in
// day's location), or 0 when unknown.
func (m Member) AgeOn(day time.Time) int {
	if m.BirthDate == nil {
		return 0
	}
	by, bm, bd := m.BirthDate.Date()
	y, mo, d := day.Date()
	age := y - by
	if mo < bm || (mo == bm && d < bd) {
		age--
	}
	return age
}

// WeightReading is one weigh-in.
type WeightReading struct {
	ID         int64     `json:"id"`
	MemberID   string    `json:"member"`
	MeasuredAt time.Time `json:"measured_at"`
	WeightKg   float64   `json:"weight_kg"`
	BodyFatPct *float64  `json:"body_fat_pct,omitempty"`
	LeanMassKg *float64  `json:"lean_mass_kg,omitempty"`
	Source     string    `json:"source"`
	SourceKey  string    `json:"-"`
}

// Meal is one nutrition entry.
type Meal struct {
	ID        int64     `json:"id"`
	MemberID  string    `json:"member"`
	EatenAt   time.Time `json:"eaten_at"`
	Name      string    `json:"name"`
	Calories  float64   `json:"calories"`
	ProteinG  float64   `json:"protein_g"`
	CarbsG    float64   `json:"carbs_g"`
	FatG      float64   `json:"fat_g"`
	Source    string    `json:"source"`
	SourceKey string    `json:"-"`
}

// Workout is one completed training session.
type Workout struct {
	ID          int64     `json:"id"`
	MemberID    string    `json:"member"`
	StartedAt   time.Time `json:"started_at"`
	Type        string    `json:"type"`
	Title       string    `json:"title"`
	DurationMin float64   `json:"duration_min"`
	AvgHR       *int      `json:"avg_hr,omitempty"`
	MaxHR       *int      `json:"max_hr,omitempty"`
	EnergyKcal  *float64  `json:"energy_kcal,omitempty"`
	DistanceKm  *float64  `json:"distance_km,omitempty"`
	ContentID   string    `json:"content_id,omitempty"`
	Source      string    `json:"source"`
	SourceKey   string    `json:"-"`
}

// BodyScan is a body-composition entry: a manual scan (DEXA) with both
// figures, or an imported reading that has only one of them (a smart
// scale's body fat without a weigh-in nearby); at least one is set.
type BodyScan struct {
	ID          int64     `json:"id"`
	MemberID    string    `json:"member"`
	ScannedAt   time.Time `json:"scanned_at"`
	BodyFatPct  *float64  `json:"body_fat_pct,omitempty"`
	LeanMassKg  *float64  `json:"lean_mass_kg,omitempty"`
	FatMassKg   *float64  `json:"fat_mass_kg,omitempty"`
	BoneMassKg  *float64  `json:"bone_mass_kg,omitempty"`
	VisceralFat *float64  `json:"visceral_fat,omitempty"`
	Source      string    `json:"source"`
	SourceKey   string    `json:"-"`
}

// Goal is something a member works toward.
type Goal struct {
	ID          int64      `json:"id"`
	MemberID    string     `json:"member"`
	Kind        string     `json:"kind"` // weight | protein | workouts_per_week | habit | custom
	Description string     `json:"description"`
	Target      *float64   `json:"target,omitempty"`
	Unit        string     `json:"unit,omitempty"`
	TargetDate  *time.Time `json:"target_date,omitempty"`
	Status      string     `json:"status"` // active | achieved | dropped
	CreatedAt   time.Time  `json:"created_at"`
}
