package web_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/app"
	"hearth/internal/homeassistant/hatest"
	"hearth/internal/talos"
)

// TestKioskHeldActionsStayWithTheirMember: an action held for Ada is shown
// and answered only on Ada's "Home & TV" sheet: Bo's sheet neither lists
// it nor answers it (his URL, her request id), a confirmation needs an
// adult, and Refuse needs no PIN and settles it once.
func TestKioskHeldActionsStayWithTheirMember(t *testing.T) {
	ha := hatest.New(t, "tok")
	ha.Add(hatest.Entity{ID: "lock.front_door", Name: "Front door", State: "locked"})
	k := newKioskWith(t, withConfig(func(c *app.Config) { c.HAURL, c.HAToken = ha.URL(), "tok" }))
	if resp, body := k.post("/m/ada/house", url.Values{"message": {"Unlock the front door"}}, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("ask: %d %s", resp.StatusCode, body)
	}
	ctx := context.Background()
	ws, err := k.app.Policies.Waiting(ctx, "ada")
	if err != nil || len(ws) != 1 {
		t.Fatalf("waiting = %+v (%v)", ws, err)
	}
	id := strconv.FormatInt(ws[0].ID, 10)

	if _, body := sheet(t, k, "/m/ada/house/latest"); !strings.Contains(body, "Unlock the front door?") {
		t.Fatalf("Ada's sheet does not show her held unlock: %.300s", body)
	}
	if _, body := sheet(t, k, "/m/ada/house/held"); !strings.Contains(body, "Unlock the front door?") || !strings.Contains(body, "data-on-interval") {
		t.Fatalf("Ada's held list: %.300s", body)
	}
	if _, body := sheet(t, k, "/m/bo/house"); strings.Contains(body, "Unlock the front door?") {
		t.Fatal("Bo's sheet shows Ada's held unlock")
	}
	_, body := k.post("/m/bo/house/held/"+id, url.Values{"answer": {"confirm"}, "approver": {"bo"}}, "")
	if !strings.Contains(body, "not this member") || len(ha.Calls()) != 0 {
		t.Fatalf("Bo's sheet answered Ada's request: %.300s (%d calls)", body, len(ha.Calls()))
	}
	_, body = k.post("/m/ada/house/held/"+id, url.Values{"answer": {"confirm"}, "approver": {"nobody"}}, "")
	if !strings.Contains(body, "Choose which adult") || len(ha.Calls()) != 0 {
		t.Fatalf("confirmed by no adult: %.300s", body)
	}
	_, body = k.post("/m/ada/house/held/"+id, url.Values{"answer": {"refuse"}}, "")
	if !strings.Contains(body, "Unlock the front door: refused, nothing was done.") {
		t.Fatalf("refuse: %.300s", body)
	}
	if _, body := sheet(t, k, "/m/ada/house/held"); strings.Contains(body, "held-card") {
		t.Fatalf("the refused request is still listed: %.300s", body)
	}
	rec, err := k.app.Policies.Decision(ctx, ws[0].ID)
	if err != nil || rec.Outcome != talos.Refused || len(ha.Calls()) != 0 {
		t.Fatalf("after refuse: %+v (%v), %d calls", rec, err, len(ha.Calls()))
	}
	if _, body = k.post("/m/ada/house/held/"+id, url.Values{"answer": {"confirm"}, "approver": {"ada"}}, ""); !strings.Contains(body, "already answered") {
		t.Fatalf("a refused request answered again: %.300s", body)
	}
}

// sheet fetches a chat sheet's content as the page's Datastar action does.
func sheet(t *testing.T, k *kiosk, path string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, k.srv.URL+path, nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := k.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
