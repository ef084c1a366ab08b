package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// mealLine renders a meal for comparisons: local date and time, name, kcal
// and macros.
func mealLine(t *testing.T, loc *time.Location, name string, at time.Time, kcal, p, c, f float64) string {
	t.Helper()
	return fmt.Sprintf("%s %s %.4f %.4f %.4f %.4f", at.In(loc).Format("2006-01-02 15:04"), name, kcal, p, c, f)
}

// MyFitnessPal's records synced into Apple Health name no meal. The
// samples of one Food correlation, or of one app at one instant, are one
// food entry and become one meal with all its macros, named by the entry's
// time of day unless a record names its meal ("Meal", "HKFoodMeal"); the
// report says what was joined. Before, the correlated dinner below became
// a 741-kcal "Snack" without macros and a 0-kcal "Dinner" with 81 g protein.
func TestAppleNutrientsJoinedIntoMeals(t *testing.T) {
	db := newDB(t)
	s := mustImport(t, db, "export_mfp_nomeal.xml", Options{})
	if s.Added != 15 || s.RepeatedInFile != 6 || s.NutrientSamples != 15 || s.FoodEntries != 6 || s.NutrientMeals != 5 || s.MealsCreated != 5 {
		t.Fatalf("added %d repeated %d; joined %d samples, %d entries, %d meals; created %d", s.Added, s.RepeatedInFile,
			s.NutrientSamples, s.FoodEntries, s.NutrientMeals, s.MealsCreated)
	}
	want := "joined 15 nutrient samples from 6 food entries into 5 meals (a food entry is a Food correlation, or one app's samples at one instant; " +
		"entries of one meal time on one day make one meal)"
	if !slices.Contains(SummaryLines(s), want) {
		t.Errorf("report lacks %q:\n%s", want, strings.Join(SummaryLines(s), "\n"))
	}
	loc := time.FixedZone("+0100", 3600)
	var got []string
	for _, m := range meals(t, db) {
		got = append(got, mealLine(t, loc, m.Name, m.EatenAt, m.Calories, m.ProteinG, m.CarbsG, m.FatG))
	}
	wantMeals := []string{
		// One app, one instant, no meal named: lunch by its hour.
		mealLine(t, loc, "Lunch (Apple Health)", time.Date(2024, 3, 4, 12, 31, 0, 0, loc), 612, 31.5, 70.2, 20.4),
		// One Food correlation whose records carry three times: one meal,
		// named by the correlation's time (22:27), stamped with its earliest sample.
		mealLine(t, loc, "Dinner (Apple Health)", time.Date(2024, 3, 5, 15, 44, 0, 0, loc), 741, 81.2453, 39.94, 39.0836),
		// HKFoodMeal names breakfast at 11:20.
		mealLine(t, loc, "Breakfast (Apple Health)", time.Date(2024, 3, 6, 11, 20, 0, 0, loc), 380, 18, 0, 0),
		// One record of the entry names dinner: its protein goes there too, not to the 16:30 snack.
		mealLine(t, loc, "Dinner (Apple Health)", time.Date(2024, 3, 6, 16, 30, 0, 0, loc), 520, 38, 0, 0),
		// Two apps at 08:05: two entries, one breakfast.
		mealLine(t, loc, "Breakfast (Apple Health)", time.Date(2024, 3, 7, 8, 5, 0, 0, loc), 550, 12, 0, 0),
	}
	if strings.Join(got, "\n") != strings.Join(wantMeals, "\n") {
		t.Errorf("meals:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(wantMeals, "\n     "))
	}
	again := mustImport(t, db, "export_mfp_nomeal.xml", Options{})
	if again.Added != 0 || again.MealsCreated != 0 || again.MealsUpdated != 0 || len(meals(t, db)) != 5 {
		t.Errorf("again: added %d meals %d/%d, %d meals", again.Added, again.MealsCreated, again.MealsUpdated, len(meals(t, db)))
	}
}

// appleDoc wraps records in an export.
func appleDoc(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n"
}

const (
	mfpEnergy741  = ` <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="MyFitnessPal" unit="Cal" startDate="2024-03-05 15:44:00 +0100" endDate="2024-03-05 15:44:00 +0100" value="741"/>` + "\n"
	mfpProtein81  = ` <Record type="HKQuantityTypeIdentifierDietaryProtein" sourceName="MyFitnessPal" unit="g" startDate="2024-03-05 22:27:00 +0100" endDate="2024-03-05 22:27:00 +0100" value="81.2453"/>` + "\n"
	mfpDinnerCorr = ` <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" startDate="2024-03-05 22:27:00 +0100" endDate="2024-03-05 22:27:00 +0100">` + "\n " +
		mfpEnergy741 + " " + mfpProtein81 + " </Correlation>\n"
)

// The correlation joins its records wherever it stands in the file, and a
// later export that brings the correlation joins samples an earlier one
// staged apart (the emptied meal goes).
func TestAppleCorrelationJoinsInAnyOrder(t *testing.T) {
	for name, body := range map[string]string{"correlation last": mfpEnergy741 + mfpProtein81 + mfpDinnerCorr,
		"correlation first": mfpDinnerCorr + mfpEnergy741 + mfpProtein81} {
		t.Run(name, func(t *testing.T) {
			db := newDB(t)
			s := mustImportBytes(t, db, "export.xml", appleDoc(body), Options{})
			if m := meals(t, db); len(m) != 1 || m[0].Name != "Dinner (Apple Health)" || !near(m[0].Calories, 741) || !near(m[0].ProteinG, 81.2453) ||
				s.FoodEntries != 1 || s.NutrientMeals != 1 {
				t.Errorf("meals %+v; entries %d meals %d", m, s.FoodEntries, s.NutrientMeals)
			}
		})
	}
	t.Run("a later export", func(t *testing.T) {
		db := newDB(t)
		mustImportBytes(t, db, "export.xml", appleDoc(mfpEnergy741+mfpProtein81), Options{})
		if m := meals(t, db); len(m) != 2 { // no correlation: two food entries, a snack and a dinner
			t.Fatalf("meals before %+v", m)
		}
		s := mustImportBytes(t, db, "export.xml", appleDoc(mfpEnergy741+mfpProtein81+mfpDinnerCorr), Options{})
		m := meals(t, db)
		if len(m) != 1 || !near(m[0].Calories, 741) || !near(m[0].ProteinG, 81.2453) ||
			!slices.ContainsFunc(SummaryLines(s), func(l string) bool { return strings.Contains(l, "regrouped 1 nutrient sample filed apart") }) {
			t.Errorf("meals after %+v; report %q", m, SummaryLines(s))
		}
	})
}
