package dashboard_test

import (
	"testing"

	"hearth/internal/dashboard"
)

// A call to action stored before the subject fields existed gets them from
// its action and type, never from its words.
func TestCTASubjectDefaultsForOldDocuments(t *testing.T) {
	for _, c := range []struct {
		cta  dashboard.CTA
		want dashboard.Subject
	}{
		{dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition, Message: "Nothing in the log for the day before."},
			dashboard.Subject{Record: dashboard.RecordMeal, Day: dashboard.DayYesterday, Macro: dashboard.MacroNone}},
		{dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenNutrition, Message: "Protein was low yesterday."},
			dashboard.Subject{Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroNone}},
		{dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenWeight, Message: "Step on the scale."},
			dashboard.Subject{Record: dashboard.RecordWeight, Day: dashboard.DayAny, Macro: dashboard.MacroNone}},
		{dashboard.CTA{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenWeight, Message: "No weigh-in for 6 days."},
			dashboard.Subject{Record: dashboard.RecordWeight, Day: dashboard.DayToday, Macro: dashboard.MacroNone}},
		{dashboard.CTA{Type: dashboard.CTAProgram, Action: dashboard.ActionPlayUpNext, Message: "Day 3 is ready."},
			dashboard.Subject{Record: dashboard.RecordUpNext, Day: dashboard.DayToday, Macro: dashboard.MacroNone}},
		{dashboard.CTA{Type: dashboard.CTAHabit, Action: dashboard.ActionOpenNutrition, Message: "More beans.",
			Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroProtein},
			dashboard.Subject{Record: dashboard.RecordMeal, Day: dashboard.DayToday, Macro: dashboard.MacroProtein}},
	} {
		if got := c.cta.Subject(); got != c.want {
			t.Errorf("%q: subject %+v, want %+v", c.cta.Message, got, c.want)
		}
	}
}
