package web_test

import (
	"context"
	"strings"
	"testing"

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
