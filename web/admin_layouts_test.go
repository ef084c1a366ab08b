package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/devices"
	"hearth/internal/screen"
)

// Admin → Screens → a layout: a file with a widget the registry does not
// know is refused on save naming it, with the text kept and nothing
// stored; a good file is the next version, exported as it was saved; a new
// layout is a copy or an import; the default and a screen's layout are set
// here.
func TestAdminEditsLayouts(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()

	code, page := env.page("/admin/screens")
	if code != 200 {
		t.Fatalf("screens page: %d", code)
	}
	for _, want := range []string{"Wall tablet 1280×800", "TV 1920×1080", "Portrait tablet 800×1280", "Phone", `id="widget-registry"`, "<code>upnext</code>"} {
		if !strings.Contains(page, want) {
			t.Errorf("screens page lacks %q", want)
		}
	}
	code, page = env.page("/admin/screens/layouts/tv")
	if code != 200 || !strings.Contains(page, `src="/m/ada?layout=tv&amp;preview=1"`) || !strings.Contains(page, "&#34;widget&#34;: &#34;upnext&#34;") ||
		!strings.Contains(page, `width="1280" height="800"`) {
		t.Fatalf("editor: %d %.300s", code, page)
	}
	// The preview stands for the layout's own screen: a phone's is a phone.
	if _, page = env.page("/admin/screens/layouts/phone"); !strings.Contains(page, `width="390" height="844"`) || !strings.Contains(page, "390×844") {
		t.Error("the phone layout's preview is not phone-sized")
	}

	l, _ := screen.Shipped("tv")
	l.Landscape.Places = append(l.Landscape.Places[:2], screen.Place{Widget: "weather", Col: 5, Row: 3, W: 1, H: 1})
	bad := string(l.JSON())
	resp, body := env.form("/admin/screens/layouts/tv", url.Values{"body": {bad}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "unknown widget &#34;weather&#34;") ||
		!strings.Contains(body, "&#34;widget&#34;: &#34;weather&#34;") {
		t.Fatalf("unknown widget: %d %.400s", resp.StatusCode, body)
	}
	if e, _ := env.app.Screens.Get(ctx, "tv"); e.Version != 0 {
		t.Fatalf("a refused layout was stored: %s", e.Key())
	}

	l.Landscape.Places = l.Landscape.Places[:2]
	good := string(l.JSON())
	resp, _ = env.form("/admin/screens/layouts/tv", url.Values{"body": {good}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/screens/layouts/tv?done=saved" {
		t.Fatalf("save: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if code, page = env.page("/admin/screens/layouts/tv/export"); code != 200 || page != good {
		t.Errorf("export after save: %d\n%s\nwant\n%s", code, page, good)
	}
	if code, page = env.page("/admin/screens/layouts/tv/export?format=yaml"); code != 200 || !strings.Contains(page, "widget: upnext") {
		t.Errorf("YAML export: %d %s", code, page)
	}
	if _, page = env.page("/admin/screens/layouts/tv"); !strings.Contains(page, "edited, version 1") || !strings.Contains(page, "version 1, saved") {
		t.Error("the editor does not show the new version")
	}

	// A new layout from an imported YAML file, then made the default.
	yaml := "name: Kitchen\nnarrow:\n  cols: 1\n  rows: 2\n  places:\n    - {widget: weight, col: 1, row: 1, w: 1, h: 1}\n    - {widget: prompts, col: 1, row: 2, w: 1, h: 1}\n"
	resp, _ = env.form("/admin/screens/layouts", url.Values{"body": {yaml}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/screens/layouts/kitchen?done=saved" {
		t.Fatalf("import: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body = env.form("/admin/screens/layouts", url.Values{"name": {"Kitchen"}, "from": {"phone"}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "A layout with this name exists") {
		t.Errorf("a second Kitchen: %d", resp.StatusCode)
	}
	if resp, _ = env.form("/admin/screens/default-layout", url.Values{"layout": {"kitchen"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("default: %d", resp.StatusCode)
	}
	if e, _ := env.app.Screens.Resolve(ctx, "", ""); e.Slug != "kitchen" {
		t.Errorf("default is %s", e.Slug)
	}
	if resp, _ = env.form("/admin/screens/default-layout", url.Values{"layout": {"nope"}}, false); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown default: %d", resp.StatusCode)
	}
	// The kiosk shows the default layout.
	if _, page = env.page("/m/ada"); !strings.Contains(page, `data-layout="kitchen@1"`) {
		t.Error("the dashboard does not show the new default layout")
	}

	// An enrolled screen gets its own layout from its row on Admin → Screens.
	d, link, err := env.app.Devices.StartEnrolment(ctx, "Lounge TV")
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := env.app.Devices.Enrol(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	if _, page = env.page("/admin/screens"); !strings.Contains(page, `aria-label="Layout of Lounge TV"`) {
		t.Error("the screen's row offers no layout")
	}
	id := strconv.FormatInt(d.ID, 10)
	if resp, _ = env.form("/admin/screens/"+id+"/layout", url.Values{"layout": {"tv"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("assign: %d", resp.StatusCode)
	}
	if e, _ := env.app.Screens.Resolve(ctx, "", devices.Hash(token)); e.Slug != "tv" {
		t.Errorf("the lounge TV shows %s", e.Slug)
	}
	if resp, _ = env.form("/admin/screens/"+id+"/layout", url.Values{"layout": {"nope"}}, false); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown layout assigned: %d", resp.StatusCode)
	}
}
