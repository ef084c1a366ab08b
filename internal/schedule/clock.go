package schedule

import (
	"fmt"
	"time"
)

// Clock changes (daylight saving time) for recurring tasks, in the
// household zone. The policy (README, "Scheduled tasks"):
//   - a wall-clock time that does not exist that day (clocks go forward:
//     02:30 in New York on the second Sunday of March) fires once, at the
//     first valid instant after it (03:00, the moment the clocks jump);
//     several missing times of one jump fire once;
//   - a wall-clock time that occurs twice (clocks go back: 01:30 in New
//     York on the first Sunday of November) fires once, at its first
//     occurrence;
//   - the ledger row of such a slot notes the shift (Fire.Note).
//
// robfig/cron alone skips the missing time and fires the repeated one twice.

// transitionScan is the step of the search for zone transitions; zones
// change offset at most a few times a year, never twice in 12 hours.
const transitionScan = 12 * time.Hour

// maxScanSteps bounds that search (a cron that fires once in four years).
const maxScanSteps = 4 * 366 * 2

// nextRecurring is Spec.Next for cron schedules, with the clock-change
// policy.
func (s Spec) nextRecurring(t time.Time) time.Time {
	t = t.In(s.loc)
	c := s.cron.Next(t)
	// A repeated wall-clock time fires at its first occurrence only.
	for i := 0; !c.IsZero() && i < 8 && s.secondOccurrence(c); i++ {
		c = s.cron.Next(c)
	}
	// A missing wall-clock time the cron matches fires when the clocks jump.
	if jump, ok := s.missedByJump(t, c); ok {
		return jump
	}
	return c
}

// secondOccurrence reports whether c's wall-clock time occurred earlier
// with another offset (the clocks went back over it).
func (s Spec) secondOccurrence(c time.Time) bool {
	_, offC := c.Zone()
	for _, probe := range []time.Time{c.Add(-24 * time.Hour), c.Add(24 * time.Hour)} {
		_, offX := probe.Zone()
		if offX == offC {
			continue
		}
		e := c.Add(time.Duration(offC-offX) * time.Second) // same wall clock under offset offX
		if _, offE := e.Zone(); offE == offX && e.Before(c) {
			return true
		}
	}
	return false
}

// missedByJump finds the first forward jump of the clocks after t (and
// before until, when until is not zero) whose skipped wall-clock times the
// cron matches; it returns the instant of the jump.
func (s Spec) missedByJump(t, until time.Time) (time.Time, bool) {
	a := t
	for i := 0; i < maxScanSteps; i++ {
		b := a.Add(transitionScan)
		if !until.IsZero() && !a.Before(until) {
			return time.Time{}, false
		}
		_, offA := a.Zone()
		_, offB := b.Zone()
		if offB > offA {
			jump := transitionAt(a, b)
			if jump.After(t) && (until.IsZero() || jump.Before(until)) && s.matchesInGap(jump, offA, offB) {
				return jump, true
			}
		}
		if until.IsZero() && i > 0 {
			return time.Time{}, false // without a next slot, only the coming day matters
		}
		a = b
	}
	return time.Time{}, false
}

// transitionAt is the first instant in (a, b] whose offset differs from a's.
func transitionAt(a, b time.Time) time.Time {
	_, offA := a.Zone()
	for b.Sub(a) > time.Second {
		m := a.Add(b.Sub(a) / 2).Truncate(time.Second)
		if _, off := m.Zone(); off == offA {
			a = m
		} else {
			b = m
		}
	}
	return b
}

// matchesInGap reports whether the cron matches a wall-clock time skipped
// by the jump at instant jump from offset offA to offB: read with the old
// offset, the skipped times are the instants [jump, jump+(offB-offA)).
func (s Spec) matchesInGap(jump time.Time, offA, offB int) bool {
	old := time.FixedZone("before", offA)
	n := s.cron.Next(jump.Add(-time.Second).In(old))
	return !n.IsZero() && n.Before(jump.Add(time.Duration(offB-offA)*time.Second))
}

// clockNote says how a clock change moved slot, for its ledger row ("" when
// it did not).
func (s Spec) clockNote(slot time.Time) string {
	if s.Kind != KindRecurring || slot.IsZero() {
		return ""
	}
	slot = slot.In(s.loc)
	_, offA := slot.Add(-time.Second).Zone()
	_, offB := slot.Zone()
	if offB > offA && s.matchesInGap(slot, offA, offB) {
		old := time.FixedZone("before", offA)
		missing := s.cron.Next(slot.Add(-time.Second).In(old))
		return fmt.Sprintf("clock change: %s did not exist on %s (the clocks went forward); ran once at the first valid time after it, %s",
			missing.Format("15:04"), slot.Format("Mon 2 Jan 2006"), slot.Format("15:04 MST"))
	}
	if s.repeatedWall(slot) {
		return fmt.Sprintf("clock change: %s occurred twice on %s (the clocks went back); ran once, at the first occurrence (%s)",
			slot.Format("15:04"), slot.Format("Mon 2 Jan 2006"), slot.Format("MST"))
	}
	return ""
}

// repeatedWall reports whether slot's wall-clock time occurs again later
// with another offset (slot is the first of two occurrences).
func (s Spec) repeatedWall(slot time.Time) bool {
	_, offC := slot.Zone()
	probe := slot.Add(24 * time.Hour)
	_, offX := probe.Zone()
	if offX == offC {
		return false
	}
	e := slot.Add(time.Duration(offC-offX) * time.Second)
	_, offE := e.Zone()
	return offE == offX && e.After(slot)
}

// clockNote is Spec.clockNote for a task's schedule.
func (s *Service) clockNote(t Task, slot time.Time) string {
	if t.Kind != KindRecurring {
		return ""
	}
	spec, err := ParseSchedule(t.Kind, t.Schedule, s.loc)
	if err != nil {
		return ""
	}
	return spec.clockNote(slot)
}
