package health

import "time"

// Macros are summed nutrition figures: kcal and grams.
type Macros struct {
	Calories float64 `json:"calories"`
	ProteinG float64 `json:"protein_g"`
	CarbsG   float64 `json:"carbs_g"`
	FatG     float64 `json:"fat_g"`
}

// SumMeals adds up the meals' calories and macros.
func SumMeals(meals []Meal) Macros {
	var t Macros
	for _, m := range meals {
		t.Calories += m.Calories
		t.ProteinG += m.ProteinG
		t.CarbsG += m.CarbsG
		t.FatG += m.FatG
	}
	return t
}

func (m Macros) rounded() Macros {
	return Macros{Calories: roundTo(m.Calories, 0), ProteinG: round1(m.ProteinG), CarbsG: round1(m.CarbsG), FatG: round1(m.FatG)}
}

// MacroProgress is one figure against its target. Remaining is target −
// consumed (negative when over); Percent is consumed/target·100 (0.1
// precision). Target, Remaining and Percent are nil when no positive target
// is set.
type MacroProgress struct {
	Consumed  float64  `json:"consumed"`
	Target    *float64 `json:"target,omitempty"`
	Remaining *float64 `json:"remaining,omitempty"`
	Percent   *float64 `json:"percent,omitempty"`
}

// MacroBudget is calories and macros against a member's targets.
type MacroBudget struct {
	Calories MacroProgress `json:"calories"`
	Protein  MacroProgress `json:"protein"`
	Carbs    MacroProgress `json:"carbs"`
	Fat      MacroProgress `json:"fat"`
}

// RemainingMacros compares totals with targets: what is left of each daily
// allowance (calculate_remaining_macros). kcal are rounded to whole numbers,
// grams to 0.1.
func RemainingMacros(totals Macros, t Targets) MacroBudget {
	return MacroBudget{
		Calories: progress(totals.Calories, t.Calories, 0),
		Protein:  progress(totals.ProteinG, t.ProteinG, 1),
		Carbs:    progress(totals.CarbsG, t.CarbsG, 1),
		Fat:      progress(totals.FatG, t.FatG, 1),
	}
}

func progress(consumed float64, target *float64, decimals int) MacroProgress {
	p := MacroProgress{Consumed: roundTo(consumed, decimals)}
	if target == nil || *target <= 0 {
		return p
	}
	p.Target = ptr(roundTo(*target, decimals))
	p.Remaining = ptr(roundTo(*target-consumed, decimals))
	p.Percent = ptr(round1(consumed / *target * 100))
	return p
}

// DayTotals is what was logged on one local day.
type DayTotals struct {
	Day    time.Time `json:"day"`
	Meals  int       `json:"meals"`
	Totals Macros    `json:"totals"`
}

// DayNutrition is one day's nutrition against the member's targets
// (get_today_nutrition).
type DayNutrition struct {
	DayTotals
	VsTargets MacroBudget `json:"vs_targets"`
}

// NutritionDay totals the meals eaten on day's local calendar day and
// compares them with the targets.
func NutritionDay(meals []Meal, t Targets, day time.Time, loc *time.Location) DayNutrition {
	loc = orUTC(loc)
	d := dayNum(day, loc)
	var on []Meal
	for _, m := range meals {
		if dayNum(m.EatenAt, loc) == d {
			on = append(on, m)
		}
	}
	raw := SumMeals(on)
	return DayNutrition{
		DayTotals: DayTotals{Day: dayTime(d, loc), Meals: len(on), Totals: raw.rounded()},
		VsTargets: RemainingMacros(raw, t),
	}
}

// LoggingStreak counts consecutive local days with at least one meal, going
// back from today; when nothing is logged today yet the count starts at
// yesterday, so the streak is not broken before the day is over. Meals after
// now are ignored.
func LoggingStreak(meals []Meal, now time.Time, loc *time.Location) int {
	loc = orUTC(loc)
	logged := map[int]bool{}
	for _, m := range meals {
		if !m.EatenAt.After(now) {
			logged[dayNum(m.EatenAt, loc)] = true
		}
	}
	d := dayNum(now, loc)
	if !logged[d] {
		d--
	}
	n := 0
	for ; logged[d]; d-- {
		n++
	}
	return n
}

// NutritionPeriod is nutrition over the complete days before today
// (get_nutrition_history). Average holds the means over logged days only,
// compared with the targets (Remaining = target − average).
type NutritionPeriod struct {
	From        time.Time   `json:"from"`
	Through     time.Time   `json:"through"`
	Days        []DayTotals `json:"days"`
	DaysLogged  int         `json:"days_logged"`
	DaysMissing int         `json:"days_missing"`
	MissingDays []time.Time `json:"missing_days,omitempty"`
	Average     MacroBudget `json:"average"`
}

// MaxHistoryDays bounds NutritionHistory's window.
const MaxHistoryDays = 366

// NutritionHistory summarises the n complete local days ending yesterday
// (today is still in progress and would drag averages down), oldest first.
// n is clamped to 1..MaxHistoryDays.
func NutritionHistory(meals []Meal, t Targets, n int, now time.Time, loc *time.Location) NutritionPeriod {
	loc = orUTC(loc)
	n = min(max(n, 1), MaxHistoryDays)
	last := dayNum(now, loc) - 1
	first := last - n + 1
	byDay := map[int][]Meal{}
	for _, m := range meals {
		if d := dayNum(m.EatenAt, loc); d >= first && d <= last {
			byDay[d] = append(byDay[d], m)
		}
	}
	p := NutritionPeriod{From: dayTime(first, loc), Through: dayTime(last, loc)}
	var sum Macros
	for d := first; d <= last; d++ {
		ms := byDay[d]
		tot := SumMeals(ms)
		p.Days = append(p.Days, DayTotals{Day: dayTime(d, loc), Meals: len(ms), Totals: tot.rounded()})
		if len(ms) == 0 {
			p.DaysMissing++
			p.MissingDays = append(p.MissingDays, dayTime(d, loc))
			continue
		}
		p.DaysLogged++
		sum.Calories += tot.Calories
		sum.ProteinG += tot.ProteinG
		sum.CarbsG += tot.CarbsG
		sum.FatG += tot.FatG
	}
	var avg Macros
	if k := float64(p.DaysLogged); k > 0 {
		avg = Macros{Calories: sum.Calories / k, ProteinG: sum.ProteinG / k, CarbsG: sum.CarbsG / k, FatG: sum.FatG / k}
	}
	p.Average = RemainingMacros(avg, t)
	return p
}
