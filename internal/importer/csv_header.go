package importer

import (
	"strings"
	"unicode"
)

// A CSV header cell is read as a base name and a unit: "Weight (kg)",
// "weight_kg" and "WEIGHT KG" are all {weight, kg}; "Body Fat %" is
// {body_fat, %}; "Gewicht (kg)" is {gewicht, kg}. Bases are then matched
// against the aliases of each field, so case, spaces, punctuation and unit
// suffixes never decide whether a column is understood.

// headerCol is one header cell, normalised.
type headerCol struct {
	raw  string // as written (BOM and surrounding space removed)
	base string // lower-case words joined by "_"
	unit string // canonical unit ("kg", "g", "%", …), or what the brackets said
}

// unitWords are the unit spellings a header may carry, as canonical units.
var unitWords = map[string]string{
	"kg": "kg", "kgs": "kg", "kilogram": "kg", "kilograms": "kg", "kilogramm": "kg",
	"g": "g", "gr": "g", "gram": "g", "grams": "g", "gramm": "g",
	"mg": "mg", "milligrams": "mg",
	"lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb",
	"st": "st", "stone": "st",
	"kcal": "kcal", "kj": "kj",
	"pct": "%", "percent": "%", "percentage": "%",
	"min": "min", "mins": "min", "minute": "min", "minutes": "min",
	"sec": "s", "secs": "s", "second": "s", "seconds": "s", "s": "s",
	"h": "h", "hour": "h", "hours": "h", // not "hr": that is heart rate ("avg_hr")
	"km": "km", "mi": "mi", "miles": "mi", "mile": "mi", "m": "m", "meters": "m", "metres": "m", "meter": "m",
	"bpm": "bpm",
}

// parseHeaderCell normalises one header cell.
func parseHeaderCell(h string) headerCol {
	h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
	c := headerCol{raw: h}
	s := strings.ToLower(h)
	// A unit in brackets: "Weight (kg)", "Distance [km]", "Duration (sec)".
	for _, br := range [][2]string{{"(", ")"}, {"[", "]"}} {
		if i := strings.LastIndex(s, br[0]); i >= 0 {
			if j := strings.Index(s[i:], br[1]); j > 0 {
				inner := strings.TrimSpace(s[i+1 : i+j])
				if u, ok := unitWords[inner]; ok {
					c.unit = u
				} else if inner == "%" {
					c.unit = "%"
				} else if inner != "" {
					c.unit = inner // an unknown unit: reported, never guessed
				}
				s = s[:i] + " " + s[i+j+1:]
				break
			}
		}
	}
	if strings.Contains(s, "%") {
		c.unit = "%"
	}
	tokens := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if c.unit == "" && len(tokens) > 1 {
		if u, ok := unitWords[tokens[len(tokens)-1]]; ok {
			c.unit, tokens = u, tokens[:len(tokens)-1]
		}
	}
	c.base = strings.Join(tokens, "_")
	return c
}

// normalizeHeader returns the base and unit of a header cell as one name,
// "weight_kg", for messages and tests.
func normalizeHeader(h string) string {
	c := parseHeaderCell(h)
	if c.unit == "" || c.unit == "%" {
		return c.base
	}
	return c.base + "_" + c.unit
}

// csvField names a column Hearth reads.
type csvField int

const (
	fTime csvField = iota
	fWeight
	fUnit
	fBodyFat  // percent
	fFatMass  // mass; body fat % = fat mass / weight
	fLeanMass // fat-free mass
	fName
	fCalories
	fProtein
	fCarbs
	fFat
	fType
	fTitle
	fDuration
	fAvgHR
	fMaxHR
	fEnergy
	fDistance
	fContent // the catalog item a workout played (Hearth's own export)
	fBoneMass
	fVisceral
	nFields
)

var fieldNames = [nFields]string{"date", "weight", "unit", "body fat", "fat mass", "lean mass", "name", "calories",
	"protein", "carbs", "fat", "type", "title", "duration", "average heart rate", "maximum heart rate", "energy", "distance",
	"content id", "bone mass", "visceral fat"}

