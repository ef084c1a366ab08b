package importer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/health"
)

// csvProfile is an app's export, recognised from its header. The formats
// and their sources are in testdata/README.md; each has a fixture there.
type csvProfile struct {
	name   string
	kind   Kind
	merge  mergeMode
	detect func(cols []headerCol, has map[string]bool) bool
	// setup maps the columns (default: the kind's generic mapping).
	setup func(p *csvParser, cols []headerCol, line int) error
	// row parses a data row (default: the kind's generic row).
	row func(p *csvParser, rec []string, line int) string
	// done adds the profile's notes after the last row.
	done func(p *csvParser)
}

// csvProfiles are tried in order before a file is read as a generic CSV:
// Hearth's own export (csv_own.go), then the apps.
var csvProfiles = slices.Concat(hearthProfiles, appProfiles)

// appProfiles are the apps' exports. Workout apps come first: their files
// have a "Weight" column that holds set loads, which must never be read as
// body weight.
var appProfiles = []*csvProfile{
	{name: "Strong", kind: KindCSVWorkouts, merge: mergeSession,
		detect: func(_ []headerCol, has map[string]bool) bool {
			return has["workout_name"] && has["exercise_name"] && has["set_order"]
		},
		setup: strongSetup, row: strongRow, done: sessionsDone},
	{name: "Hevy", kind: KindCSVWorkouts, merge: mergeSession,
		detect: func(_ []headerCol, has map[string]bool) bool {
			return has["title"] && has["start_time"] && has["exercise_title"]
		},
		setup: hevySetup, row: hevyRow, done: sessionsDone},
	{name: "MyFitnessPal Nutrition-Summary", kind: KindCSVMeals, merge: mergeSum,
		detect: func(_ []headerCol, has map[string]bool) bool {
			return has["meal"] && has["calories"] && (has["sodium"] || has["saturated_fat"] || has["cholesterol"] || has["sugar"])
		},
		setup: mfpNutritionSetup, row: mfpNutritionRow},
	{name: "MyFitnessPal Exercise-Summary", kind: KindCSVWorkouts, merge: mergeSum,
		detect: func(_ []headerCol, has map[string]bool) bool {
			return has["exercise"] && has["exercise_calories"] && has["type"] // "Exercise Minutes" reads as {exercise, min}
		},
		setup: mfpExerciseSetup, row: mfpExerciseRow, done: mfpExerciseDone},
	{name: "MyFitnessPal Measurement-Summary", kind: KindCSVWeight, merge: mergeLast,
		detect: func(cols []headerCol, _ map[string]bool) bool {
			return len(cols) >= 2 && cols[0].raw == "Date" && cols[1].raw == "Weight"
		}},
	{name: "Withings weight.csv", kind: KindCSVWeight, merge: mergeLast,
		detect: func(cols []headerCol, has map[string]bool) bool {
			weight := false
			for _, c := range cols {
				weight = weight || (c.unit != "" && (c.base == "weight" || c.base == "gewicht" || c.base == "poids" || c.base == "peso"))
			}
			return weight && (has["fat_mass"] || has["fettmasse"] || has["masse_grasse"] || has["bone_mass"] ||
				has["muscle_mass"] || has["hydration"] || has["fettfreier_anteil"] || has["knochenmasse"] || has["muskelmasse"])
		}},
}

// profileCols finds a profile's own columns by their normalised names
// (base and unit: "exercise_min", "duration_s", "distance_km"), and
// remembers each one's unit.
func (p *csvParser) profileCols(cols []headerCol, names ...string) []bool {
	p.extra, p.extraUnits = map[string]int{}, map[string]string{}
	used := make([]bool, len(cols))
	for i, c := range cols {
		n := normalizeHeader(c.raw)
		for _, want := range names {
			if n == want {
				if _, dup := p.extra[n]; !dup {
					p.extra[n], p.extraUnits[n] = i, c.unit
					used[i] = true
				}
			}
		}
	}
	return used
}

