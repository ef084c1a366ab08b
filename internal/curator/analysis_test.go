package curator_test

import (
	"slices"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/curator"
)

func it(id, title, kind string, minutes int, labels ...string) content.Item {
	item := content.Item{ID: "plex:" + id, Title: title, Kind: kind, DurationMin: minutes}
	for _, l := range labels {
		k, v, _ := strings.Cut(l, ":")
		switch k {
		case "intensity":
			item.Intensity = v
		case "area":
			item.Areas = append(item.Areas, v)
		}
	}
	return item
}

func TestAnalyzeFindsGaps(t *testing.T) {
	full := []content.Item{
		it("1", "Warm-up", content.KindWarmUp, 5, "intensity:low", "area:knee"),
		it("2", "Cool-down", content.KindCoolDown, 8, "intensity:low"),
		it("3", "Quick HIIT", content.KindHIIT, 9, "intensity:high"),
		it("4", "Yoga Flow", content.KindYoga, 20, "intensity:low"),
		it("5", "Strength", content.KindStrength, 45, "intensity:moderate"),
	}
	cases := []struct {
		name  string
		items []content.Item
		gaps  []string
	}{
		{"empty", nil, []string{"the library is empty"}},
		{"complete", full, []string{}},
		{"no short cool-downs", append(slices.Clone(full[:1]), append([]content.Item{it("2", "Long Cool-down", content.KindCoolDown, 12, "intensity:low")}, full[2:]...)...),
			[]string{"no cool-downs under 10 minutes"}},
		{"no warm-ups", full[1:], []string{"no warm-ups at all", "no item states the body areas it loads (labels such as area:knee)"}},
		{"only sessions' ends", full[:2], []string{"no workouts besides warm-ups and cool-downs"}},
		{"no long or easy workouts", []content.Item{full[0], full[1], full[2]},
			[]string{"no workouts of 10 to 29 minutes", "no workouts of 30 minutes or more", "no low-intensity workouts for easy days"}},
		{"unlabelled", []content.Item{it("1", "Warm-up", content.KindWarmUp, 5), it("2", "Cool-down", content.KindCoolDown, 5),
			it("3", "Walk", content.KindWalk, 5), it("4", "Walk 2", content.KindWalk, 15), it("5", "Walk 3", content.KindWalk, 35)},
			[]string{"no item states the body areas it loads (labels such as area:knee)",
				"5 of 5 items have no intensity label (intensity:low, moderate or high): it is guessed from the kind"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := curator.Analyze(c.items)
			if !slices.Equal(a.Gaps, c.gaps) {
				t.Fatalf("gaps = %q\nwant %q", a.Gaps, c.gaps)
			}
		})
	}
}

func TestAnalyzeCountsKindsBandsAndAreas(t *testing.T) {
	a := curator.Analyze([]content.Item{
		it("1", "Warm-up", content.KindWarmUp, 5, "area:knee"),
		it("2", "Warm-up Long", content.KindWarmUp, 10),
		it("3", "Cool-down", content.KindCoolDown, 9),
		it("4", "Strength", content.KindStrength, 30, "area:knee", "area:back"),
		it("5", "Strength 2", content.KindStrength, 29),
	})
	want := []curator.KindCount{
		{Kind: "warm-up", Count: 2, Short: 1, Medium: 1},
		{Kind: "cool-down", Count: 1, Short: 1},
		{Kind: "strength", Count: 2, Medium: 1, Long: 1},
	}
	if !slices.Equal(a.Kinds, want) {
		t.Fatalf("kinds = %+v", a.Kinds)
	}
	// Areas guessed from the kind (strength's) are not counted as stated.
	if a.Areas["knee"] != 2 || a.Areas["back"] != 1 || len(a.Areas) != 2 || a.NoIntensity != 5 {
		t.Fatalf("areas = %v, no intensity %d", a.Areas, a.NoIntensity)
	}
	for m, band := range map[int]string{1: "short", 9: "short", 10: "medium", 29: "medium", 30: "long", 90: "long"} {
		if got := curator.Band(m); got != band {
			t.Errorf("Band(%d) = %s, want %s", m, got, band)
		}
	}
}

func TestDuplicatesNeedTheSameTitleAndDuration(t *testing.T) {
	groups := curator.Duplicates([]content.Item{
		it("1", "Morning Warm-up", content.KindWarmUp, 10),
		it("2", "morning  warm up!", content.KindWarmUp, 10),
		it("3", "Morning Warm-up", content.KindWarmUp, 12), // another length: another video
		it("4", "Abs", content.KindCore, 10),
		it("5", "ABS", content.KindCore, 10),
		it("6", "Abs", content.KindCore, 10),
	})
	if len(groups) != 2 || groups[0].Title != "Abs" || strings.Join(groups[0].IDs, ",") != "4,5,6" ||
		groups[1].Title != "Morning Warm-up" || strings.Join(groups[1].IDs, ",") != "1,2" || groups[1].DurationMin != 10 {
		t.Fatalf("groups = %+v", groups)
	}
}
