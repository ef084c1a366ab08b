package schedule

import (
	"testing"
	"time"

	"hearth/internal/apperr"
)

func TestParseSchedule(t *testing.T) {
	ok := []struct {
		kind     Kind
		in, norm string
		after    time.Time
		wantNext time.Time
	}{
		{KindRecurring, "  0   9 * * 1-5 ", "0 9 * * 1-5", t0, time.Date(2026, 3, 2, 9, 0, 0, 0, berlin)},
		{KindRecurring, "@daily", "@daily", t0, time.Date(2026, 3, 3, 0, 0, 0, 0, berlin)},
		{KindInterval, "+15", "15", t0, t0.Add(15 * time.Minute)},
		{KindHeartbeat, "5", "5", t0, t0.Add(5 * time.Minute)},
		{KindOnce, "2026-03-02T10:00:00Z", "2026-03-02T11:00:00+01:00", t0, time.Date(2026, 3, 2, 11, 0, 0, 0, berlin)},
		{KindOnce, "2026-03-02T10:00", "2026-03-02T10:00:00+01:00", t0, time.Date(2026, 3, 2, 10, 0, 0, 0, berlin)},
		{KindOnce, "2026-03-02 10:00:30.9", "2026-03-02T10:00:30+01:00", t0, time.Date(2026, 3, 2, 10, 0, 30, 0, berlin)},
		{KindOnce, "0000-01-01 0:00", "", t0, time.Time{}}, // LMT offsets with seconds do not round-trip through RFC 3339
	}
	for _, c := range ok {
		spec, err := ParseSchedule(c.kind, c.in, berlin)
		if c.norm == "" {
			if !apperr.Is(err, apperr.Invalid) {
				t.Errorf("%s %q: err = %v, want invalid", c.kind, c.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.kind, c.in, err)
			continue
		}
		if spec.Normalized != c.norm {
			t.Errorf("%s %q normalized = %q, want %q", c.kind, c.in, spec.Normalized, c.norm)
		}
		if got := spec.Next(c.after); !got.Equal(c.wantNext) {
			t.Errorf("%s %q next = %v, want %v", c.kind, c.in, got, c.wantNext)
		}
	}
	if _, err := ParseSchedule(KindRecurring, "CRON_TZ=Europe/Paris", berlin); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("zone prefix without a space (a parser panic once): %v", err)
	}
}

func TestWalk(t *testing.T) {
	spec, _ := ParseSchedule(KindInterval, "10", berlin)
	sp := walk(spec, t0, t0.Add(35*time.Minute))
	if sp.total != 4 || len(sp.recent) != 4 || !sp.next.Equal(t0.Add(40*time.Minute)) {
		t.Fatalf("interval walk = %+v", sp)
	}
	cr, _ := ParseSchedule(KindRecurring, "0 * * * *", berlin)
	first := time.Date(2026, 3, 1, 0, 0, 0, 0, berlin)
	sp = walk(cr, first, first.Add(100*time.Hour+time.Minute))
	if sp.total != 101 || len(sp.recent) != maxRecorded || !sp.recent[maxRecorded-1].Equal(first.Add(100*time.Hour)) ||
		!sp.next.Equal(first.Add(101*time.Hour)) {
		t.Fatalf("cron walk: total %d recent %d next %v", sp.total, len(sp.recent), sp.next)
	}
	once, _ := ParseSchedule(KindOnce, "2026-03-02T08:00", berlin)
	sp = walk(once, time.Date(2026, 3, 2, 8, 0, 0, 0, berlin), t0)
	if sp.total != 1 || !sp.next.IsZero() {
		t.Fatalf("once walk = %+v", sp)
	}
}

// FuzzParseSchedule feeds arbitrary schedule text of every kind: parsing
// never panics, errors are Invalid, a parsed schedule's normalized form
// parses to itself, and Next always moves forward (or says there is none).
func FuzzParseSchedule(f *testing.F) {
	seeds := []string{"0 4 * * *", "*/5 * * * *", "0 9 * * 1-5", "@daily", "@every 1m", "TZ=", "CRON_TZ=X",
		"TZ=Europe/Berlin 0 4 * * *", "61 * * * *", "0 0 30 2 *", "1", "0", "-3", "1.5", "99999999999999999999",
		"2026-03-01T09:00:00+01:00", "2026-03-01T09:00", "2026-13-45T99:99", "", " ", "? ? ? ? ?", "L W # * *",
		"1-60/0 * * * *", "0 0 * * 7", "JAN-DEC * * * *", "* * * JAN-DEC SUN-SAT"}
	kinds := []Kind{KindOnce, KindRecurring, KindInterval, KindHeartbeat, "weekly"}
	for _, s := range seeds {
		for i := range kinds {
			f.Add(uint8(i), s)
		}
	}
	ref := time.Date(2026, 3, 2, 8, 58, 0, 0, berlin)
	f.Fuzz(func(t *testing.T, k uint8, in string) {
		kind := kinds[int(k)%len(kinds)]
		spec, err := ParseSchedule(kind, in, berlin)
		if err != nil {
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("%s %q: error %v is not Invalid", kind, in, err)
			}
			return
		}
		again, err := ParseSchedule(kind, spec.Normalized, berlin)
		if err != nil || again.Normalized != spec.Normalized {
			t.Fatalf("%s %q: normalized %q does not round-trip: %q %v", kind, in, spec.Normalized, again.Normalized, err)
		}
		if next := spec.Next(ref); !next.IsZero() && !next.After(ref) {
			t.Fatalf("%s %q: next %v not after %v", kind, in, next, ref)
		}
		if kind == KindInterval || kind == KindHeartbeat {
			if spec.Every() < time.Minute {
				t.Fatalf("%s %q: interval %v under a minute", kind, in, spec.Every())
			}
		}
	})
}