func (p *csvParser) col(name string) int {
	if i, ok := p.extra[name]; ok {
		return i
	}
	return -1
}

// alias makes the first of names that the header has available as name.
func (p *csvParser) alias(name string, names ...string) {
	for _, n := range names {
		if i := p.col(n); i >= 0 {
			p.extra[name], p.extraUnits[name] = i, p.extraUnits[n]
			return
		}
	}
}

// --- MyFitnessPal ---

// mfpNutritionSetup maps Date, Meal, Calories, Fat (g), Carbohydrates (g)
// and Protein (g). With a Time column the file has one row per food entry
// (rows of a meal are summed, even identical ones); without, one row per
// meal and day.
func mfpNutritionSetup(p *csvParser, cols []headerCol, line int) error {
	if err := p.mapHeader(cols, line); err != nil {
		return err
	}
	for _, c := range cols {
		if c.base == "time" {
			p.extra = map[string]int{"time": 1}
			p.out.note("one row per food entry: the rows of each meal and day are added up")
		}
	}
	return nil
}

// mfpMealTimes place MyFitnessPal's day-level meals at a household time.
var mfpMealTimes = map[string][2]int{"breakfast": {8, 0}, "lunch": {12, 30}, "dinner": {19, 0}, "snacks": {15, 30}, "snack": {15, 30}}

func mfpNutritionRow(p *csvParser, rec []string, line int) string {
	day, err := time.ParseInLocation(time.DateOnly, p.get(rec, fTime), p.o.loc)
	if _, ok := recordTime(day); err != nil || !ok {
		return fmt.Sprintf("date %q is not a date like 2024-01-05", p.get(rec, fTime))
	}
	name := p.clean(p.get(rec, fName), 200)
	if name == "" {
		return "the meal name is missing"
	}
	hm, ok := mfpMealTimes[strings.ToLower(name)]
	if !ok {
		hm = [2]int{12, 0} // a meal the member named
	}
	at := time.Date(day.Year(), day.Month(), day.Day(), hm[0], hm[1], 0, 0, p.o.loc).UTC()
	m := health.Meal{EatenAt: at, Name: name}
	if msg := p.macros(rec, &m); msg != "" {
		return msg
	}
	p.rec.kind, p.rec.meal = recMeal, m
	p.rec.key = p.mealKey(at, name)
	k := p.k.reset("m").str(name).num(m.Calories).num(m.ProteinG).num(m.CarbsG).num(m.FatG)
	if p.col("time") >= 0 {
		k.num(float64(line)) // food entries: identical rows are two portions
	}
	p.rec.ckey = k.sum()
	return ""
}

func mfpExerciseSetup(p *csvParser, cols []headerCol, line int) error {
	used := p.profileCols(cols, "date", "exercise", "type", "exercise_calories", "exercise_min")
	if p.col("date") < 0 {
		return Problem{Line: line, Message: "the header has no Date column"}
	}
	p.reportUnread(cols, used, line)
	return nil
}

func mfpExerciseRow(p *csvParser, rec []string, line int) string {
	at, msg := p.time(cell(rec, p.col("date")))
	if msg != "" {
		return msg
	}
	// Newer exports wrap the name in a literal pair of quotes.
	name := p.clean(cell(rec, p.col("exercise")), 200)
	if len(name) >= 2 && strings.HasPrefix(name, `"`) && strings.HasSuffix(name, `"`) {
		name = strings.TrimSpace(name[1 : len(name)-1])
	}
	if strings.Contains(strings.ToLower(name), "calorie adjustment") {
		p.count("adjustment") // a tracker's daily calorie top-up, not a workout
		return skipRow
	}
	first, _, _ := strings.Cut(name, ",")
	typ := workoutSlug(first)
	if typ == "" {
		typ = workoutSlug(cell(rec, p.col("type")))
	}
	if typ == "" {
		return "the exercise name is missing"
	}
	w := health.Workout{StartedAt: at, Type: typ, Title: truncate(name, 120)}
	if w.DurationMin, msg = p.number("exercise minutes", cell(rec, p.col("exercise_min")), false); msg != "" {
		return msg
	}
	if w.DurationMin > 24*60 {
		return fmt.Sprintf("exercise minutes %s is more than a day", cell(rec, p.col("exercise_min")))
	}
	if s := cell(rec, p.col("exercise_calories")); s != "" {
		kcal, msg := p.number("exercise calories", s, true)
		if msg != "" {
			return msg
		}
		w.EnergyKcal = &kcal
	}
	p.setWorkout(w)
	return ""
}

