package kiosk

import (
	"strings"
	"testing"

	"hearth/internal/screen"
	"hearth/views/kioskview"
)

// Every widget the registry lets a layout place has a renderer, and the
// shipped layouts map onto the page: each placed widget gets one cell with
// an area per orientation that places it, the rest go to the More sheet,
// and nothing but integers reaches the style attributes.
func TestEveryRegisteredWidgetRenders(t *testing.T) {
	for _, w := range screen.Widgets() {
		if !kioskview.Renders(w.Name) {
			t.Errorf("widget %q is registered but the kiosk cannot render it", w.Name)
		}
	}
	if kioskview.Renders("weather") {
		t.Error("an unregistered widget renders")
	}
	for _, slug := range []string{"wall-tablet", "tv", "portrait-tablet", "phone"} {
		l, err := screen.Shipped(slug)
		if err != nil {
			t.Fatal(err)
		}
		v := screenView(screen.Entry{Slug: slug, Layout: l})
		placed := l.Placed()
		if len(v.Cells) != len(placed) {
			t.Errorf("%s: %d cells for %d placed widgets", slug, len(v.Cells), len(placed))
		}
		for _, c := range v.Cells {
			if !placed[c.Widget] || strings.ContainsAny(string(c.Style), "<>\"'(){}") {
				t.Errorf("%s: cell %s style %q", slug, c.Widget, c.Style)
			}
		}
		for _, m := range v.More {
			if placed[m] {
				t.Errorf("%s: %s is placed and in More", slug, m)
			}
		}
		if len(v.Cells)+len(v.More)+3 != len(screen.Widgets()) { // clock, chat and the tiles (⌂) are in the frame
			t.Errorf("%s: %d cells + %d in More of %d widgets", slug, len(v.Cells), len(v.More), len(screen.Widgets()))
		}
	}
}

func TestRotationAndScreenMembers(t *testing.T) {
	ms := []kioskview.MemberTile{{ID: "ada"}, {ID: "bo"}, {ID: "cy"}}
	if got := nextMember(ms, "cy"); got != "ada" {
		t.Errorf("after cy: %s", got)
	}
	if got := nextMember(ms[:1], "ada"); got != "" {
		t.Errorf("one member rotates to %q", got)
	}
	l := screen.Layout{Members: []string{"bo"}}
	if got := screenMembers(ms, l, "cy"); len(got) != 2 || got[0].ID != "bo" || got[1].ID != "cy" {
		t.Errorf("a screen showing bo, on cy's page: %+v", got)
	}
	// Only member ids reach the page's style element.
	l.Members = append(l.Members, "x</style><script>alert(1)</script>")
	if got := membersCSS(l, "cy"); got != "#switcher .switch:not(#switch-cy, #switch-bo) { display: none; }" {
		t.Errorf("membersCSS: %q", got)
	}
	if membersCSS(screen.Layout{}, "cy") != "" {
		t.Error("a layout showing everyone hides someone")
	}
}
