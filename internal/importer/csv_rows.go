package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/health"
)

// csvParser turns rows into records.
type csvParser struct {
	out          emitter
	loc          *time.Location
	kind         Kind
	cols         columns
	decimalComma bool
	lineOffset   int
	k            keyer
	rec          record
}

func (p *csvParser) readProblem(err error) Problem {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return Problem{Line: pe.StartLine + p.lineOffset, Column: pe.Column, Message: "CSV syntax error: " + pe.Err.Error()}
	}
	return Problem{Message: err.Error()}
}

// row parses one data row; a bad row is rejected and parsing goes on.
func (p *csvParser) row(rec []string, line int) error {
	if len(rec) < csvLayouts[p.kind].minCols {
		p.out.reject(string(p.kind), Problem{Line: line, Message: fmt.Sprintf("expected at least %d fields, got %d", csvLayouts[p.kind].minCols, len(rec))})
		return nil
	}
	get := func(f csvField) string {
		if i := p.cols[f]; i >= 0 && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	r := &p.rec
	*r = record{label: string(p.kind), line: line}
	var msg string
	switch p.kind {
	case KindCSVWeight:
		msg = p.weight(r, get)
	case KindCSVMeals:
		msg = p.meal(r, get)
	case KindCSVWorkouts:
		msg = p.workout(r, get)
	case KindCSVBodyScans:
		msg = p.bodyScan(r, get)
	}
	if msg != "" {
		p.out.reject(string(p.kind), Problem{Line: line, Message: msg})
		return nil
	}
	return p.out.emit(r)
}

func (p *csvParser) time(s string) (time.Time, string) {
	t, ok := parseCSVTime(s, p.loc)
	if !ok {
		return t, fmt.Sprintf("date %q is not a date (use 2024-01-05, 2024-01-05 07:30 or RFC 3339)", s)
	}
	return t, ""
}

// number reads a non-negative number; with a ';' or tab delimiter a decimal
// comma ("81,4") is accepted too. Empty is 0 unless required.
func (p *csvParser) number(field, s string, required bool) (float64, string) {
	if s == "" {
		if required {
			return 0, field + " is missing"
		}
		return 0, ""
	}
	t := s
	if p.decimalComma && strings.Count(t, ",") == 1 && !strings.Contains(t, ".") {
		t = strings.Replace(t, ",", ".", 1)
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

func (p *csvParser) weight(r *record, get func(csvField) string) string {
	at, msg := p.time(get(fTime))
	if msg != "" {
		return msg
	}
	raw, unit := get(fWeight), strings.ToLower(get(fUnit))
	switch {
	case p.cols[fWeightKg] >= 0 && raw == "":
		raw, unit = get(fWeightKg), "kg"
	case p.cols[fWeightLb] >= 0 && raw == "":
		raw, unit = get(fWeightLb), "lb"
	}
	v, msg := p.number("weight", raw, true)
	if msg != "" {
		return msg
	}
	if unit == "" {
		return "unit is missing (kg or lb)"
	}
	f, ok := csvWeightUnits[unit]
	if !ok {
		return fmt.Sprintf("unknown unit %q (want kg or lb)", get(fUnit))
	}
	kg := v * f
	if kg <= 0 || kg > 700 {
		return fmt.Sprintf("weight %s %s is out of range", raw, unit)
	}
	r.kind, r.weight = recWeight, health.WeightReading{MeasuredAt: at, WeightKg: kg}
	if s := strings.TrimSpace(strings.TrimSuffix(get(fBodyFat), "%")); s != "" {
		bf, msg := p.number("body_fat", s, true)
		if msg != "" {
			return msg
		}
		if bf > 100 {
			return fmt.Sprintf("body_fat %s is over 100%%", s)
		}
		r.weight.BodyFatPct = &bf
	}
	k := p.k.reset(string(p.kind)).time(at).num(kg).optNum(r.weight.BodyFatPct)
	if s := get(fLeanMass); s != "" {
		lm, msg := p.number("lean_mass_kg", s, true)
		if msg != "" {
			return msg
		}
		r.weight.LeanMassKg = &lm
		k.optNum(&lm) // only then: files without the column keep their keys
	}
	r.key = k.sum()
	return ""
}

func (p *csvParser) meal(r *record, get func(csvField) string) string {
	at, msg := p.time(get(fTime))
	if msg != "" {
		return msg
	}
	m := health.Meal{EatenAt: at, Name: truncate(unneutralize(get(fName)), 200)}
	if m.Name == "" {
		m.Name = "Meal"
	}
	for _, x := range []struct {
		name     string
		f        csvField
		dst      *float64
		required bool
	}{{"calories", fCalories, &m.Calories, true}, {"protein", fProtein, &m.ProteinG, false},
		{"carbs", fCarbs, &m.CarbsG, false}, {"fat", fFat, &m.FatG, false}} {
		if *x.dst, msg = p.number(x.name, get(x.f), x.required); msg != "" {
			return msg
		}
	}
	r.kind, r.meal = recMeal, m
	r.key = p.k.reset(string(p.kind)).time(at).str(m.Name).num(m.Calories).num(m.ProteinG).num(m.CarbsG).num(m.FatG).sum()
	return ""
}

func (p *csvParser) workout(r *record, get func(csvField) string) string {
	at, msg := p.time(get(fTime))
	if msg != "" {
		return msg
	}
	typ := strings.ToLower(get(fType))
	if typ == "" {
		return "type is missing"
	}
	if len(typ) > 40 {
		return fmt.Sprintf("type %q is longer than 40 characters", typ)
	}
	w := health.Workout{StartedAt: at, Type: typ, Title: truncate(unneutralize(get(fTitle)), 120), ContentID: get(fContent)}
	if w.Title == "" {
		w.Title = capitalize(typ)
	}
	if w.DurationMin, msg = p.number("duration_min", get(fDuration), true); msg != "" {
		return msg
	}
	if w.DurationMin > 7*24*60 {
		return fmt.Sprintf("duration_min %s is more than a week", get(fDuration))
	}
	for _, x := range []struct {
		name string
		f    csvField
		dst  **int
	}{{"avg_hr", fAvgHR, &w.AvgHR}, {"max_hr", fMaxHR, &w.MaxHR}} {
		s := get(x.f)
		if s == "" {
			continue
		}
		v, msg := p.number(x.name, s, true)
		if msg != "" {
			return msg
		}
		if v < 30 || v > 250 {
			return fmt.Sprintf("%s %s is not between 30 and 250 bpm", x.name, s)
		}
		bpm := int(math.Round(v))
		*x.dst = &bpm
	}
	if s := get(fEnergy); s != "" {
		kcal, msg := p.number("energy_kcal", s, true)
		if msg != "" {
			return msg
		}
		w.EnergyKcal = &kcal
	}
	r.kind, r.workout = recWorkout, w
	k := p.k.reset(string(p.kind)).time(at).str(typ).str(w.Title).num(w.DurationMin)
	for _, v := range []*int{w.AvgHR, w.MaxHR} {
		if v == nil {
			k.str("")
		} else {
			k.num(float64(*v))
		}
	}
	k.optNum(w.EnergyKcal)
	if w.ContentID != "" {
		k.str(w.ContentID)
	}
	r.key = k.sum()
	return ""
}

// unneutralize undoes the apostrophe Hearth's export puts before a cell
// that starts with =, +, - or @ (so spreadsheets do not run it as a
// formula): the text re-imports as it was.
func unneutralize(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune("=+-@", rune(s[1])) {
		return s[1:]
	}
	return s
}

func (p *csvParser) bodyScan(r *record, get func(csvField) string) string {
	at, msg := p.time(get(fTime))
	if msg != "" {
		return msg
	}
	sc := health.BodyScan{ScannedAt: at}
	if sc.BodyFatPct, msg = p.number("body_fat_pct", strings.TrimSuffix(get(fBodyFat), "%"), true); msg != "" {
		return msg
	}
	if sc.BodyFatPct > 100 {
		return fmt.Sprintf("body_fat_pct %s is over 100%%", get(fBodyFat))
	}
	if sc.LeanMassKg, msg = p.number("lean_mass_kg", get(fLeanMass), true); msg != "" {
		return msg
	}
	k := p.k.reset(string(p.kind)).time(at).num(sc.BodyFatPct).num(sc.LeanMassKg)
	for _, x := range []struct {
		name string
		f    csvField
		dst  **float64
	}{{"fat_mass_kg", fFatMass, &sc.FatMassKg}, {"bone_mass_kg", fBoneMass, &sc.BoneMassKg}, {"visceral_fat", fVisceral, &sc.VisceralFat}} {
		if s := get(x.f); s != "" {
			v, msg := p.number(x.name, s, true)
			if msg != "" {
				return msg
			}
			*x.dst = &v
		}
		k.optNum(*x.dst)
	}
	r.kind, r.scan, r.key = recBodyScan, sc, k.sum()
	return ""
}
