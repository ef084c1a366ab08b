package copilot

import "testing"

func TestNaturalCron(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"every day at 7pm", "0 19 * * *", true},
		{"Every day at 7 PM", "0 19 * * *", true},
		{"daily at 06:45", "45 6 * * *", true},
		{"weekdays at 6:30", "30 6 * * 1-5", true},
		{"every weekday at 6:30am", "30 6 * * 1-5", true},
		{"weekends at 9", "0 9 * * 0,6", true},
		{"mondays and thursdays at 18:00", "0 18 * * 1,4", true},
		{"every monday at 8am", "0 8 * * 1", true},
		{"every sunday at noon", "0 12 * * 0", true},
		{"every day at midnight", "0 0 * * *", true},
		{"every day at 12am", "0 0 * * *", true},
		{"every day at 12pm", "0 12 * * *", true},
		{"every evening at 9.15 pm", "15 21 * * *", true},
		{"every 15 minutes", "*/15 * * * *", true},
		{"every 2 hours", "0 */2 * * *", true},
		{"hourly", "0 * * * *", true},
		{"every day", "", false},          // no time said: not guessed
		{"every day at 25:00", "", false}, // not a time
		{"every day at 13pm", "", false},
		{"every 7 minutes", "", false}, // not a divisor of an hour: cron cannot say it evenly
		{"tomorrow at 7", "", false},   // once, not recurring
		{"hello", "", false},
		{"", "", false},
	} {
		got, ok := NaturalCron(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NaturalCron(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzNaturalCron(f *testing.F) {
	for _, s := range []string{"every day at 7pm", "weekdays at 6:30", "every 15 minutes", "mondays at 99:99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := NaturalCron(s)
		if ok && !cronShape.MatchString(got) {
			t.Fatalf("NaturalCron(%q) = %q: not a five-field cron", s, got)
		}
	})
}
