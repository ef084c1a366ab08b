package sensors

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"hearth/internal/health"
	"hearth/internal/homeassistant"
	"hearth/internal/importer"
)

// Result is what one Poll did.
type Result struct {
	// NotConfigured: Home Assistant's URL and token are not set; nothing
	// was read.
	NotConfigured bool
	Mappings      int // mappings polled
	Added         int // records added (or daily figures updated)
	Failed        int // mappings whose poll failed (their Error says why)
}

// Headline says what a poll did in one sentence.
func (r Result) Headline() string {
	switch {
	case r.NotConfigured:
		return "Home Assistant is not configured: nothing was polled"
	case r.Mappings == 0:
		return "No sensors are mapped: nothing was polled"
	}
	s := fmt.Sprintf("Polled %d %s: %d added", r.Mappings, plural(r.Mappings, "sensor", "sensors"), r.Added)
	if r.Failed > 0 {
		s += fmt.Sprintf(", %d failed", r.Failed)
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Poll reads every mapping's new states and writes them. A mapping that
// fails is recorded on it (and logged once per change) and the others go
// on; the error returned is only for Home Assistant not being configured
// (homeassistant.ErrNotConfigured, with Result.NotConfigured) or ctx ending.
func (s *Service) Poll(ctx context.Context) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var res Result
	maps, err := s.Mappings(ctx)
	if err != nil {
		return res, err
	}
	client, err := s.connect(ctx)
	if errors.Is(err, homeassistant.ErrNotConfigured) {
		res.NotConfigured = true
		if len(maps) > 0 {
			s.noteState(0, "", err)
		}
		return res, err
	}
	if err != nil {
		return res, fmt.Errorf("sensors: %w", err)
	}
	s.noteState(0, "", nil)
	sort.SliceStable(maps, func(i, j int) bool { return kindOrder(maps[i].Kind) < kindOrder(maps[j].Kind) })
	for _, m := range maps {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Mappings++
		added, perr := s.pollOne(ctx, client, m)
		if perr != nil && ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Added += added
		if perr != nil {
			res.Failed++
		}
		s.noteState(m.ID, m.EntityID, perr)
	}
	return res, nil
}

func kindOrder(k Kind) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return len(Kinds)
}

// pollOne reads one mapping's history since its cursor, writes the new
// readings and records the outcome on the mapping.
func (s *Service) pollOne(ctx context.Context, client *homeassistant.Client, m Mapping) (int, error) {
	now := s.db.Now()
	since := now.Add(-FirstPoll)
	if m.Cursor != nil {
		since = *m.Cursor
	}
	from := since
	daily := m.Kind == KindSteps || m.Kind == KindSleep
	if daily { // the day's figure needs the day's earlier readings too
		from = health.LocalDay(since, s.loc)
	}
	added, cursor, err := s.read(ctx, client, m, from, since, now)
	if err != nil {
		err = fmt.Errorf("%s: %w", m.EntityID, err)
	}
	if rerr := s.recordPoll(context.WithoutCancel(ctx), m.ID, now, cursor, added, err); rerr != nil {
		return added, errors.Join(err, rerr)
	}
	return added, err
}

// read reads the states after from (up to now), turns those after since
// (all of the day's, for daily figures) into readings and writes them; it
// returns how many were added and the new cursor (nil: nothing new).
func (s *Service) read(ctx context.Context, client *homeassistant.Client, m Mapping, from, since, now time.Time) (int, *time.Time, error) {
	states, err := client.History(ctx, m.EntityID, from, now)
	if err != nil {
		return 0, nil, err
	}
	var readings []importer.Reading
	var latest time.Time
	unit := ""
	var unitErr error
	for _, st := range states {
		if u := st.Unit(); u != "" {
			unit = u
		}
		at := st.LastChanged
		if at.IsZero() {
			at = st.LastUpdated
		}
		// The first state is the one in force at from, its time clamped
		// to from: its real time is unknown, and it was read before.
		if !at.After(from) {
			continue
		}
		if at.After(latest) {
			latest = at
		}
		v, err := value(m.Kind, st, unit)
		var skip errSkip
		if errors.As(err, &skip) {
			continue
		}
		if err != nil {
			unitErr = err
			continue
		}
		readings = append(readings, importer.Reading{Kind: importer.ReadingKind(m.Kind), At: at, Value: v})
	}
	if m.Kind == KindSteps || m.Kind == KindSleep {
		readings = s.daily(m.Kind, readings)
	} else {
		readings = after(readings, since)
	}
	sum, err := importer.WriteReadings(ctx, s.db, importer.Readings{Member: m.MemberID, Source: importer.SourceHomeAssistant,
		Name: "Home Assistant " + m.EntityID, Readings: readings, Publisher: s.pub})
	if err != nil {
		return 0, nil, err
	}
	var cursor *time.Time
	if latest.After(since) {
		cursor = &latest
	}
	// A day's figure that grew, or body fat put on its weigh-in, updates
	// a row: new to the member all the same.
	added := sum.Added + sum.Updated
	if unitErr != nil { // the other states were read; the cursor moves on
		return added, cursor, unitErr
	}
	return added, cursor, nil
}

// after keeps the readings later than since, in time order.
func after(rs []importer.Reading, since time.Time) []importer.Reading {
	out := rs[:0]
	for _, r := range rs {
		if r.At.After(since) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// daily makes one figure per local day: steps the day's largest reading,
// sleep the day's last (see the package doc).
func (s *Service) daily(kind Kind, rs []importer.Reading) []importer.Reading {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].At.Before(rs[j].At) })
	byDay := map[string]int{}
	var out []importer.Reading
	for _, r := range rs {
		r.Day = r.At.In(s.loc).Format(time.DateOnly)
		i, ok := byDay[r.Day]
		switch {
		case !ok:
			byDay[r.Day] = len(out)
			out = append(out, r)
		case kind == KindSleep || r.Value > out[i].Value:
			out[i] = r
		}
	}
	return out
}
