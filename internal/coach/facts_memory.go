package coach

import (
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
)

// Memory keys of data-quality flags and observations, with their lifetimes.
const (
	keyFlagWeighIn = "flag:weigh-in"
	keyFlagMeals   = "flag:meals-yesterday"
	keyObsProtein  = "obs:protein"
	keyObsWeek     = "obs:training-week"
	keyObsRest     = "obs:rest-days"
	keyLastPick    = "last_recommendation"

	flagTTL     = 48 * time.Hour
	obsTTL      = 7 * 24 * time.Hour
	lastPickTTL = 36 * time.Hour
)

// rememberFacts keeps the run's interpretations of the data in memory with
// lifetimes (set when a gap appears, removed once it is filled) and returns
// notes for flags that are new.
func rememberFacts(mem *agent.Memory, g *Gathered, doc dashboard.Document) ([]string, error) {
	var notes []string
	gp := g.Gaps
	flag := func(key string, on bool, value string, ttl time.Duration) error {
		if !on {
			mem.Remove(key)
			return nil
		}
		if _, had := mem.Get(key); !had {
			notes = append(notes, "Flagged: "+value)
		}
		return mem.Set(key, value, ttl)
	}
	steps := []struct {
		key   string
		on    bool
		value func() string
		ttl   time.Duration
	}{
		{keyFlagWeighIn, gp.WeighInStale, func() string {
			return fmt.Sprintf("no weigh-in for %d days (as of %s)", *gp.DaysSinceWeighIn, g.Date)
		}, flagTTL},
		{keyFlagMeals, gp.NoMealsYesterday, func() string {
			if gp.DaysWithoutMeals >= 2 {
				return fmt.Sprintf("no meals logged for %d days, since %s (as of %s)", gp.DaysWithoutMeals, gp.LastMealDay, g.Date)
			}
			return "no meals logged on " + g.Yesterday.Date
		}, flagTTL},
		{keyObsProtein, gp.ProteinLow, func() string {
			return fmt.Sprintf("protein averaged %s g against a %s g target over the 7 days to %s", num(*gp.ProteinAvg), num(*gp.ProteinTarget), g.Week.Through)
		}, obsTTL},
		{keyObsRest, gp.RestDays >= CheckInRestDays && !gp.NoWorkouts, func() string {
			return fmt.Sprintf("%d rest days in a row as of %s", gp.RestDays, g.Date)
		}, flagTTL},
	}
	for _, s := range steps {
		v := ""
		if s.on {
			v = s.value()
		}
		if err := flag(s.key, s.on, v, s.ttl); err != nil {
			return nil, err
		}
	}
	if st := g.Training.Stats; st.UsualPerWeek != nil {
		v := fmt.Sprintf("%s in the week to %s; usually %s a week", plural(st.ThisWeek, "workout"), g.Date, num(*st.UsualPerWeek))
		if err := mem.Set(keyObsWeek, v, obsTTL); err != nil {
			return nil, err
		}
	}
	if p := doc.Curated.UpNext.Primary; p != nil {
		if err := mem.Set(keyLastPick, fmt.Sprintf("%s (%s) on %s", p.Title, p.ContentID, g.Date), lastPickTTL); err != nil {
			return nil, err
		}
	}
	return notes, nil
}
