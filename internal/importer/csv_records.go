package importer

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/health"
	"hearth/internal/store"
)

// The row readers below turn one data row of the parser's kind into its
// record (weigh-in, meal, workout, body scan), or say why it is rejected.
// They live apart from the parser's row loop, header mapping and value
// reading (csv_rows.go) because they are what changes when a kind does.

// weight reads a weigh-in row, with its body composition when the file has it.
func (p *csvParser) weight(rec []string) string {
	at, msg := p.time(p.get(rec, fTime))
	if msg != "" {
		return msg
	}
	unit, factor, msg := p.weightUnit(rec)
	if msg != "" {
		return msg
	}
	raw := p.get(rec, fWeight)
	v, msg := p.number("weight", raw, true)
	if msg != "" {
		return msg
	}
	kg := v * factor
	if kg <= 0 || kg > 700 {
		return fmt.Sprintf("weight %s %s is out of range", raw, unit)
	}
	w := health.WeightReading{MeasuredAt: at, WeightKg: kg}
	if bf, ok, msg := p.measure(rec, fBodyFat, false); msg != "" {
		return msg
	} else if ok {
		w.BodyFatPct = &bf
	}
	if p.cols[fFatMass].idx >= 0 || p.cols[fLeanMass].idx >= 0 {
		if msg := p.composition(rec, &w, factor); msg != "" {
			return msg
		}
	}
	if w.BodyFatPct != nil && *w.BodyFatPct > 100 {
		return fmt.Sprintf("body fat %v%% is over 100%%", *w.BodyFatPct)
	}
	p.rec.kind, p.rec.weight = recWeight, w
	p.rec.key = "w|" + store.FormatTime(at)
	p.rec.ckey = p.k.reset("w").num(kg).optNum(w.BodyFatPct).optNum(w.LeanMassKg).sum()
	return ""
}

// composition reads fat mass and lean mass (in their header's unit, else
// the weight's): body fat % = fat mass / weight, and fat-free mass is
// weight − fat mass when the file has no lean column.
func (p *csvParser) composition(rec []string, w *health.WeightReading, weightFactor float64) string {
	read := func(f csvField) (*float64, string) {
		s := p.get(rec, f)
		if s == "" {
			return nil, ""
		}
		v, msg := p.number(fieldNames[f], s, true)
		if msg != "" {
			return nil, msg
		}
		if u := p.cols[f].unit; u != "" {
			v *= massUnits[u]
		} else {
			v *= weightFactor
		}
		return &v, ""
	}
	fat, msg := read(fFatMass)
	if msg != "" {
		return msg
	}
	lean, msg := read(fLeanMass)
	if msg != "" {
		return msg
	}
	if fat != nil {
		if *fat > w.WeightKg {
			return fmt.Sprintf("fat mass %s is more than the weight", p.get(rec, fFatMass))
		}
		if w.BodyFatPct == nil {
			pct := *fat / w.WeightKg * 100
			w.BodyFatPct = &pct
		}
		if lean == nil {
			l := w.WeightKg - *fat
			lean = &l
		}
	}
	if lean != nil && (*lean <= 0 || *lean > w.WeightKg) {
		return fmt.Sprintf("lean mass %s is not between 0 and the weight", p.get(rec, fLeanMass))
	}
	w.LeanMassKg = lean
	return ""
}

// mealKey is a meal's natural key: its household-local date and name.
func (p *csvParser) mealKey(at time.Time, name string) string {
	return "m|" + at.In(p.o.loc).Format(time.DateOnly) + "|" + strings.ToLower(name)
}

func (p *csvParser) meal(rec []string) string {
	at, msg := p.time(p.get(rec, fTime))
	if msg != "" {
		return msg
	}
	m := health.Meal{EatenAt: at, Name: p.clean(p.get(rec, fName), 200)}
	if m.Name == "" && !p.own {
		m.Name = "Meal"
	}
	if msg := p.macros(rec, &m); msg != "" {
		return msg
	}
	p.rec.kind, p.rec.meal = recMeal, m
	p.rec.key = p.mealKey(at, m.Name)
	p.rec.ckey = p.k.reset("m").time(at).str(m.Name).num(m.Calories).num(m.ProteinG).num(m.CarbsG).num(m.FatG).sum()
	return ""
}

// macros reads calories and the three macros in their header's units.
func (p *csvParser) macros(rec []string, m *health.Meal) string {
	for _, x := range []struct {
		f        csvField
		dst      *float64
		required bool
	}{{fCalories, &m.Calories, true}, {fProtein, &m.ProteinG, false}, {fCarbs, &m.CarbsG, false}, {fFat, &m.FatG, false}} {
		v, _, msg := p.measure(rec, x.f, x.required)
		if msg != "" {
			return msg
		}
		*x.dst = v
	}
	return ""
}

