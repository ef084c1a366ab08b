package importer

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/export"
	"hearth/internal/health"
	"hearth/internal/text"
)

// colRef is where a field is: its column (-1 when absent) and the unit its
// header states.
type colRef struct {
	idx  int
	unit string
}

// columns maps each field to its column.
type columns [nFields]colRef

// csvParser turns rows into records.
type csvParser struct {
	out            emitter
	o              csvOptions
	res            *csvResult
	kind           Kind
	prof           *csvProfile
	merge          mergeMode
	cols           columns
	extra          map[string]int    // profile columns by base name
	extraUnits     map[string]string // and the units their headers state
	decimalComma   bool
	thousandsComma bool
	lineOffset     int
	headerLine     int
	k              keyer
	rec            record
	dropped        int // characters text.Clean removed
	unitNoted      map[string]bool
	counts         map[string]int  // profile tallies for notes ("calorie adjustment" rows, …)
	corrected      map[string]bool // workouts whose correction was reported (Strong, Hevy)
	own            bool            // Hearth's own export: rows are stored entries (csv_own.go)
	keylessAt      string          // the instant keyless counts are for
	keyless        map[string]int  // keyless rows seen at keylessAt, by source
}

// rowErr parses one data row. Rejections go to the emitter; only a storage
// failure is returned.
func (p *csvParser) rowErr(rec []string, line int) error {
	p.rec = record{}
	msg := p.parseRow(rec, line)
	if msg == skipRow {
		return nil
	}
	if msg != "" {
		p.out.reject(string(p.kind), Problem{Line: line, Message: msg})
		return nil
	}
	return p.out.emit(&p.rec)
}

// skipRow is parseRow's answer for a row that is not a record (counted in a note).
const skipRow = "\x00skip"

func (p *csvParser) parseRow(rec []string, line int) string {
	if allEmpty(rec) {
		return skipRow
	}
	r := &p.rec
	*r = record{label: string(p.kind), line: line, merge: p.merge}
	if p.prof != nil && p.prof.row != nil {
		return p.prof.row(p, rec, line)
	}
	switch p.kind {
	case KindCSVWeight:
		return p.weight(rec)
	case KindCSVMeals:
		return p.meal(rec)
	case KindCSVBodyScans:
		return p.bodyScan(rec)
	default:
		return p.workout(rec)
	}
}