// Aliases: the bases (after parseHeaderCell) that name each field, by kind.
// Localised names come from the apps' own exports where those were found
// (Withings "Gewicht (kg)", "Fettmasse (kg)", "Fettfreier Anteil (kg)");
// the others are the plain words of those languages.
var (
	timeAliases = []string{"date", "datetime", "date_time", "time", "timestamp", "day", "datum", "fecha", "data",
		"measured_at", "eaten_at", "started_at", "start_time", "start", "start_date", "scanned_at"}
	weightAliases  = []string{"weight", "body_weight", "bodyweight", "body_mass", "gewicht", "körpergewicht", "poids", "peso", "massa"}
	unitAliases    = []string{"unit", "units", "weight_unit", "einheit", "unité", "unidad", "unità"}
	bodyFatAliases = []string{"body_fat", "bodyfat", "fat_ratio", "fat_percentage", "body_fat_percentage", "körperfett",
		"fettanteil", "körperfettanteil", "graisse_corporelle", "grasa_corporal", "gordura_corporal", "massa_grassa_percentuale"}
	fatMassAliases  = []string{"fat_mass", "fettmasse", "masse_grasse", "masa_grasa", "massa_grassa", "massa_gorda", "fat_mass_weight"}
	leanMassAliases = []string{"lean_mass", "lean_body_mass", "fat_free_mass", "fettfreie_masse", "fettfreier_anteil",
		"masse_maigre", "masa_magra", "massa_magra", "lean_weight"}
	nameAliases     = []string{"name", "meal", "food", "description", "meal_name", "mahlzeit", "repas", "comida", "pasto"}
	caloriesAliases = []string{"calories", "calorie", "kcal", "energy", "kalorien", "kilokalorien", "énergie", "calorías", "energia"}
	proteinAliases  = []string{"protein", "proteins", "eiweiß", "eiweiss", "protéines", "proteínas", "proteine"}
	carbsAliases    = []string{"carbs", "carb", "carbohydrates", "carbohydrate", "kohlenhydrate", "glucides", "carbohidratos", "carboidrati"}
	fatAliases      = []string{"fat", "fats", "total_fat", "fat_total", "fett", "lipides", "grasas", "grassi"}
	typeAliases     = []string{"type", "activity", "workout_type", "activity_type", "sport", "aktivität"}
	titleAliases    = []string{"title", "name", "workout", "workout_name"}
	durationAliases = []string{"duration", "minutes", "moving_time", "elapsed_time", "dauer", "durée", "duración"}
	avgHRAliases    = []string{"avg_hr", "average_hr", "avg_heart_rate", "average_heart_rate", "heart_rate", "hr", "avg_bpm", "avg_pulse"}
	maxHRAliases    = []string{"max_hr", "max_heart_rate", "maximum_heart_rate", "max_bpm", "max_pulse"}
	energyAliases   = []string{"energy", "calories", "kcal", "active_calories", "energy_burned", "calories_burned", "active_energy"}
	distanceAliases = []string{"distance", "strecke", "distanz"}
)

// kindFields maps each CSV kind's understood bases to fields.
var kindFields = map[Kind]map[string]csvField{
	KindCSVWeight: aliases(map[csvField][]string{fTime: timeAliases, fWeight: weightAliases, fUnit: unitAliases,
		fBodyFat: bodyFatAliases, fFatMass: fatMassAliases, fLeanMass: leanMassAliases}),
	KindCSVMeals: aliases(map[csvField][]string{fTime: timeAliases, fName: nameAliases, fCalories: caloriesAliases,
		fProtein: proteinAliases, fCarbs: carbsAliases, fFat: fatAliases}),
	KindCSVWorkouts: aliases(map[csvField][]string{fTime: timeAliases, fType: typeAliases, fTitle: titleAliases,
		fDuration: durationAliases, fAvgHR: avgHRAliases, fMaxHR: maxHRAliases, fEnergy: energyAliases, fDistance: distanceAliases,
		fContent: {"content_id"}}),
	// Hearth's own export: scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg, visceral_fat.
	KindCSVBodyScans: aliases(map[csvField][]string{fTime: timeAliases, fBodyFat: bodyFatAliases, fLeanMass: leanMassAliases,
		fFatMass: fatMassAliases, fBoneMass: {"bone_mass", "knochenmasse"}, fVisceral: {"visceral_fat"}}),
}

func aliases(m map[csvField][]string) map[string]csvField {
	out := map[string]csvField{}
	for f, names := range m {
		for _, n := range names {
			out[n] = f
		}
	}
	return out
}

// quantityWords mark a column that holds a measurement Hearth might be
// expected to read: such a column, when not understood, is reported.
var quantityWords = []string{"weight", "mass", "fat", "protein", "carb", "sugar", "fiber", "fibre", "sodium", "salt",
	"cholesterol", "potassium", "calori", "kcal", "energy", "vitamin", "calcium", "iron", "water", "hydration", "bmi",
	"muscle", "bone", "visceral", "duration", "distance", "minutes", "heart", "pulse", "bpm", "steps", "reps", "sets",
	"gewicht", "poids", "peso", "fett", "graisse", "grasa", "neck", "waist", "hips", "chest", "thigh"}

// looksLikeQuantity reports whether an unread column looks like a measurement.
func looksLikeQuantity(c headerCol) bool {
	if _, unitName := unitWords[c.base]; c.unit != "" || unitName { // "Pounds", "Kilograms": a load column
		return true
	}
	for _, w := range quantityWords {
		if strings.Contains(c.base, w) {
			return true
		}
	}
	return false
}
