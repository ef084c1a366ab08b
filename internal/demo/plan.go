package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"hearth/internal/health"
)

// Days is how many days of history the demo household gets, ending today.
const Days = 60

// Source marks every demo record.
const Source = "demo"

// household is everything Seed writes.
type household struct {
	members  []health.Member
	weights  []health.WeightReading
	meals    []health.Meal
	workouts []health.Workout
	scans    []health.BodyScan
	goals    []health.Goal
}

// generator plays the people's habits out over the days before now. All
// randomness comes from rng, consumed in a fixed order, so a seed and a now
// always give the same household.
type generator struct {
	rng   *rand.Rand
	now   time.Time
	loc   *time.Location
	today time.Time // local midnight
	out   household
}

func plan(now time.Time, loc *time.Location, rng *rand.Rand) household {
	g := &generator{rng: rng, now: now, loc: loc, today: health.LocalDay(now, loc)}
	for _, p := range people() {
		g.out.members = append(g.out.members, p.member)
		g.weights(p)
		g.meals(p)
		g.training(p)
		if p.dexa {
			g.scans(p)
		}
		g.out.goals = append(g.out.goals, p.goals(p.member, g.today)...)
	}
	return g.out
}

// day returns local midnight daysAgo days before today.
func (g *generator) day(daysAgo int) time.Time { return g.today.AddDate(0, 0, -daysAgo) }

// at returns the local time h:m (plus jitter minutes) on day.
func (g *generator) at(day time.Time, h, m, jitter int) time.Time {
	if jitter > 0 {
		m += g.rng.IntN(jitter + 1)
	}
	return time.Date(day.Year(), day.Month(), day.Day(), h, m, g.rng.IntN(60), 0, g.loc)
}

func (g *generator) between(lo, hi float64) float64 { return lo + g.rng.Float64()*(hi-lo) }

func key(p person, what string, day time.Time, n int) string {
	return fmt.Sprintf("%s:%s:%s:%d", p.member.ID, what, day.Format(time.DateOnly), n)
}

// expectedKg is the person's underlying weight daysAgo days before today.
func (p person) expectedKg(daysAgo int) float64 {
	return p.startKg + p.kgPerDay*float64(Days-1-daysAgo)
}

// weights: a morning weigh-in most days, noise on top of the drift, a
// Monday bump after the weekend, a long weekend away and a few skipped days.
func (g *generator) weights(p person) {
	away := 20 + g.rng.IntN(20) // three days without the scale
	u := p.member.Unit
	for ago := Days - 1; ago >= 0; ago-- {
		skip := g.rng.Float64() < 0.1 || (ago <= away && ago > away-3)
		noise := g.rng.NormFloat64() * p.noiseKg
		day := g.day(ago)
		at := g.at(day, 6, 45, 60)
		if (skip && ago >= 2) || at.After(g.now) {
			continue
		}
		kg := p.expectedKg(ago) + noise
		if day.Weekday() == time.Monday {
			kg += 0.3
		}
		shown := math.Round(u.FromKg(kg)/p.scaleStep) * p.scaleStep
		r := health.WeightReading{MemberID: p.member.ID, MeasuredAt: at, WeightKg: round(u.ToKg(shown), 3),
			Source: Source, SourceKey: key(p, "weight", day, 0)}
		if p.bodyFat != nil {
			bf := round(p.bodyFat[0]+p.bodyFat[1]*float64(Days-1-ago)+g.rng.NormFloat64()*0.4, 1)
			r.BodyFatPct, r.LeanMassKg = ptr(bf), ptr(round(r.WeightKg*(1-bf/100), 1))
		}
		g.out.weights = append(g.out.weights, r)
	}
}

