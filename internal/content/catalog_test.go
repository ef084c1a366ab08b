package content_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

func ids(items []content.Item) string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID)
	}
	return strings.Join(out, ",")
}

func TestCatalogList(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	tests := []struct {
		name string
		f    content.Filter
		want string
	}{
		{"all: standalone by title, then programs by day", content.Filter{},
			"local:cd-5,local:wu-5,local:str-10,plex:9001,local:mini-1,local:mini-2"},
		{"kind", content.Filter{Kind: "warm-up"}, "local:wu-5"},
		{"program", content.Filter{Program: "mini-3"}, "local:mini-1,local:mini-2"},
		{"query title, case-insensitive", content.Filter{Query: "five MINUTE"}, "local:cd-5,local:wu-5"},
		{"query summary", content.Filter{Query: "head to toe"}, "local:str-10"},
		{"query tag text", content.Filter{Query: "dumbbell"}, "local:mini-1"},
		{"query wildcard is literal", content.Filter{Query: "%"}, ""},
		{"tag", content.Filter{Tag: "legs"}, "local:mini-1"},
		{"max duration", content.Filter{MaxDuration: 5}, "local:cd-5,local:wu-5"},
		{"source", content.Filter{Source: "demo"}, ""},
		{"limit", content.Filter{Limit: 2}, "local:cd-5,local:wu-5"},
		{"combined", content.Filter{Kind: "strength", Program: "mini-3", Query: "legs"}, "local:mini-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := c.List(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(items); got != tt.want {
				t.Errorf("List(%+v) = %s, want %s", tt.f, got, tt.want)
			}
		})
	}
}

