package content

import (
	"slices"
	"strconv"
	"strings"
)

// Content metadata the coach decides with: how hard an item is
// (intensity), whether it jumps or runs (impact) and the body areas it
// loads. A catalog file or Plex labels state them; an admin can edit them
// in the catalog page; what nobody stated is guessed from the kind
// (KindMeta).

// Intensity levels.
const (
	IntensityLow      = "low"
	IntensityModerate = "moderate"
	IntensityHigh     = "high"
)

// Impact levels: high is jumping, running, skipping (both feet leave the
// floor); low keeps a foot on the floor or the body on a mat or a bike.
const (
	ImpactLow  = "low"
	ImpactHigh = "high"
)

// Body areas an item can load.
const (
	AreaNeck     = "neck"
	AreaShoulder = "shoulder"
	AreaElbow    = "elbow"
	AreaWrist    = "wrist"
	AreaBack     = "back"
	AreaHip      = "hip"
	AreaKnee     = "knee"
	AreaAnkle    = "ankle"
	AreaFoot     = "foot"
)

var (
	intensities = []string{IntensityLow, IntensityModerate, IntensityHigh}
	impacts     = []string{ImpactLow, ImpactHigh}
	areas       = []string{AreaNeck, AreaShoulder, AreaElbow, AreaWrist, AreaBack, AreaHip, AreaKnee, AreaAnkle, AreaFoot}
)

// Intensities, Impacts and Areas return the known values in a stable order.
func Intensities() []string { return slices.Clone(intensities) }

// Impacts returns the known impact levels.
func Impacts() []string { return slices.Clone(impacts) }

// Areas returns the known body areas.
func Areas() []string { return slices.Clone(areas) }

// ValidIntensity, ValidImpact and ValidArea report known values.
func ValidIntensity(s string) bool { return slices.Contains(intensities, s) }

// ValidImpact reports a known impact level.
func ValidImpact(s string) bool { return slices.Contains(impacts, s) }

// ValidArea reports a known body area.
func ValidArea(s string) bool { return slices.Contains(areas, s) }

// areaWords maps what people and labels call a body part to its area
// ("knees", "lower back", "achilles").
var areaWords = map[string]string{
	"neck": AreaNeck, "shoulder": AreaShoulder, "shoulders": AreaShoulder, "elbow": AreaElbow, "elbows": AreaElbow,
	"wrist": AreaWrist, "wrists": AreaWrist, "back": AreaBack, "lower back": AreaBack, "lower-back": AreaBack,
	"upper back": AreaBack, "spine": AreaBack, "hip": AreaHip, "hips": AreaHip, "groin": AreaHip, "hamstring": AreaHip,
	"hamstrings": AreaHip, "knee": AreaKnee, "knees": AreaKnee, "ankle": AreaAnkle, "ankles": AreaAnkle,
	"calf": AreaAnkle, "calves": AreaAnkle, "achilles": AreaAnkle, "foot": AreaFoot, "feet": AreaFoot,
}

// AreaOf names the area a body-part word belongs to ("" when unknown):
// "knees" → knee, "lower back" → back, "hamstring" → hip, "achilles" → ankle.
func AreaOf(word string) string {
	return areaWords[strings.Join(strings.Fields(strings.ToLower(word)), " ")]
}

// Meta is an item's metadata as the coach uses it: what the catalog says,
// completed from the kind.
type Meta struct {
	Intensity string   `json:"intensity"`
	Impact    string   `json:"impact"`
	Areas     []string `json:"areas"`
	// Guessed names the fields that came from the kind, not the catalog.
	Guessed []string `json:"guessed,omitempty"`
}

// Loads reports whether the item loads any of the areas.
func (m Meta) Loads(areas ...string) bool {
	for _, a := range areas {
		if slices.Contains(m.Areas, a) {
			return true
		}
	}
	return false
}