// meals: breakfast most days, lunch and dinner, sometimes a snack; a few
// days with nothing logged (and, for one person, yesterday).
func (g *generator) meals(p person) {
	gaps := map[int]bool{}
	if p.noMealsYesterday {
		gaps[1] = true
	}
	for len(gaps) < 3+boolInt(p.noMealsYesterday) {
		gaps[4+g.rng.IntN(Days-6)] = true
	}
	for ago := Days - 1; ago >= 0; ago-- {
		day := g.day(ago)
		eat := map[string]bool{
			"breakfast": g.rng.Float64() >= p.skipBreakfast,
			"lunch":     g.rng.Float64() < 0.95,
			"snack":     g.rng.Float64() < p.snackChance,
			"dinner":    true,
		}
		if !eat["breakfast"] && !eat["lunch"] {
			eat["lunch"] = true // at least two meals on a logged day
		}
		if gaps[ago] {
			continue
		}
		for n, s := range slots() {
			f := s.foods[g.rng.IntN(len(s.foods))]
			portion := p.appetite * g.between(0.9, 1.1)
			at := g.at(day, s.hour, s.minute, s.spreadMin)
			if !eat[s.name] || at.After(g.now) {
				continue
			}
			g.out.meals = append(g.out.meals, health.Meal{MemberID: p.member.ID, EatenAt: at, Name: f.name,
				Calories: math.Round(f.kcal*portion/5) * 5, ProteinG: math.Round(f.protein * portion),
				CarbsG: math.Round(f.carbs * portion), FatG: math.Round(f.fat * portion),
				Source: Source, SourceKey: key(p, "meal", day, n)})
		}
	}
}

// training: 3-5 sessions in every Monday-to-Sunday week, on random days,
// only those finished by now.
func (g *generator) training(p person) {
	acts := activities()
	first := g.day(Days - 1)
	for week := health.WeekStart(first, g.loc); !week.After(g.today); week = week.AddDate(0, 0, 7) {
		count := 3 + g.rng.IntN(3)
		for _, wd := range g.rng.Perm(7)[:count] {
			a := acts[p.activityMix[g.rng.IntN(len(p.activityMix))]]
			day := week.AddDate(0, 0, wd)
			h, m := 17, 45
			if g.rng.Float64() < p.morningWorkouts {
				h, m = 6, 15
			}
			start := g.at(day, h, m, 75)
			dur := float64(a.minDur + g.rng.IntN(a.maxDur-a.minDur+1))
			avg := a.hrLo + g.rng.IntN(a.hrHi-a.hrLo+1)
			peak := avg + 12 + g.rng.IntN(22)
			title := a.titles[g.rng.IntN(len(a.titles))]
			if day.Before(first) || start.Add(time.Duration(dur)*time.Minute).After(g.now) {
				continue
			}
			g.out.workouts = append(g.out.workouts, health.Workout{MemberID: p.member.ID, StartedAt: start, Type: a.typ,
				Title: title, DurationMin: dur, AvgHR: ptr(avg), MaxHR: ptr(peak),
				EnergyKcal: ptr(math.Round(a.kcalPerMin * dur * g.between(0.9, 1.1))),
				Source:     Source, SourceKey: key(p, "workout", day, wd)})
		}
	}
}

// scans: a DEXA scan six weeks ago and one last week, consistent with the
// weight drift: fat comes off, lean mass is mostly kept.
func (g *generator) scans(p person) {
	for n, s := range []struct {
		ago        int
		fatPct     float64
		visceralKg float64
	}{{42, 32.4, 0.62}, {7, 30.3, 0.54}} {
		kg := p.expectedKg(s.ago)
		fat := round(kg*s.fatPct/100, 1)
		bone := 2.4
		g.out.scans = append(g.out.scans, health.BodyScan{MemberID: p.member.ID,
			ScannedAt: g.at(g.day(s.ago), 9, 30, 0), BodyFatPct: ptr(s.fatPct), LeanMassKg: ptr(round(kg-fat-bone, 1)),
			FatMassKg: ptr(fat), BoneMassKg: ptr(bone), VisceralFat: ptr(s.visceralKg),
			Source: Source, SourceKey: key(p, "dexa", g.day(s.ago), n)})
	}
}

func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
