package importer

import (
	"fmt"
	"strings"
	"time"

	"hearth/internal/export"
)

// Hearth's own export (internal/export): weights.csv, meals.csv,
// workouts.csv and body_scans.csv hold one stored entry per row, with its
// source, the source's own key for it and when Hearth stored it. Such a row
// is that entry wherever it goes: it is never merged with another row, it
// keeps its source, key and time of storing, and it is found again by them
// (own.go), so importing a member's export into the same member adds
// nothing and into another member reproduces every stored column. Exports
// written before the key was exported (a source column, no source_key) are
// matched by source and time.

// ownRow is what a row of Hearth's own export says beside its values.
type ownRow struct {
	on      bool
	source  string    // manual, csv, apple_health, demo, …
	key     string    // the source's key for the entry ("" for none: entered by hand)
	keyed   bool      // the file has a source_key column
	created time.Time // when Hearth first stored it (zero: now)
	nth     int       // among the file's keyless rows of this source and instant, which one
}

// hearthProfiles recognise the four files by the exact header Hearth
// writes: the time column, the first value column and source.
var hearthProfiles = []*csvProfile{
	hearthProfile(KindCSVWeight, "measured_at", "weight_kg"),
	hearthProfile(KindCSVMeals, "eaten_at", "energy_kcal"),
	hearthProfile(KindCSVWorkouts, "started_at", "duration_min"),
	hearthProfile(KindCSVBodyScans, "scanned_at", "body_fat_pct"),
}

// hearthExport is the profile name of Hearth's own export ("this is a
// Hearth export, which holds …").
const hearthExport = "Hearth"

func hearthProfile(kind Kind, timeCol, valueCol string) *csvProfile {
	return &csvProfile{name: hearthExport, kind: kind,
		detect: func(cols []headerCol, _ map[string]bool) bool {
			return rawIndex(cols, timeCol) == 0 && rawIndex(cols, valueCol) > 0 && rawIndex(cols, "source") > 0
		},
		setup: hearthSetup, row: hearthRow}
}

// rawIndex is the column whose header is exactly name (any case), or -1.
func rawIndex(cols []headerCol, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.raw, name) {
			return i
		}
	}
	return -1
}

func hearthSetup(p *csvParser, cols []headerCol, line int) error {
	if err := p.mapHeader(cols, line); err != nil {
		return err
	}
	p.own = true
	p.extra = map[string]int{"source": rawIndex(cols, "source"), "source_key": rawIndex(cols, "source_key"),
		"created_at": rawIndex(cols, "created_at")}
	if p.col("source_key") < 0 {
		p.out.note("an export from before Hearth wrote source keys: its entries are recognised by their source and time")
	}
	return nil
}

// hearthRow reads a row as its kind's generic row and adds what Hearth
// stored beside the values.
func hearthRow(p *csvParser, rec []string, line int) string {
	var msg string
	switch p.kind {
	case KindCSVWeight:
		msg = p.weight(rec)
	case KindCSVMeals:
		msg = p.meal(rec)
	case KindCSVWorkouts:
		msg = p.workout(rec)
	default:
		msg = p.bodyScan(rec)
	}
	if msg != "" {
		return msg
	}
	o := ownRow{on: true, keyed: p.col("source_key") >= 0}
	if o.source = p.clean(cell(rec, p.col("source")), 40); o.source == "" {
		o.source = "manual"
	}
	// A key is an identifier: only the export's formula marker comes off.
	o.key = export.Restore(cell(rec, p.col("source_key")))
	if len(o.key) > 200 || strings.ContainsFunc(o.key, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "source_key is not a key Hearth writes"
	}
	if s := cell(rec, p.col("created_at")); s != "" {
		t, ok := parseCSVTime(s, p.o.loc)
		if !ok {
			return fmt.Sprintf("created_at %q is not a time", s)
		}
		o.created = t
	}
	if o.key == "" {
		o.nth = p.keylessIndex(o.source, p.rec.at())
	}
	p.rec.own = o
	return ""
}

// keylessIndex numbers the keyless rows of one source at one instant (the
// export lists them in the order they were stored); the count restarts
// when the instant changes, so memory stays flat.
func (p *csvParser) keylessIndex(source, at string) int {
	if at != p.keylessAt {
		p.keylessAt, p.keyless = at, map[string]int{}
	}
	n := p.keyless[source]
	p.keyless[source] = n + 1
	return n
}