// kindMeta is what a kind usually is when the catalog does not say: the
// guess errs toward caution (HIIT and dance count as high impact, strength
// as loading the big joints).
var kindMeta = map[Kind]Meta{
	KindWarmUp:   {IntensityLow, ImpactLow, []string{}, nil},
	KindCoolDown: {IntensityLow, ImpactLow, []string{}, nil},
	KindStretch:  {IntensityLow, ImpactLow, []string{}, nil},
	KindMobility: {IntensityLow, ImpactLow, []string{}, nil},
	KindRecovery: {IntensityLow, ImpactLow, []string{}, nil},
	KindWalk:     {IntensityLow, ImpactLow, []string{}, nil},
	KindYoga:     {IntensityLow, ImpactLow, []string{AreaWrist}, nil},
	KindPilates:  {IntensityModerate, ImpactLow, []string{AreaBack}, nil},
	KindCore:     {IntensityModerate, ImpactLow, []string{AreaBack}, nil},
	KindMain:     {IntensityModerate, ImpactLow, []string{}, nil},
	KindCardio:   {IntensityModerate, ImpactLow, []string{AreaKnee}, nil},
	KindStrength: {IntensityModerate, ImpactLow, []string{AreaKnee, AreaHip, AreaBack, AreaShoulder}, nil},
	KindDance:    {IntensityModerate, ImpactHigh, []string{AreaKnee, AreaAnkle}, nil},
	KindHIIT:     {IntensityHigh, ImpactHigh, []string{AreaKnee, AreaAnkle, AreaHip}, nil},
}

// KindMeta is the metadata a kind gets when the catalog states none.
func KindMeta(k Kind) Meta {
	m, ok := kindMeta[k]
	if !ok {
		m = kindMeta[KindMain]
	}
	m.Areas = slices.Clone(m.Areas)
	slices.Sort(m.Areas)
	return m
}

// Meta returns the item's metadata: the catalog's, each missing field
// guessed from the kind (and named in Guessed). Areas nil means not stated;
// an empty list states that the item loads no particular area.
func (it Item) Meta() Meta {
	k := KindMeta(it.Kind)
	m := Meta{Intensity: it.Intensity, Impact: it.Impact, Areas: slices.Clone(it.Areas)}
	if m.Intensity == "" {
		m.Intensity = k.Intensity
		m.Guessed = append(m.Guessed, "intensity")
	}
	if m.Impact == "" {
		m.Impact = k.Impact
		m.Guessed = append(m.Guessed, "impact")
	}
	if it.Areas == nil {
		m.Areas = k.Areas
		m.Guessed = append(m.Guessed, "areas")
	}
	if m.Areas == nil {
		m.Areas = []string{}
	}
	return m
}

// normMeta lower-cases and trims the metadata fields, maps area words to
// areas ("knees" → knee) and drops repeats; unknown words stay for
// validation to report.
func normMeta(it *Item) {
	it.Intensity = strings.ToLower(strings.TrimSpace(it.Intensity))
	it.Impact = strings.ToLower(strings.TrimSpace(it.Impact))
	if it.Areas == nil {
		return
	}
	out := make([]string, 0, len(it.Areas))
	for _, a := range it.Areas {
		w := strings.ToLower(strings.TrimSpace(a))
		if area := AreaOf(w); area != "" {
			w = area
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	it.Areas = out
}

// validateMeta reports unknown metadata values.
func validateMeta(p *problems, path string, it *Item) {
	if it.Intensity != "" && !ValidIntensity(it.Intensity) {
		p.add(path+".intensity", "unknown intensity %q (one of %s)", it.Intensity, strings.Join(intensities, ", "))
	}
	if it.Impact != "" && !ValidImpact(it.Impact) {
		p.add(path+".impact", "unknown impact %q (one of %s)", it.Impact, strings.Join(impacts, ", "))
	}
	for i, a := range it.Areas {
		if !ValidArea(a) {
			p.add(path+".areas["+strconv.Itoa(i)+"]", "unknown body area %q (one of %s)", a, strings.Join(areas, ", "))
		}
	}
}

// labelMeta reads metadata from labels such as "intensity:high",
// "impact: low", "area:knee" or "areas: knee, back" (case-insensitive);
// other labels are ignored. Areas is nil when no label names one.
func labelMeta(labels []string) (intensity, impact string, areas []string) {
	for _, l := range labels {
		key, val, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		val = strings.ToLower(strings.TrimSpace(val))
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "intensity":
			if ValidIntensity(val) {
				intensity = val
			}
		case "impact":
			if ValidImpact(val) {
				impact = val
			}
		case "area", "areas", "loads":
			if val == "none" && areas == nil {
				areas = []string{} // "areas: none" states that it loads none
			}
			for _, w := range strings.Split(val, ",") {
				if a := AreaOf(w); a != "" && !slices.Contains(areas, a) {
					areas = append(areas, a)
				}
			}
		}
	}
	if areas != nil {
		slices.Sort(areas)
	}
	return intensity, impact, areas
}
