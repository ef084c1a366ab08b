package curator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"hearth/internal/content"
)

// Duration bands, as labels name them ("duration:short").
const (
	BandShort  = "short"  // under 10 minutes
	BandMedium = "medium" // 10 to 29 minutes
	BandLong   = "long"   // 30 minutes or more
)

// Band is the duration band of an item minutes long.
func Band(minutes int) string {
	switch {
	case minutes < 10:
		return BandShort
	case minutes < 30:
		return BandMedium
	}
	return BandLong
}

// bandWords say a band in a gap sentence.
var bandWords = map[string]string{BandShort: "under 10 minutes", BandMedium: "of 10 to 29 minutes", BandLong: "of 30 minutes or more"}

// Analysis is what plex_analyze_library reports.
type Analysis struct {
	// Source says where the items came from: "catalog" (Hearth's synced
	// catalog, with admins' metadata edits) or "plex" (the section as Plex
	// lists it now, when the catalog holds no Plex items yet).
	Source string      `json:"source"`
	Items  int         `json:"items"`
	Kinds  []KindCount `json:"kinds"`
	// Areas counts the items stating each body area they load.
	Areas map[string]int `json:"areas"`
	// NoIntensity counts items whose intensity is guessed from the kind
	// (no intensity: label).
	NoIntensity int              `json:"no_intensity"`
	Gaps        []string         `json:"gaps"`
	Duplicates  []DuplicateGroup `json:"duplicates"`
}

// KindCount is how many items of a kind there are, per duration band.
type KindCount struct {
	Kind   string `json:"kind"`
	Count  int    `json:"count"`
	Short  int    `json:"short"`
	Medium int    `json:"medium"`
	Long   int    `json:"long"`
}

// DuplicateGroup is items with the same title and duration.
type DuplicateGroup struct {
	Title       string   `json:"title"`
	DurationMin int      `json:"duration_min"`
	IDs         []string `json:"ids"`
}

// roles are the kinds a session is built of; each needs short items too.
var roles = []content.Kind{content.KindWarmUp, content.KindCoolDown}

// Analyze reports on items: a pure function, so the gaps it finds are
// table-tested.
func Analyze(items []content.Item) Analysis {
	a := Analysis{Items: len(items), Kinds: []KindCount{}, Areas: map[string]int{}, Gaps: []string{}}
	byKind := map[string]*KindCount{}
	workouts := map[string]int{} // band → main workouts (neither warm-up nor cool-down)
	lowWorkouts := 0
	for _, it := range items {
		kc := byKind[it.Kind]
		if kc == nil {
			kc = &KindCount{Kind: it.Kind}
			byKind[it.Kind] = kc
		}
		kc.Count++
		band := Band(it.DurationMin)
		switch band {
		case BandShort:
			kc.Short++
		case BandMedium:
			kc.Medium++
		default:
			kc.Long++
		}
		m := it.Meta()
		if slices.Contains(m.Guessed, "intensity") {
			a.NoIntensity++
		}
		if !slices.Contains(m.Guessed, "areas") {
			for _, ar := range m.Areas {
				a.Areas[ar]++
			}
		}
		if !slices.Contains(roles, it.Kind) {
			workouts[band]++
			if m.Intensity == content.IntensityLow {
				lowWorkouts++
			}
		}
	}
	for _, k := range content.Kinds() { // the catalog's order: warm-up, main, cool-down…
		if kc := byKind[k]; kc != nil {
			a.Kinds = append(a.Kinds, *kc)
			delete(byKind, k)
		}
	}
	for _, kc := range byKind { // kinds the catalog does not know (none from a sync)
		a.Kinds = append(a.Kinds, *kc)
	}
	slices.SortStableFunc(a.Kinds[len(a.Kinds)-len(byKind):], func(x, y KindCount) int { return cmp.Compare(x.Kind, y.Kind) })
	if len(items) == 0 {
		a.Gaps = append(a.Gaps, "the library is empty")
		a.Duplicates = []DuplicateGroup{}
		return a
	}
	for _, role := range roles {
		name := plural(role)
		switch kc := find(a.Kinds, role); {
		case kc.Count == 0:
			a.Gaps = append(a.Gaps, "no "+name+" at all")
		case kc.Short == 0:
			a.Gaps = append(a.Gaps, "no "+name+" "+bandWords[BandShort])
		}
	}
	total := workouts[BandShort] + workouts[BandMedium] + workouts[BandLong]
	if total == 0 {
		a.Gaps = append(a.Gaps, "no workouts besides warm-ups and cool-downs")
	} else {
		for _, b := range []string{BandShort, BandMedium, BandLong} {
			if workouts[b] == 0 {
				a.Gaps = append(a.Gaps, "no workouts "+bandWords[b])
			}
		}
		if lowWorkouts == 0 {
			a.Gaps = append(a.Gaps, "no low-intensity workouts for easy days")
		}
	}
	if len(a.Areas) == 0 {
		a.Gaps = append(a.Gaps, "no item states the body areas it loads (labels such as area:knee)")
	}
	if a.NoIntensity > 0 {
		a.Gaps = append(a.Gaps, fmt.Sprintf("%d of %d items have no intensity label (intensity:low, moderate or high): it is guessed from the kind", a.NoIntensity, len(items)))
	}
	a.Duplicates = Duplicates(items)
	return a
}

func find(kinds []KindCount, k string) KindCount {
	for _, kc := range kinds {
		if kc.Kind == k {
			return kc
		}
	}
	return KindCount{Kind: k}
}

// plural names a kind's items in a sentence ("cool-downs").
func plural(k string) string {
	switch k {
	case content.KindHIIT:
		return "HIIT workouts"
	case content.KindMain:
		return "main workouts"
	}
	return k + "s"
}

// Duplicates groups items with the same title (case, punctuation and
// spacing aside) and the same duration: the likely copies of one video.
func Duplicates(items []content.Item) []DuplicateGroup {
	type key struct {
		title string
		min   int
	}
	groups := map[key]*DuplicateGroup{}
	var order []key
	for _, it := range items {
		k := key{titleKey(it.Title), it.DurationMin}
		if k.title == "" {
			continue
		}
		g := groups[k]
		if g == nil {
			g = &DuplicateGroup{Title: it.Title, DurationMin: it.DurationMin}
			groups[k] = g
			order = append(order, k)
		}
		g.IDs = append(g.IDs, strings.TrimPrefix(it.ID, "plex:"))
	}
	out := []DuplicateGroup{}
	for _, k := range order {
		if g := groups[k]; len(g.IDs) > 1 {
			out = append(out, *g)
		}
	}
	slices.SortStableFunc(out, func(x, y DuplicateGroup) int {
		return cmp.Or(cmp.Compare(titleKey(x.Title), titleKey(y.Title)), cmp.Compare(x.DurationMin, y.DurationMin))
	})
	return out
}

// titleKey is a title reduced to its lower-case words.
func titleKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
