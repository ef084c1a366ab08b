package eval

import (
	"strings"
	"testing"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
)

func fp(v float64) *float64 { return &v }

// docSaying is a plan whose briefing is text.
func docSaying(text string) *dashboard.Document {
	d := goodDoc()
	d.Coach.Briefing = text
	d.Coach.Feedback = nil
	d.Coach.CTA = nil
	d.Coach.Prompts = nil
	return &d
}

// claimHolds evaluates e (on the scenarios' default today, Wed 18 Feb
// 2026) against a plan saying text.
func claimHolds(t *testing.T, e Expectation, text string) (bool, string) {
	t.Helper()
	if err := e.check(); err != nil {
		t.Fatalf("%s: %v", e.Label(), err)
	}
	e.setToday(time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC))
	cat := testCatalog()
	cat["local:foam"] = content.Item{ID: "local:foam", Title: "Foam Roller Recovery", DurationMin: 15, Kind: content.KindRecovery}
	got := e.evaluate(docSaying(text), cat, testAfter())
	return got == "", got
}

// TestFactChecksAcceptOtherWordsAndRejectOtherFacts: each fact check
// holds for the same fact in several wordings and fails for a wrong one.
func TestFactChecksAcceptOtherWordsAndRejectOtherFacts(t *testing.T) {
	cases := []struct {
		name   string
		e      Expectation
		same   []string
		others []string
	}{
		{"weight in kg", Expectation{Check: CheckFigure, Number: fp(74), Unit: "kg", About: "(?i)weigh"},
			[]string{"Weight 74 kg, trend +0.3 kg.", "You weigh 74.0 kilos this morning.", "The scale says 74kg: that's your weight."},
			[]string{"Weight 73 kg.", "Weight 74.4 kg.", "You weigh 74 lb.", "Goal 74 kg. Your weight is 72 kg."}},
		{"rounding to the precision written", Expectation{Check: CheckFigure, Number: fp(206.8), Unit: "lb"},
			[]string{"You're at 207 lb.", "206.8 pounds on the scale."},
			[]string{"You're at 206 lb.", "206.5 lb on the scale."}},
		{"kcal with separators or k", Expectation{Check: CheckFigure, Number: fp(1200), Unit: "kcal"},
			[]string{"Yesterday you logged 1,200 kcal.", "You ate 1200 calories yesterday.", "About 1.2k kcal yesterday."},
			[]string{"Yesterday you logged 1,100 kcal.", "1,200 kJ yesterday."}},
		{"days as a word", Expectation{Check: CheckFigure, Number: fp(6), Unit: "days"},
			[]string{"Your last weigh-in was 6 days ago.", "It's been six days since you stepped on the scale.", "A 6-day gap."},
			[]string{"It's been seven days.", "6 weeks ago."}},
		{"a titled session is no figure", Expectation{Check: CheckFigure, Number: fp(20), Unit: "min", Absent: true},
			[]string{"Tabata Twenty is up next.", "Up next: Tabata Twenty."},
			[]string{"A 20-minute session.", "Twenty minutes today."}},
		{"no figure in kg", Expectation{Check: CheckFigure, Unit: "kg", Absent: true},
			[]string{"You weigh 158 lb.", "Weight 158 pounds."},
			[]string{"You weigh 71.7 kg.", "That's 72 kilos."}},
		{"a date, any format", Expectation{Check: CheckDate, Date: "2026-06-01"},
			[]string{"You reach 65 kg around Mon 1 Jun.", "…by June 1st.", "…by 1 June 2026.", "…around 2026-06-01.", "…by 01/06.", "…by the 1st of June."},
			[]string{"You reach 65 kg around Tue 2 Jun.", "…by 1 July.", "…by 2026-06-02."}},
		{"a date within days", Expectation{Check: CheckDate, Date: "2026-06-01", WithinDays: 3},
			[]string{"…around May 30.", "…in 15 weeks."},
			[]string{"…around May 20.", "…in 10 weeks."}},
		{"a date with its year", Expectation{Check: CheckDate, Date: "2027-01-22", WithYear: true},
			[]string{"…around Fri 22 Jan 2027.", "…by January 22, 2027.", "…by 2027-01-22."},
			[]string{"…around Fri 22 Jan.", "…around 22 Jan 2026."}},
		{"a weekday this week", Expectation{Check: CheckDate, Date: "2026-02-21", About: "(?i)start"},
			[]string{"Tideline Yoga 21 starts Sat 21 Feb.", "It starts this Saturday.", "Starting on Saturday 21 February."},
			[]string{"It starts Sunday.", "It starts Sat 28 Feb.", "Saturday is a rest day."}},
		{"a program day", Expectation{Check: CheckEntity, Names: []string{"Ember Core 30"}, Day: 4},
			[]string{"Today is Week 1, Day 4 of Ember Core 30.", "Ember Core 30, day four: Hollow Body Basics.", "The fourth session of ember core 30 is up."},
			[]string{"Today is Day 5 of Ember Core 30.", "Day 4 of Ironwood Strength.", "Ember Core 30 today. Day 4 of the week."}},
		{"a body area", Expectation{Check: CheckEntity, Names: []string{"knee"}},
			[]string{"I'm keeping your bad left knee in mind.", "Go easy on those knees."},
			[]string{"Mind your back.", "A kneeling stretch."}},
		{"over the target", Expectation{Check: CheckStance, Stance: "over_target"},
			[]string{"Yesterday went over your calorie target.", "That's above the daily target.", "You overshot yesterday.",
				"2,900 calories, above your 1,800 kcal daily target."},
			[]string{"You were right on target.", "You didn't go over your target.", "Protein averaged 85 g over the last 7 days, under your target."}},
		{"away from the goal", Expectation{Check: CheckStance, Stance: "away_from_goal"},
			[]string{"Your weight is moving away from your goal.", "The scale has been creeping up.", "The trend is heading the wrong way."},
			[]string{"You're moving toward your goal.", "The trend isn't creeping up."}},
		{"not toward the goal", Expectation{Check: CheckStance, Stance: "toward_goal", Absent: true},
			[]string{"Your weight is not moving toward your goal.", "Your weight has held steady."},
			[]string{"At this pace you reach 65 kg around Mon 1 Jun.", "You're on track for 65 kg.", "You'll reach 65 kg by June."}},
		{"a plateau", Expectation{Check: CheckStance, Stance: "plateau"},
			[]string{"A plateau, with your goal at 76 kg.", "Your weight has held steady for two weeks.", "The scale hasn't budged."},
			[]string{"Down 0.4 kg this week."}},
		{"their clinician's advice", Expectation{Check: CheckStance, Stance: "clinician_advice"},
			[]string{"Your midwife's or doctor's advice comes first.", "Check with your GP before you do more.", "Follow your cardiologist's advice."},
			[]string{"Take it easy today.", "Don't worry about your doctor-free week."}},
		{"weigh again", Expectation{Check: CheckStance, Stance: "weigh_again"},
			[]string{"Weigh again tomorrow to check?", "Step on the scale again tomorrow.", "Let's see what another weigh-in says."},
			[]string{"Weight 70 kg.", "Don't weigh again tomorrow."}},
		{"recovery not in a title", Expectation{Check: CheckStance, Stance: "recovery"},
			[]string{"Seven hard days in a row: today your body recovers.", "Take it easy today."},
			[]string{"Today's pick: Foam Roller Recovery."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range c.same {
				if ok, why := claimHolds(t, c.e, s); !ok {
					t.Errorf("%s does not hold for %q: %s", c.e.Label(), s, why)
				}
			}
			for _, s := range c.others {
				if ok, _ := claimHolds(t, c.e, s); ok {
					t.Errorf("%s holds for %q", c.e.Label(), s)
				}
			}
		})
	}
}

func TestFactChecksAreValidated(t *testing.T) {
	for _, c := range []struct {
		e    Expectation
		want string
	}{
		{Expectation{Check: CheckFigure, Unit: "stone", Number: fp(1)}, `unit "stone"`},
		{Expectation{Check: CheckFigure, Unit: "kg"}, "number is required"},
		{Expectation{Check: CheckDate}, "date (YYYY-MM-DD) or in_days"},
		{Expectation{Check: CheckDate, Date: "14 March"}, "want YYYY-MM-DD"},
		{Expectation{Check: CheckEntity}, "names, day or any_day"},
		{Expectation{Check: CheckStance, Stance: "vibes"}, `stance "vibes"`},
		{Expectation{Check: CheckStance, Stance: "plateau", Field: "tone"}, `field "tone"`},
		{Expectation{Check: CheckNoContent, Areas: []string{"elbowz"}}, `area "elbowz"`},
	} {
		if err := c.e.check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.e.Label(), err, c.want)
		}
	}
}