func allEmpty(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// flush reports what the parser tallied.
func (p *csvParser) flush() error {
	if p.prof != nil && p.prof.done != nil {
		p.prof.done(p)
	}
	return nil
}

// finish reports the characters text.Clean dropped.
func (p *csvParser) finish() {
	if p.dropped > 0 {
		p.out.cleaned(p.dropped)
	}
}

func (p *csvParser) count(what string) {
	if p.counts == nil {
		p.counts = map[string]int{}
	}
	p.counts[what]++
}

// get returns the trimmed value of field f in rec ("" when absent).
func (p *csvParser) get(rec []string, f csvField) string {
	return cell(rec, p.cols[f].idx)
}

func cell(rec []string, i int) string {
	if i >= 0 && i < len(rec) {
		return strings.TrimSpace(rec[i])
	}
	return ""
}

// clean passes imported text through text.Clean in Line mode (names and
// titles are single-line: a line break or tab inside a quoted cell becomes a
// space, other control characters and invalid UTF-8 are dropped and counted),
// undoes the apostrophe Hearth's own export puts before a cell a
// spreadsheet would run as a formula (export.Restore: exactly one, so a
// stored '=1+1 and =1+1 both come back as they were), and trims and cuts to
// max bytes.
func (p *csvParser) clean(s string, max int) string {
	s = lineBreaks.Replace(s)
	s, n := text.Clean(text.Line, s)
	p.dropped += n
	return truncate(strings.TrimSpace(export.Restore(s)), max)
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\t", " ")

// Units a field's header may state, as factors to the canonical unit.
var (
	massUnits     = map[string]float64{"": 1, "kg": 1, "g": 0.001, "lb": health.KgPerLb, "st": health.KgPerStone}
	macroUnits    = map[string]float64{"": 1, "g": 1, "mg": 0.001, "kg": 1000}
	energyUnits   = map[string]float64{"": 1, "kcal": 1, "cal": 1, "kj": 1 / 4.184}
	durationUnits = map[string]float64{"": 1, "min": 1, "s": 1.0 / 60, "h": 60}
	rateUnits     = map[string]float64{"": 1, "bpm": 1}
	distanceUnits = map[string]float64{"": 1, "km": 1, "m": 0.001, "mi": 1.609344}
	percentUnits  = map[string]float64{"": 1, "%": 1}
	fieldUnits    = map[csvField]map[string]float64{fWeight: massUnits, fFatMass: massUnits, fLeanMass: massUnits, fBoneMass: massUnits,
		fBodyFat: percentUnits, fCalories: energyUnits, fEnergy: energyUnits, fProtein: macroUnits, fCarbs: macroUnits,
		fFat: macroUnits, fDuration: durationUnits, fAvgHR: rateUnits, fMaxHR: rateUnits, fDistance: distanceUnits}
)

// csvWeightUnits are the units a weight unit column may name, as factors to kg.
var csvWeightUnits = map[string]float64{"kg": 1, "kgs": 1, "kilogram": 1, "kilograms": 1,
	"lb": health.KgPerLb, "lbs": health.KgPerLb, "pound": health.KgPerLb, "pounds": health.KgPerLb,
	"st": health.KgPerStone, "stone": health.KgPerStone}

// required fields per kind: a file without them cannot be read as that kind.
var requiredFields = map[Kind][]csvField{
	KindCSVWeight:    {fTime, fWeight},
	KindCSVMeals:     {fTime, fCalories},
	KindCSVWorkouts:  {fTime, fType, fDuration},
	KindCSVBodyScans: {fTime},
}

// keeps says what an entry of each kind holds, for "not imported" warnings.
var keeps = map[Kind]string{
	KindCSVWeight:    "Hearth keeps weight, body fat and lean mass",
	KindCSVMeals:     "Hearth keeps calories, protein, carbs and fat",
	KindCSVWorkouts:  "Hearth keeps type, title, duration, heart rate, energy and distance",
	KindCSVBodyScans: "Hearth keeps body fat, lean, fat and bone mass and visceral fat",
}

// fieldOf finds the field a header cell names for the parser's kind.
func (p *csvParser) fieldOf(c headerCol) (csvField, bool) {
	f, ok := kindFields[p.kind][c.base]
	if p.kind != KindCSVWeight {
		return f, ok
	}
	// On a weigh-in, "fat" with a mass unit is fat mass and with "%" body fat.
	_, mass := massUnits[c.unit]
	switch {
	case ok && f == fBodyFat && mass && c.unit != "":
		return fFatMass, true
	case ok && f == fFatMass && c.unit == "%":
		return fBodyFat, true
	case !ok && (c.base == "fat" || c.base == "fett" || c.base == "graisse" || c.base == "grasa"):
		if c.unit == "%" || c.unit == "" {
			return fBodyFat, true
		}
		return fFatMass, mass
	}
	return f, ok
}

// mapHeader finds the columns of a header row; unread columns that look
// like measurements are reported, never dropped without a word.
func (p *csvParser) mapHeader(cols []headerCol, line int) error {
	for i := range p.cols {
		p.cols[i] = colRef{idx: -1}
	}
	used := make([]bool, len(cols))
	for i, c := range cols {
		f, ok := p.fieldOf(c)
		if !ok || p.cols[f].idx >= 0 {
			continue
		}
		used[i] = true
		if units, checked := fieldUnits[f]; checked {
			if _, known := units[c.unit]; !known {
				if slices.Contains(requiredFields[p.kind], f) {
					return Problem{Line: line, Message: fmt.Sprintf("column %q: the unit %q is not one Hearth reads", c.raw, c.unit)}
				}
				p.out.warn(Problem{Line: line, Message: fmt.Sprintf("column %q is not imported: the unit %q is not one Hearth reads", c.raw, c.unit)})
				continue
			}
		}
		p.cols[f] = colRef{idx: i, unit: c.unit}
	}
	for _, f := range requiredFields[p.kind] {
		if p.cols[f].idx < 0 {
			return Problem{Line: line, Message: fmt.Sprintf("the header has no %s column (read as %s)", fieldNames[f], p.kind)}
		}
	}
	p.reportUnread(cols, used, line)
	return nil
}

// reportUnread warns once about the measurement columns nobody reads.
func (p *csvParser) reportUnread(cols []headerCol, used []bool, line int) {
	var names []string
	for i, c := range cols {
		if !used[i] && looksLikeQuantity(c) {
			names = append(names, c.raw)
		}
	}
	if len(names) > 0 {
		p.out.warn(Problem{Line: line, Message: fmt.Sprintf("not imported: %s (%s)", quoteList(names), keeps[p.kind])})
	}
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func (p *csvParser) time(s string) (time.Time, string) {
	t, ok := parseCSVTime(s, p.o.loc)
	if !ok {
		return t, fmt.Sprintf("date %q is not a date (use 2024-01-05, 2024-01-05 07:30 or RFC 3339)", s)
	}
	return t, ""
}

var thousands = regexp.MustCompile(`^\d{1,3}(,\d{3})+(\.\d+)?$`)

// number reads a non-negative number. With a ';' or tab delimiter a decimal
// comma ("81,4", "1.234,5") is accepted; with ',' a quoted "1,000.0". Empty
// is 0 unless required.
func (p *csvParser) number(field, s string, required bool) (float64, string) {
	if s == "" {
		if required {
			return 0, field + " is missing"
		}
		return 0, ""
	}
	t := s
	switch {
	case p.decimalComma && strings.Count(t, ",") == 1 && strings.LastIndex(t, ",") > strings.LastIndex(t, "."):
		t = strings.Replace(strings.ReplaceAll(t, ".", ""), ",", ".", 1)
	case p.thousandsComma && thousands.MatchString(t):
		t = strings.ReplaceAll(t, ",", "")
	}
	v, ok := parseNumber(t)
	if !ok {
		return 0, fmt.Sprintf("%s %q is not a number", field, s)
	}
	if v < 0 {
		return 0, fmt.Sprintf("%s %q is negative", field, s)
	}
	return v, ""
}

// measure reads field f in its header's unit, converted to the canonical one.
func (p *csvParser) measure(rec []string, f csvField, required bool) (float64, bool, string) {
	s := strings.TrimSpace(strings.TrimSuffix(p.get(rec, f), "%"))
	if s == "" && !required {
		return 0, false, ""
	}
	v, msg := p.number(fieldNames[f], s, required)
	if msg != "" {
		return 0, false, msg
	}
	if units := fieldUnits[f]; units != nil {
		v *= units[p.cols[f].unit]
	}
	return v, true, ""
}

// weightUnit is the unit of the weight in rec: the header's, else the unit
// column's, else the fallback (reported once).
func (p *csvParser) weightUnit(rec []string) (string, float64, string) {
	if u := p.cols[fWeight].unit; u != "" {
		return u, massUnits[u], ""
	}
	if s := strings.ToLower(p.get(rec, fUnit)); s != "" {
		f, ok := csvWeightUnits[strings.TrimSuffix(s, ".")]
		if !ok {
			return "", 0, fmt.Sprintf("unknown unit %q (want kg or lb)", p.get(rec, fUnit))
		}
		return s, f, ""
	}
	return p.fallbackUnit("weight")
}

// fallbackUnit is the unit for weights (or distances: km or miles) a file
// does not qualify, reported once.
func (p *csvParser) fallbackUnit(what string) (string, float64, string) {
	u := p.o.unit
	if u != health.LB {
		u = health.KG
	}
	if p.unitNoted == nil {
		p.unitNoted = map[string]bool{}
	}
	if !p.unitNoted[what] {
		p.unitNoted[what] = true
		p.res.unit = u
		shown := string(u)
		if what == "distance" {
			shown = map[health.Unit]string{health.KG: "km", health.LB: "miles"}[u]
		}
		p.out.note(fmt.Sprintf("the file does not say its %s unit: read as %s (%s)", what, shown, p.o.unitFrom))
	}
	return string(u), u.ToKg(1), ""
}
