package health

import (
	"testing"
	"time"
)

func TestDayHelpersAcrossDST(t *testing.T) {
	loc := berlin(t)
	// 2026-03-29 is the last Sunday of March: 02:00 CET becomes 03:00 CEST.
	sat2330 := on(loc, 2026, 3, 28, 23, 30) // 22:30Z
	sun0030 := on(loc, 2026, 3, 29, 0, 30)  // 23:30Z on the 28th
	mon0030 := on(loc, 2026, 3, 30, 0, 30)  // 22:30Z on the 29th
	if got := LocalDay(sun0030, loc); !got.Equal(on(loc, 2026, 3, 29, 0, 0)) {
		t.Errorf("LocalDay(sun 00:30) = %v", got)
	}
	if got := DaysAgo(sat2330, mon0030, loc); got != 2 {
		t.Errorf("DaysAgo(sat 23:30, mon 00:30) = %d, want 2", got)
	}
	if got := DaysAgo(sun0030, sat2330, loc); got != -1 {
		t.Errorf("DaysAgo(sun, sat) = %d, want -1", got)
	}
	if got := WeekStart(sun0030, loc); !got.Equal(on(loc, 2026, 3, 23, 0, 0)) {
		t.Errorf("WeekStart(sunday) = %v, want Mon 23 Mar", got)
	}
	if got := WeekStart(mon0030, loc); !got.Equal(on(loc, 2026, 3, 30, 0, 0)) {
		t.Errorf("WeekStart(monday 00:30) = %v, want Mon 30 Mar", got)
	}
	// The 23-hour day still ends at the next local midnight.
	if got := dayEnd(dayNum(sun0030, loc), loc); !got.Equal(on(loc, 2026, 3, 30, 0, 0).Add(-time.Nanosecond)) {
		t.Errorf("dayEnd = %v", got)
	}
	if got := LocalDay(sun0030, nil); !got.Equal(time.Date(2026, 3, 28, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("nil loc means UTC, got %v", got)
	}
}
