package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/household"
	"hearth/internal/screen"
)

// A layout's own night schedule is the screen's, over the household's
// (off here); other screens keep the household's.
func TestLayoutNightOverridesTheHousehold(t *testing.T) {
	k := newKiosk(t)
	l, _ := screen.Shipped("portrait-tablet")
	l.Name, l.Night = "Bedroom", &screen.Night{From: "21:30", To: "07:15", Mode: "blank"}
	if _, err := k.app.Screens.Save(context.Background(), "bedroom", l); err != nil {
		t.Fatal(err)
	}
	if _, page := k.get("/m/ada"); strings.Contains(page, "data-hearth-night-from") {
		t.Fatal("a screen without a night schedule has one")
	}
	_, page := k.get("/m/ada?layout=bedroom")
	for _, want := range []string{`data-hearth-night-from="21:30"`, `data-hearth-night-to="07:15"`, `data-hearth-night-mode="blank"`, `id="night"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the bedroom screen lacks %s", want)
		}
	}
}

// The household tiles widget follows everyone: bo's weigh-in reaches the
// tiles on ada's open screen.
func TestTilesWidgetFollowsTheHousehold(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	l, _ := screen.Shipped("wall-tablet")
	l.Name = "Family"
	l.Landscape.Places = append(l.Landscape.Places[:7], screen.Place{Widget: "tiles", Col: 4, Row: 3, W: 1, H: 1})
	if _, err := k.app.Screens.Save(ctx, "family", l); err != nil {
		t.Fatal(err)
	}
	if _, page := k.get("/m/ada?layout=family"); !strings.Contains(page, `<div class="cell cell-tiles"`) || !strings.Contains(page, `id="w-tiles"`) {
		t.Fatal("the family screen has no tiles cell")
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, stream := k.openStream(sctx, "/live/m/ada")
	defer stream.Body.Close()
	s.until(t, 2*time.Second, `"_ka"`)
	if _, err := k.hh.LogWeight(ctx, "bo", household.WeightInput{Weight: 181.4}); err != nil {
		t.Fatal(err)
	}
	s.until(t, 2*time.Second, `id="w-tiles"`, "399.9 lb") // 181.4 kg, in bo's unit
}
