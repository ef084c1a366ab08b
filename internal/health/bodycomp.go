package health

import (
	"sort"
	"time"
)

// Composition is the latest body-composition scan with its change since the
// previous one (get_body_composition). Changes are latest − previous.
type Composition struct {
	Latest           BodyScan  `json:"latest"`
	DaysAgo          int       `json:"days_ago"`
	Previous         *BodyScan `json:"previous,omitempty"`
	BodyFatChangePct *float64  `json:"body_fat_change_pct,omitempty"`
	LeanChangeKg     *float64  `json:"lean_change_kg,omitempty"`
	FatMassChangeKg  *float64  `json:"fat_mass_change_kg,omitempty"`
}

// change is latest − previous rounded, or nil when either is unknown.
func change(latest, previous *float64, decimals int) *float64 {
	if latest == nil || previous == nil {
		return nil
	}
	return ptr(roundTo(*latest-*previous, decimals))
}

// BodyComposition summarises scans (any order; after now ignored); ok is
// false without any scan.
func BodyComposition(scans []BodyScan, now time.Time, loc *time.Location) (c Composition, ok bool) {
	var ss []BodyScan
	for _, s := range scans {
		if !s.ScannedAt.After(now) {
			ss = append(ss, s)
		}
	}
	if len(ss) == 0 {
		return c, false
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].ScannedAt.Before(ss[j].ScannedAt) })
	c.Latest = ss[len(ss)-1]
	c.DaysAgo = DaysAgo(c.Latest.ScannedAt, now, loc)
	if len(ss) > 1 {
		prev := ss[len(ss)-2]
		c.Previous = &prev
		c.BodyFatChangePct = change(c.Latest.BodyFatPct, prev.BodyFatPct, 1)
		c.LeanChangeKg = change(c.Latest.LeanMassKg, prev.LeanMassKg, 2)
		if c.Latest.FatMassKg != nil && prev.FatMassKg != nil {
			c.FatMassChangeKg = ptr(round2(*c.Latest.FatMassKg - *prev.FatMassKg))
		}
	}
	return c, true
}