func (p *csvParser) workout(rec []string) string {
	at, msg := p.time(p.get(rec, fTime))
	if msg != "" {
		return msg
	}
	typ := workoutSlug(p.clean(p.get(rec, fType), 200))
	if typ == "" {
		return "type is missing"
	}
	w := health.Workout{StartedAt: at, Type: typ, Title: p.clean(p.get(rec, fTitle), 120), ContentID: p.clean(p.get(rec, fContent), 200)}
	if w.Title == "" && !p.own { // Hearth's own rows keep an empty title
		w.Title = capitalize(strings.ReplaceAll(typ, "_", " "))
	}
	raw := p.get(rec, fDuration)
	minutes, ok := parseDuration(raw, p.cols[fDuration].unit)
	if !ok {
		return fmt.Sprintf("duration %q is not a duration (minutes, or forms like 45m, 1h 3m, 01:05:00)", raw)
	}
	if minutes > 7*24*60 {
		return fmt.Sprintf("duration %s is more than a week", raw)
	}
	w.DurationMin = minutes
	for _, x := range []struct {
		f   csvField
		dst **int
	}{{fAvgHR, &w.AvgHR}, {fMaxHR, &w.MaxHR}} {
		v, ok, msg := p.measure(rec, x.f, false)
		if msg != "" {
			return msg
		}
		if !ok {
			continue
		}
		if v < 30 || v > 250 {
			return fmt.Sprintf("%s %s is not between 30 and 250 bpm", fieldNames[x.f], p.get(rec, x.f))
		}
		bpm := int(math.Round(v))
		*x.dst = &bpm
	}
	if kcal, ok, msg := p.measure(rec, fEnergy, false); msg != "" {
		return msg
	} else if ok {
		w.EnergyKcal = &kcal
	}
	if km, ok, msg := p.measure(rec, fDistance, false); msg != "" {
		return msg
	} else if ok && km > 0 {
		if km > 10000 {
			return fmt.Sprintf("distance %s is out of range", p.get(rec, fDistance))
		}
		w.DistanceKm = &km
	}
	p.setWorkout(w)
	return ""
}

// setWorkout makes w the row's record, keyed by start and type.
func (p *csvParser) setWorkout(w health.Workout) {
	p.rec.kind, p.rec.workout = recWorkout, w
	p.rec.key = "wo|" + store.FormatTime(w.StartedAt) + "|" + w.Type
	k := p.k.reset("wo").str(w.Title).num(w.DurationMin)
	for _, v := range []*int{w.AvgHR, w.MaxHR} {
		if v == nil {
			k.str("")
		} else {
			k.num(float64(*v))
		}
	}
	p.rec.ckey = k.optNum(w.EnergyKcal).optNum(w.DistanceKm).str(w.ContentID).sum()
}

// bodyScan reads a row of Hearth's own body-scan export: kept as it is,
// keyed by its values (a re-import adds nothing).
func (p *csvParser) bodyScan(rec []string) string {
	at, msg := p.time(p.get(rec, fTime))
	if msg != "" {
		return msg
	}
	sc := health.BodyScan{ScannedAt: at}
	for _, x := range []struct {
		f   csvField
		dst **float64
	}{{fBodyFat, &sc.BodyFatPct}, {fLeanMass, &sc.LeanMassKg}, {fFatMass, &sc.FatMassKg}, {fBoneMass, &sc.BoneMassKg},
		{fVisceral, &sc.VisceralFat}} {
		v, ok, msg := p.measure(rec, x.f, false)
		if msg != "" {
			return msg
		}
		if ok {
			*x.dst = &v
		}
	}
	switch {
	case sc.BodyFatPct == nil && sc.LeanMassKg == nil:
		return "body fat and lean mass are both missing"
	case sc.BodyFatPct != nil && *sc.BodyFatPct > 100:
		return fmt.Sprintf("body fat %s is over 100%%", p.get(rec, fBodyFat))
	case sc.LeanMassKg != nil && (*sc.LeanMassKg <= 0 || *sc.LeanMassKg > 700):
		return fmt.Sprintf("lean mass %s is out of range", p.get(rec, fLeanMass))
	}
	p.rec.kind, p.rec.scan = recBodyScan, sc
	p.rec.key = p.k.reset(string(KindCSVBodyScans)).time(at).optNum(sc.BodyFatPct).optNum(sc.LeanMassKg).
		optNum(sc.FatMassKg).optNum(sc.BoneMassKg).optNum(sc.VisceralFat).sum()
	return ""
}

// workoutSlug turns a free-text activity into a workout type: lower case,
// words joined by "_", at most 40 bytes ("Indoor Cycling" → "indoor_cycling").
func workoutSlug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(truncate(strings.TrimRight(b.String(), "_"), 40), "_")
}

// capitalize upper-cases the first letter: "running" → "Running".
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

var durationPart = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*(h|hr|hrs|hours?|m|min|mins|minutes?|s|sec|secs|seconds?)$`)

// parseDuration reads a duration as minutes: a number in unit (minutes by
// default), "1h 3m", "31m", "38min", "45s", or "1:05:00".
func parseDuration(s, unit string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if v, ok := parseNumber(s); ok {
		if v < 0 {
			return 0, false
		}
		return v * durationUnits[unit], true
	}
	if parts := strings.Split(s, ":"); len(parts) == 3 {
		var total float64
		for i, x := range parts {
			n, err := strconv.ParseFloat(x, 64)
			if err != nil || n < 0 || (i > 0 && n >= 60) {
				return 0, false
			}
			total = total*60 + n
		}
		return total / 60, true
	}
	var total float64
	fields := strings.Fields(strings.ToLower(s))
	// "1h 3m" and "1 h 3 m": join a number with the unit after it.
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if _, err := strconv.ParseFloat(f, 64); err == nil && i+1 < len(fields) {
			f += fields[i+1]
			i++
		}
		m := durationPart.FindStringSubmatch(f)
		if m == nil {
			return 0, false
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		switch m[2][0] {
		case 'h':
			total += n * 60
		case 'm':
			total += n
		case 's':
			total += n / 60
		}
	}
	return total, true
}
