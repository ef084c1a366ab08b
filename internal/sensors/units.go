package sensors

import (
	"fmt"
	"strconv"
	"strings"

	"hearth/internal/health"
	"hearth/internal/homeassistant"
)

// Kind is the record kind a mapping feeds.
type Kind string

// The record kinds.
const (
	KindWeight  Kind = "weight"
	KindBodyFat Kind = "body_fat"
	KindSteps   Kind = "steps"
	KindSleep   Kind = "sleep"
)

// Kinds lists the kinds in the order Poll handles them: weigh-ins before
// body fat, so a scale's body fat finds its weigh-in.
var Kinds = []Kind{KindWeight, KindBodyFat, KindSteps, KindSleep}

// Label names a kind for people.
func (k Kind) Label() string {
	switch k {
	case KindWeight:
		return "Weight (weigh-ins)"
	case KindBodyFat:
		return "Body fat (on weigh-ins)"
	case KindSteps:
		return "Steps (daily figure)"
	case KindSleep:
		return "Sleep (daily figure)"
	}
	return string(k)
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Mass units Home Assistant uses (homeassistant.const.UnitOfMass), to kg.
var toKg = map[string]float64{
	"kg": 1, "g": 0.001, "lb": health.KgPerLb, "lbs": health.KgPerLb, "oz": health.KgPerOunce, "st": health.KgPerStone,
}

// Time units (homeassistant.const.UnitOfTime) a sleep sensor reports, to hours.
var toHours = map[string]float64{"h": 1, "hr": 1, "hours": 1, "min": 1.0 / 60, "s": 1.0 / 3600}

// errSkip marks a state that is no reading (unavailable, unknown, text).
type errSkip struct{ why string }

func (e errSkip) Error() string { return e.why }

// value reads a state as kind, in Hearth's unit (kg, %, steps, hours).
// unit is the state's unit_of_measurement, or the entity's last known one
// when the state has none (minimal history rows carry no attributes).
func value(kind Kind, st homeassistant.State, unit string) (float64, error) {
	if st.Unavailable() {
		return 0, errSkip{"unavailable"}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(st.State), 64)
	if err != nil {
		return 0, errSkip{"not a number"}
	}
	u := strings.ToLower(strings.TrimSpace(unit))
	switch kind {
	case KindWeight:
		f, ok := toKg[u]
		if !ok {
			return 0, fmt.Errorf("%s reports weight in %q; Hearth reads kg, g, lb, oz and st", st.EntityID, unit)
		}
		return v * f, nil
	case KindBodyFat:
		if u != "%" && u != "" {
			return 0, fmt.Errorf("%s reports body fat in %q; Hearth reads %%", st.EntityID, unit)
		}
		return v, nil
	case KindSteps:
		switch u {
		case "", "steps", "step", "count":
			return v, nil
		}
		return 0, fmt.Errorf("%s reports steps in %q; Hearth reads a count of steps", st.EntityID, unit)
	case KindSleep:
		f, ok := toHours[u]
		if !ok {
			return 0, fmt.Errorf("%s reports sleep in %q; Hearth reads h, min or s", st.EntityID, unit)
		}
		return v * f, nil
	}
	return 0, fmt.Errorf("unknown kind %q", kind)
}
