package importer

import (
	"encoding/xml"
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/internal/text"
)

// appleWorkout is the Workout element being read.
type appleWorkout struct {
	active, bad bool
	depth, line int
	w           health.Workout
	endedAt     time.Time
	sourceName  string
	statsEnergy *float64
	statsKm     *float64
}

func (p *appleParser) startWorkout(t xml.StartElement) {
	var activity, dur, durUnit, energy, energyUnit, dist, distUnit, start, end string
	p.wk = appleWorkout{active: true, depth: p.depth, line: p.line()}
	for _, a := range t.Attr {
		switch a.Name.Local {
		case "workoutActivityType":
			activity = a.Value
		case "duration":
			dur = a.Value
		case "durationUnit":
			durUnit = a.Value
		case "totalEnergyBurned":
			energy = a.Value
		case "totalEnergyBurnedUnit":
			energyUnit = a.Value
		case "totalDistance":
			dist = a.Value
		case "totalDistanceUnit":
			distUnit = a.Value
		case "startDate":
			start = a.Value
		case "endDate":
			end = a.Value
		case "sourceName":
			p.wk.sourceName = a.Value
		}
	}
	fail := func(format string, args ...any) {
		p.wk.bad = true
		p.reject("Workout", "Workout", format, args...)
	}
	typ, title := workoutType(activity)
	title, n := text.Clean(text.Line, title)
	p.dropped += n
	if typ == "" {
		fail("workoutActivityType %q is not a workout type", activity)
		return
	}
	st, _, ok := parseAppleTime(start)
	if !ok {
		fail("startDate %q is not a time like 2024-01-05 07:31:12 -0800", start)
		return
	}
	en, _, ok := parseAppleTime(end)
	if !ok {
		fail("endDate %q is not a time like 2024-01-05 07:31:12 -0800", end)
		return
	}
	if en.Before(st) {
		fail("endDate is before startDate")
		return
	}
	minutes := en.Sub(st).Minutes()
	if dur != "" {
		v, ok := parseNumber(dur)
		if !ok {
			fail("duration %q is not a number", dur)
			return
		}
		if durUnit == "" {
			durUnit = "min"
		}
		f, ok := timeToMin[durUnit]
		if !ok {
			fail("unknown durationUnit %q", durUnit)
			return
		}
		minutes = v * f
	}
	if minutes < 0 || minutes > 7*24*60 {
		fail("duration %v minutes is out of range", minutes)
		return
	}
	p.wk.w = health.Workout{StartedAt: st, Type: typ, Title: title, DurationMin: minutes}
	p.wk.endedAt = en
	if energy != "" {
		kcal, err := appleEnergy(energy, energyUnit)
		if err != "" {
			fail("totalEnergyBurned: %s", err)
			return
		}
		p.wk.w.EnergyKcal = &kcal
	}
	if dist != "" {
		km, err := appleDistance(dist, distUnit)
		if err != "" {
			fail("totalDistance: %s", err)
			return
		}
		if km > 0 {
			p.wk.w.DistanceKm = &km
		}
	}
}

// appleDistance converts a workout distance to km.
func appleDistance(value, unit string) (float64, string) {
	v, ok := parseNumber(value)
	if !ok || v < 0 {
		return 0, fmt.Sprintf("%q is not a non-negative number", value)
	}
	f, ok := lengthToKm[unit]
	if !ok {
		return 0, fmt.Sprintf("unknown unit %q", unit)
	}
	if km := v * f; km <= 10000 {
		return km, ""
	}
	return 0, fmt.Sprintf("%v %s is out of range", v, unit)
}

func appleEnergy(value, unit string) (float64, string) {
	v, ok := parseNumber(value)
	if !ok || v < 0 {
		return 0, fmt.Sprintf("%q is not a non-negative number", value)
	}
	if unit == "" {
		unit = "kcal"
	}
	f, ok := energyToKcal[unit]
	if !ok {
		return 0, fmt.Sprintf("unknown unit %q", unit)
	}
	return v * f, ""
}

// workoutStats reads the heart-rate and energy statistics newer exports nest
// inside a Workout.
func (p *appleParser) workoutStats(t xml.StartElement) {
	if p.wk.bad {
		return
	}
	var typ, avg, mx, sum, unit string
	for _, a := range t.Attr {
		switch a.Name.Local {
		case "type":
			typ = a.Value
		case "average":
			avg = a.Value
		case "maximum":
			mx = a.Value
		case "sum":
			sum = a.Value
		case "unit":
			unit = a.Value
		}
	}
	fail := func(format string, args ...any) {
		p.wk.bad = true
		p.reject("Workout", "WorkoutStatistics "+typ, format, args...)
	}
	switch typ {
	case "HKQuantityTypeIdentifierHeartRate":
		if unit == "" {
			unit = "count/min"
		}
		f, ok := rateToPerMin[unit]
		if !ok {
			fail("unknown unit %q", unit)
			return
		}
		for _, x := range []struct {
			s   string
			dst **int
		}{{avg, &p.wk.w.AvgHR}, {mx, &p.wk.w.MaxHR}} {
			if x.s == "" {
				continue
			}
			v, ok := parseNumber(x.s)
			if !ok || v < 0 || v*f > 400 {
				fail("heart rate %q is not a number of beats per minute", x.s)
				return
			}
			if bpm := int(math.Round(v * f)); bpm > 0 {
				*x.dst = &bpm
			}
		}
	case "HKQuantityTypeIdentifierActiveEnergyBurned":
		if sum == "" {
			return
		}
		kcal, err := appleEnergy(sum, unit)
		if err != "" {
			fail("sum: %s", err)
			return
		}
		p.wk.statsEnergy = &kcal
	default:
		// DistanceWalkingRunning, DistanceCycling, DistanceSwimming, …: newer
		// exports carry the distance only here.
		if !strings.HasPrefix(typ, "HKQuantityTypeIdentifierDistance") || sum == "" {
			return
		}
		km, err := appleDistance(sum, unit)
		if err != "" {
			fail("sum: %s", err)
			return
		}
		if km > 0 {
			p.wk.statsKm = &km
		}
	}
}

func (p *appleParser) endWorkout() error {
	wk := &p.wk
	wk.active = false
	if wk.bad {
		return nil
	}
	if wk.w.EnergyKcal == nil {
		wk.w.EnergyKcal = wk.statsEnergy
	}
	if wk.w.DistanceKm == nil {
		wk.w.DistanceKm = wk.statsKm
	}
	r := &p.rec
	*r = record{kind: recWorkout, label: "Workout", line: wk.line, workout: wk.w,
		key: p.k.reset("Workout").str(wk.w.Type).time(wk.w.StartedAt).time(wk.endedAt).str(wk.sourceName).sum()}
	return p.out.emit(r)
}
