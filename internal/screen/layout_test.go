package screen

import (
	"os"
	"strings"
	"testing"

	"hearth/internal/apperr"
)

func TestShippedLayoutsAreValid(t *testing.T) {
	for _, slug := range shippedOrder {
		l, err := Shipped(slug)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Validate(); err != nil {
			t.Errorf("%s: %v", slug, err)
		}
		// The file an admin exports reads back as the same layout, in both forms.
		for form, b := range map[string][]byte{"json": l.JSON(), "yaml": l.YAML()} {
			back, err := Parse(b)
			if err != nil {
				t.Fatalf("%s as %s: %v\n%s", slug, form, err, b)
			}
			if string(back.JSON()) != string(l.JSON()) {
				t.Errorf("%s as %s reads back as\n%s\nnot\n%s", slug, form, back.JSON(), l.JSON())
			}
		}
	}
}

// Every problem of a layout file is refused by name, so an admin can fix
// it: the unknown widget, the size it does not render at, the overlap,
// the field misspelt.
func TestLayoutProblemsAreNamed(t *testing.T) {
	cases := []struct {
		name, file string
		want       []string
	}{
		{"unknown widget", `{"name": "X", "landscape": {"cols": 2, "rows": 2, "places": [{"widget": "weather", "col": 1, "row": 1, "w": 1, "h": 1}]}}`,
			[]string{`unknown widget "weather"`, "clock, weight"}},
		{"size", `{"name": "X", "landscape": {"cols": 3, "rows": 3, "places": [{"widget": "clock", "col": 1, "row": 1, "w": 2, "h": 2}]}}`,
			[]string{`"clock" does not render at 2×2`, "1×1, 2×1"}},
		{"overlap", `{"name": "X", "portrait": {"cols": 2, "rows": 2, "places": [{"widget": "weight", "col": 1, "row": 1, "w": 1, "h": 2},
			{"widget": "upnext", "col": 1, "row": 2, "w": 2, "h": 1}]}}`, []string{`portrait: widgets "weight" and "upnext" overlap at column 1, row 2`}},
		{"outside", `{"name": "X", "narrow": {"cols": 1, "rows": 2, "places": [{"widget": "weight", "col": 1, "row": 2, "w": 1, "h": 2}]}}`,
			[]string{`narrow: widget "weight" at column 1, row 2, 1×2 is outside the 1×2 grid`}},
		{"twice", `{"name": "X", "landscape": {"cols": 2, "rows": 1, "places": [{"widget": "weight", "col": 1, "row": 1, "w": 1, "h": 1},
			{"widget": "weight", "col": 2, "row": 1, "w": 1, "h": 1}]}}`, []string{`"weight" is placed twice`}},
		{"no grid", `{"name": "X"}`, []string{"at least one grid"}},
		{"grid size", `{"name": "X", "landscape": {"cols": 9, "rows": 0, "places": []}}`, []string{"not 9×0"}},
		{"misspelt field", `{"name": "X", "rotate_secs": 30, "narrow": {"cols": 1, "rows": 1, "places": []}}`, []string{`unknown field "rotate_secs"`}},
		{"night", `{"name": "X", "narrow": {"cols": 1, "rows": 1, "places": []}, "night": {"from": "22:00", "to": "6:30", "mode": "off"}}`,
			[]string{`night.to: a time as HH:MM`, `night.mode: "dim" or "blank"`}},
		{"rotation", `{"name": "X", "narrow": {"cols": 1, "rows": 1, "places": []}, "rotate_seconds": 3, "members": ["Maya!"]}`,
			[]string{"rotate_seconds", `"Maya!" is not a member id`}},
		{"no name", `{"name": " ", "narrow": {"cols": 1, "rows": 1, "places": []}}`, []string{"name: give the layout a name"}},
		{"yaml unknown widget", "name: X\nlandscape:\n  cols: 1\n  rows: 1\n  places:\n    - {widget: radar, col: 1, row: 1, w: 1, h: 1}\n",
			[]string{`unknown widget "radar"`}},
		{"not json", `{"name": "X",`, []string{"not valid JSON"}},
		{"too big", `{"name": "` + strings.Repeat("x", MaxBytes) + `"}`, []string{"at most 32 KiB"}},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.file))
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v, want a refusal", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

func TestGridsFallBack(t *testing.T) {
	l, err := Shipped("phone")
	if err != nil {
		t.Fatal(err)
	}
	land, port, narrow := l.Grids()
	if land.Cols != 1 || port.Cols != 1 || narrow.Rows != 4 {
		t.Errorf("a phone layout on every orientation: %+v %+v %+v", land, port, narrow)
	}
	tv, _ := Shipped("tv")
	land, port, narrow = tv.Grids()
	if land.Cols != 5 || port.Cols != 2 || narrow.Cols != 2 {
		t.Errorf("the TV: landscape %d, portrait %d, narrow falls back to portrait %d columns", land.Cols, port.Cols, narrow.Cols)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{"TV 1920×1080": "tv-1920-1080", "Kitchen — tablet!": "kitchen-tablet", "×××": "layout"} {
		if got := Slugify(in); got != want || !ValidSlug(got) {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

// The README's example layout file is a valid layout.
func TestReadmeExampleLayout(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "An example file")
	if !ok {
		t.Fatal("the README has no example layout")
	}
	_, block, _ := strings.Cut(after, "```json")
	block, _, _ = strings.Cut(block, "```")
	if _, err := Parse([]byte(block)); err != nil {
		t.Errorf("the README's example: %v\n%s", err, block)
	}
}