func TestCatalogGetLookupMissing(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	if _, err := c.Get(ctx, "local:nope"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("Get(missing) err = %v, want NotFound", err)
	}
	it, err := c.Get(ctx, "plex:9001")
	if err != nil || it.Title != "Yoga Reset" || it.DurationMin != 25 || it.Kind != content.KindYoga {
		t.Errorf("Get = %+v, %v", it, err)
	}
	m, err := c.Lookup(ctx, []string{"local:wu-5", "local:nope", "plex:9001"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m["local:wu-5"].DurationMin != 5 {
		t.Errorf("Lookup = %v", m)
	}
	missing, err := c.Missing(ctx, []string{"local:wu-5", "local:ghost", "plex:1", "local:ghost"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(missing, []string{"local:ghost", "plex:1"}) {
		t.Errorf("Missing = %v", missing)
	}
	if missing, _ := c.Missing(ctx, []string{"local:wu-5"}); len(missing) != 0 {
		t.Errorf("Missing(existing) = %v", missing)
	}
	if n, err := c.Count(ctx); err != nil || n != 6 {
		t.Errorf("Count = %d, %v", n, err)
	}
}

func TestCatalogLookupManyIDs(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	many := make([]string, 1200) // crosses the 500-id chunk size
	for i := range many {
		many[i] = "local:ghost"
	}
	many[1100] = "local:wu-5"
	m, err := c.Lookup(ctx, many)
	if err != nil || len(m) != 1 {
		t.Fatalf("Lookup = %v, %v", m, err)
	}
}

func TestCatalogMenu(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	menu, err := c.Menu(ctx, content.Filter{Program: "mini-3"})
	if err != nil {
		t.Fatal(err)
	}
	want := []content.MenuEntry{
		{ID: "local:mini-1", Title: "Mini Day 1: Legs", Kind: "strength", DurationMin: 30, Program: "mini-3", Day: 1,
			Intensity: "moderate", Impact: "low", Areas: "back,hip,knee,shoulder"},
		{ID: "local:mini-2", Title: "Mini Day 2: Ride", Kind: "cardio", DurationMin: 45, Program: "mini-3", Day: 2,
			Intensity: "moderate", Impact: "low", Areas: "knee"},
	}
	if !slices.Equal(menu, want) {
		t.Fatalf("Menu = %+v", menu)
	}
	text := content.FormatMenu(append(menu, content.MenuEntry{ID: "local:x", Title: "A | B\nC", Kind: "main", DurationMin: 5}))
	wantText := "local:mini-1 | Mini Day 1: Legs | strength | 30 min | mini-3 #1 | moderate, low impact, loads back, hip, knee, shoulder\n" +
		"local:mini-2 | Mini Day 2: Ride | cardio | 45 min | mini-3 #2 | moderate, low impact, loads knee\n" +
		"local:x | A / B C | main | 5 min\n"
	if text != wantText {
		t.Errorf("FormatMenu =\n%s\nwant\n%s", text, wantText)
	}
}

func TestCatalogPrograms(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	ps, err := c.Programs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].ID != "mini-3" || ps[0].TotalDays != 4 || ps[0].TrainingDays != 3 || ps[0].Title != "Mini Three" {
		t.Fatalf("Programs = %+v", ps)
	}
	p, err := c.Program(ctx, "mini-3")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Days) != 4 || p.TrainingDays() != 3 || !p.Days[1].Rest || p.Days[2].Note != "Again, heavier." {
		t.Errorf("Program = %+v", p)
	}
	if _, err := c.Program(ctx, "nope"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("Program(unknown) err = %v", err)
	}

	d, err := c.ProgramDay(ctx, "mini-3", 3)
	if err != nil {
		t.Fatal(err)
	}
	if d.Item == nil || d.Item.ID != "local:mini-1" || d.TotalDays != 4 || d.ProgramTitle != "Mini Three" || d.Rest {
		t.Errorf("ProgramDay(3) = %+v", d)
	}
	rest, err := c.ProgramDay(ctx, "mini-3", 2)
	if err != nil || !rest.Rest || rest.Item != nil {
		t.Errorf("ProgramDay(2) = %+v, %v", rest, err)
	}
	for _, day := range []int{0, 5} {
		if _, err := c.ProgramDay(ctx, "mini-3", day); !apperr.Is(err, apperr.NotFound) {
			t.Errorf("ProgramDay(%d) err = %v", day, err)
		}
	}
}

func TestHelpers(t *testing.T) {
	for in, want := range map[string]string{
		"Ember Core 30":          "ember-core-30",
		"  P90X — Classic!  ":    "p90x-classic",
		"Yoga & Stretch (2024)":  "yoga-stretch-2024",
		"!!!":                    "",
		strings.Repeat("ab", 50): strings.Repeat("ab", 30),
	} {
		if got := content.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	for day, want := range map[int]string{1: "Week 1, Day 1", 7: "Week 1, Day 7", 23: "Week 4, Day 2", 0: ""} {
		if got := content.WeekLabel(day); got != want {
			t.Errorf("WeekLabel(%d) = %q, want %q", day, got, want)
		}
	}
	for title, want := range map[string]string{
		"5-Minute Warm-Up":   content.KindWarmUp,
		"Cool Down Stretch":  content.KindCoolDown,
		"Yoga X":             content.KindYoga,
		"Plyometrics":        content.KindHIIT,
		"Ab Ripper":          content.KindCore,
		"Chest & Back":       content.KindMain,
		"Fabulous Shoulders": content.KindMain,
		"Lakeside Ride":      content.KindCardio,
	} {
		if got := content.GuessKind(title); got != want {
			t.Errorf("GuessKind(%q) = %q, want %q", title, got, want)
		}
	}
	if got := content.GuessKind("Chest & Back", "Yoga Series"); got != content.KindYoga {
		t.Errorf("GuessKind falls back to the show title: got %q", got)
	}
	if !content.ValidKind("hiit") || content.ValidKind("zumba") || len(content.Kinds()) < 10 {
		t.Error("kinds")
	}
}

// TestCatalogMetadataStoredAndEdited: metadata round-trips through the
// database (unstated areas stay unstated), an admin's edit survives a
// re-import of the same file, and releasing it lets the next import set it.
func TestCatalogMetadataStoredAndEdited(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	file := `{"items":[{"id":"local:m","title":"M","duration":10,"kind":"dance","intensity":"moderate","impact":"high","areas":["knee"]},
		{"id":"local:n","title":"N","duration":10,"kind":"yoga"}]}`
	imp := func() content.Summary {
		t.Helper()
		sum, err := c.ImportFile(ctx, strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	imp()
	m, err := c.Get(ctx, "local:m")
	if err != nil || m.Intensity != "moderate" || m.Impact != "high" || !slices.Equal(m.Areas, []string{"knee"}) {
		t.Fatalf("stored %+v, %v", m, err)
	}
	if n, _ := c.Get(ctx, "local:n"); n.Areas != nil || n.Intensity != "" {
		t.Fatalf("unstated metadata came back as %q %#v", n.Intensity, n.Areas)
	}
	if sum := imp(); sum.Changed() {
		t.Fatalf("re-import changed %+v", sum)
	}

	if _, err := c.SetMeta(ctx, "local:m", content.MetaEdit{Intensity: "low", Impact: "low", Areas: []string{"ankles"}}); err != nil {
		t.Fatal(err)
	}
	imp()
	if m, _ = c.Get(ctx, "local:m"); m.Intensity != "low" || m.Impact != "low" || !slices.Equal(m.Areas, []string{"ankle"}) || !m.MetaEdited {
		t.Fatalf("the admin's edit did not survive the import: %+v", m)
	}
	if _, err := c.SetMeta(ctx, "local:m", content.MetaEdit{Intensity: "extreme"}); apperr.CodeOf(err) != apperr.Invalid {
		t.Errorf("bad intensity: %v", err)
	}
	if _, err := c.SetMeta(ctx, "local:ghost", content.MetaEdit{}); apperr.CodeOf(err) != apperr.NotFound {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := c.SetMeta(ctx, "local:m", content.MetaEdit{Intensity: "low", Release: true}); err != nil {
		t.Fatal(err)
	}
	imp()
	if m, _ = c.Get(ctx, "local:m"); m.Intensity != "moderate" || m.Impact != "high" || m.MetaEdited {
		t.Fatalf("released metadata was not set by the import: %+v", m)
	}
}