func mfpExerciseDone(p *csvParser) {
	if n := p.counts["adjustment"]; n > 0 {
		p.out.note(fmt.Sprintf("%d calorie-adjustment rows are not workouts and were skipped", n))
	}
}

// --- Strong and Hevy: one row per set ---

const setsNotKept = "set loads, reps, RPE and notes are not imported: Hearth keeps one entry per workout (its duration and distance)"

// strongSetup finds the columns of the Strong dialects: Duration ("1h 3m"),
// Workout Duration, or Duration (sec); Distance with a Distance Unit column,
// in its header's unit, or bare (then in the import's unit system).
func strongSetup(p *csvParser, cols []headerCol, line int) error {
	p.profileCols(cols, "date", "workout_name", "duration", "workout_duration", "duration_s", "set_order",
		"distance", "distance_m", "distance_km", "distance_mi", "distance_unit")
	if p.col("date") < 0 {
		return Problem{Line: line, Message: "the header has no Date column"}
	}
	p.alias("dur", "duration", "workout_duration", "duration_s")
	p.alias("dist", "distance", "distance_m", "distance_km", "distance_mi")
	if p.col("dur") < 0 {
		p.out.warn(Problem{Line: line, Message: "this Strong export has no duration column: its workouts are stored with 0 minutes"})
	}
	p.out.warn(Problem{Line: line, Message: setsNotKept})
	return nil
}

func strongRow(p *csvParser, rec []string, line int) string {
	at, msg := p.time(cell(rec, p.col("date")))
	if msg != "" {
		return msg
	}
	w := health.Workout{StartedAt: at, Type: "strength", Title: p.clean(cell(rec, p.col("workout_name")), 120)}
	if w.Title == "" {
		w.Title = "Strength"
	}
	runaway := ""
	if s := cell(rec, p.col("dur")); s != "" {
		minutes, ok := parseDuration(s, p.extraUnits["dur"])
		switch {
		case !ok:
			return fmt.Sprintf("duration %q is not a duration like 45m or 1h 3m", s)
		case minutes > 24*60: // seen in real exports ("264h 1m"): a timer left running
			runaway = strconv.Quote(s)
		default:
			w.DurationMin = minutes
		}
	}
	order := strings.ToLower(cell(rec, p.col("set_order")))
	if order == "rest timer" || order == "note" {
		p.count("pseudo") // not a set; the session still counts
	} else {
		p.count("sets")
		km, msg := p.setDistance(cell(rec, p.col("dist")), p.extraUnits["dist"], cell(rec, p.col("distance_unit")))
		if msg != "" {
			return msg
		}
		w.DistanceKm = km
	}
	p.setWorkout(w)
	if runaway != "" {
		p.correctSession(durationOverADay, line, runaway)
	}
	p.rec.ckey = p.k.reset(p.rec.ckey).num(float64(line)).sum() // every set counts, identical or not
	return ""
}

// Corrections of a session's duration (every set row repeats it).
const (
	durationOverADay     = "duration over a day is not believable (a timer left running?): the workout is stored with 0 minutes"
	endBeforeStart       = "end_time is before start_time: the workout is stored with 0 minutes"
	endMoreThanADayLater = "end_time is more than a day after start_time: the workout is stored with 0 minutes"
)

