package web_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/history/historytest"
)

// tenYearsFor writes ten years of daily history for member ending on last.
func tenYearsFor(tb testing.TB, k interface {
	write(context.Context, historytest.Plan) (historytest.Counts, error)
}, member string, last time.Time) historytest.Counts {
	tb.Helper()
	c, err := k.write(context.Background(), historytest.Plan{Member: member, Last: last, Days: 3653, StartKg: 92, EndKg: 84, Seed: 7})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func (k *kiosk) write(ctx context.Context, p historytest.Plan) (historytest.Counts, error) {
	return historytest.Write(ctx, k.db, p)
}

func (s *swServer) write(ctx context.Context, p historytest.Plan) (historytest.Counts, error) {
	return historytest.Write(ctx, s.app.DB, p)
}

// Years of imported history that ended in March 2024 read as history:
// the weight widget says "Last weighed … 2024" and asks for a weigh-in
// (no current weight, no week's change), the dates carry their year, and
// the history page, reached from the widgets, shows everything.
func TestImportedYearsReadAsHistory(t *testing.T) {
	k := newKiosk(t)
	last := time.Date(2024, 3, 14, 0, 0, 0, 0, time.Local)
	c := tenYearsFor(t, k, "ada", last)

	_, page := k.get("/m/ada")
	weight := section(t, page, "w-weight")
	lastWeighed := regexp.MustCompile(`Last weighed 1[0-4] Mar 2024`)
	if !lastWeighed.MatchString(weight) || !strings.Contains(weight, "restart your trend") {
		t.Errorf("weight widget does not show the 2024 reading as history:\n%.1500s", weight)
	}
	if strings.Contains(page, "one weigh-in starts your trend") || !regexp.MustCompile(`Your last weigh-in was \w{3} 1[0-4] Mar 2024\. Step on the scale to restart your trend\.`).MatchString(page) {
		t.Errorf("the first nudges treat the imported weigh-ins as none:\n%.4000s", section(t, page, "w-ctas"))
	}
	if strings.Contains(weight, "in 7 days") || strings.Contains(weight, "trend 8") {
		t.Errorf("a week's change or trend shown as current:\n%.1500s", weight)
	}
	if !strings.Contains(weight, `href="/m/ada/history?span=all#weight"`) {
		t.Errorf("no link to the whole history from the stale widget:\n%.800s", weight)
	}
	if !strings.Contains(weight, `>14 Feb 2024</text>`) {
		t.Errorf("the chart's days lack their year:\n%.1500s", weight)
	}
	if w := section(t, page, "w-workouts"); !regexp.MustCompile(`(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} Mar 2024`).MatchString(w) {
		t.Errorf("the recent workouts' dates lack their year:\n%.1500s", w)
	}
	for _, id := range []string{"w-nutrition", "w-workouts"} {
		if !strings.Contains(section(t, page, id), `href="/m/ada/history#`) {
			t.Errorf("%s: no history link", id)
		}
	}

	// The household view's tile says the same.
	if _, home := k.get("/"); !regexp.MustCompile(`last weighed 1[0-4] Mar 2024`).MatchString(home) {
		t.Errorf("the household tile shows the 2024 weight as current:\n%.3000s", home)
	}

	// The default span (3 months) is empty but says where the history is.
	code, hist := k.get("/m/ada/history")
	if code != http.StatusOK || !strings.Contains(hist, "Nothing logged in the last 3 months") || !strings.Contains(hist, `href="/m/ada/history?span=all"`) {
		t.Fatalf("3 months: %d\n%.2000s", code, hist)
	}
	if !regexp.MustCompile(`Records since 1[3-7] Mar 2014`).MatchString(hist) {
		t.Errorf("no 'records since' with its year:\n%.1500s", hist)
	}
	_, all := k.get("/m/ada/history?span=all")
	for _, want := range []string{
		thousands(c.Weights) + " weigh-ins", "one point per month",
		thousands(c.Meals) + " meals on", "Calories per day, averaged per month",
		thousands(c.Workouts) + " workouts: strength",
		"Mar 2024", `aria-current="page"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("all: lacks %q", want)
		}
	}
	if n := strings.Count(all, `class="bar-v`); n < 100 {
		t.Errorf("all: %d bars, want one per month with data (~120 per section)", n)
	}
	if !regexp.MustCompile(`Trend 9[12](\.\d)? kg → 8[3-5](\.\d)? kg \(−`).MatchString(all) {
		t.Errorf("all: no long-term trend:\n%.3000s", section(t, all, "weight"))
	}
	// A span a person typed wrong is the default, not an error.
	if code, body := k.get("/m/ada/history?span=forever"); code != http.StatusOK || !strings.Contains(body, "Nothing logged in the last 3 months") {
		t.Errorf("span=forever: %d", code)
	}
	if code, _ := k.get("/m/nobody/history"); code != http.StatusNotFound {
		t.Errorf("unknown member: %d, want 404", code)
	}
}

// A member logging now: the widget shows today's figures (no "last
// weighed"), the history's 3 months are days, its 12 months weeks.
func TestHistoryOfACurrentMember(t *testing.T) {
	k := newKiosk(t)
	tenYearsFor(t, k, "ada", time.Now())
	_, page := k.get("/m/ada")
	if w := section(t, page, "w-weight"); strings.Contains(w, "Last weighed") || !strings.Contains(w, `href="/m/ada/history#weight"`) {
		t.Errorf("current member's weight widget:\n%.1200s", w)
	}
	_, q := k.get("/m/ada/history")
	if !strings.Contains(q, "Calories per day</h2>") || !strings.Contains(q, "Every day (") || strings.Contains(q, "one point per") {
		t.Errorf("3 months: not per day:\n%.2000s", section(t, q, "nutrition"))
	}
	_, y := k.get("/m/ada/history?span=12m")
	if !strings.Contains(y, "Calories per day, averaged per week") || !strings.Contains(y, "Every week (") || !strings.Contains(y, "of 7 days logged") {
		t.Errorf("12 months: not per week:\n%.2000s", section(t, y, "nutrition"))
	}
}

// section cuts the element with id out of page (to its closing </section>).
func section(t *testing.T, page, id string) string {
	t.Helper()
	i := strings.Index(page, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no #%s on the page:\n%.500s", id, page)
	}
	rest := page[i:]
	if j := strings.Index(rest, "</section>"); j >= 0 {
		return rest[:j]
	}
	return rest
}

func thousands(n int) string { return health.Thousands(float64(n)) }

// BenchmarkHistoryPageTenYears renders a member's history page over ten
// years of daily weigh-ins, meals and workouts (all, 12 months) through
// the real Echo stack, in-process: the bound is 100 ms.
//
//	go test -tags sqlite_fts5 -run '^$' -bench BenchmarkHistoryPageTenYears ./web/
func BenchmarkHistoryPageTenYears(b *testing.B) {
	s := sweepOver(b, withDemo())
	if _, err := s.app.DB.CreateMember(context.Background(), health.Member{ID: "ten", Name: "Ten"}); err != nil {
		b.Fatal(err)
	}
	tenYearsFor(b, s, "ten", time.Now())
	for _, span := range []string{"all", "12m", "3m"} {
		b.Run(span, func(b *testing.B) {
			for b.Loop() {
				s.benchGet(b, "/m/ten/history?span="+span)
			}
		})
	}
}