// correctSession reports a correction once per workout (at its first row),
// however many set rows repeat the value.
func (p *csvParser) correctSession(what string, line int, value string) {
	if p.corrected == nil {
		p.corrected = map[string]bool{}
	}
	if !p.corrected[p.rec.key] {
		p.corrected[p.rec.key] = true
		p.out.correct(what, line, value)
	}
}

// setDistance reads a set's distance: in the header's unit, else the row's
// unit column ("mi.", "km"), else the import's unit system (km for kg, miles
// for lb). Nil for none.
func (p *csvParser) setDistance(s, headerUnit, rowUnit string) (*float64, string) {
	if s == "" {
		return nil, ""
	}
	v, msg := p.number("distance", s, true)
	if msg != "" || v == 0 {
		return nil, msg
	}
	unit := headerUnit
	if unit == "" {
		unit = unitWords[strings.TrimSuffix(strings.ToLower(rowUnit), ".")]
	}
	if unit == "" {
		if u, _, _ := p.fallbackUnit("distance"); u == string(health.LB) {
			unit = "mi"
		} else {
			unit = "km"
		}
	}
	f, ok := distanceUnits[unit]
	if !ok {
		return nil, fmt.Sprintf("distance unit %q is not one Hearth reads", unit)
	}
	km := v * f
	if km > 10000 {
		return nil, fmt.Sprintf("distance %s is out of range", s)
	}
	return &km, ""
}

func hevySetup(p *csvParser, cols []headerCol, line int) error {
	p.profileCols(cols, "title", "start_time", "end_time", "distance_km", "distance_mi", "distance")
	p.alias("dist", "distance_km", "distance_mi", "distance")
	if p.col("dist") >= 0 && p.extraUnits["dist"] == "" {
		return Problem{Line: line, Message: "the distance column does not say its unit (distance_km or distance_miles)"}
	}
	p.out.warn(Problem{Line: line, Message: setsNotKept})
	return nil
}

// hevyTimeLayouts are Hevy's start_time forms: "30 Jun 2025, 19:56" (day
// zero-padded or not), local time without an offset.
var hevyTimeLayouts = []string{"2 Jan 2006, 15:04", "2 Jan 2006 15:04", "Jan 2, 2006, 15:04"}

func (p *csvParser) hevyTime(s string) (time.Time, bool) {
	for _, l := range hevyTimeLayouts {
		if t, err := time.ParseInLocation(l, s, p.o.loc); err == nil {
			return recordTime(t)
		}
	}
	return parseCSVTime(s, p.o.loc)
}

func hevyRow(p *csvParser, rec []string, line int) string {
	start, end := cell(rec, p.col("start_time")), cell(rec, p.col("end_time"))
	at, ok := p.hevyTime(start)
	if !ok {
		return fmt.Sprintf("start_time %q is not a time like 30 Jun 2025, 19:56", start)
	}
	w := health.Workout{StartedAt: at, Type: "strength", Title: p.clean(cell(rec, p.col("title")), 120)}
	if w.Title == "" {
		w.Title = "Strength"
	}
	fix := ""
	if end != "" {
		e, ok := p.hevyTime(end)
		if !ok {
			return fmt.Sprintf("end_time %q is not a time like 30 Jun 2025, 20:58", end)
		}
		switch d := e.Sub(at).Minutes(); {
		case d < 0:
			fix = endBeforeStart
		case d > 24*60:
			fix = endMoreThanADayLater
		default:
			w.DurationMin = d
		}
	}
	p.count("sets")
	km, msg := p.setDistance(cell(rec, p.col("dist")), p.extraUnits["dist"], "")
	if msg != "" {
		return msg
	}
	w.DistanceKm = km
	p.setWorkout(w)
	if fix != "" {
		p.correctSession(fix, line, strconv.Quote(start+" – "+end))
	}
	p.rec.ckey = p.k.reset(p.rec.ckey).num(float64(line)).sum()
	return ""
}

func sessionsDone(p *csvParser) {
	if n := p.counts["pseudo"]; n > 0 {
		p.out.note(fmt.Sprintf("%d rest-timer and note rows are not sets", n))
	}
}
