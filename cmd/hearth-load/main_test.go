package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hearth/internal/health"
	"hearth/internal/testkit"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for the tool's children:
// "-server self" re-executes os.Executable() with "serve", the render
// comparison with "bare".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "serve" || os.Args[1] == "bare") {
		child := serve
		if os.Args[1] == "bare" {
			child = bare
		}
		if err := child(os.Args[2:], os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:8080/", "http://[::1]:9000", "https://127.0.0.2:1"} {
		if _, err := loopbackURL(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://192.168.1.10:8080", "http://10.0.0.1", "http://8.8.8.8:80", "ftp://127.0.0.1", "127.0.0.1:8080", "http://[::ffff:1.2.3.4]:80"} {
		if _, err := loopbackURL(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
}

func TestFlagBounds(t *testing.T) {
	for _, args := range [][]string{
		{"-streams", "5001"}, {"-streams", "-1"}, {"-rate", "0"}, {"-rate", "501"}, {"-duration", "11m"},
		{"-cycles", "100001"}, {"-needle", "no placeholder"}, {"-url", "http://127.0.0.1:1", "-restarts", "1"}, {"extra"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	c, err := parseFlags([]string{"-streams", "1000", "-members", "maya,theo"}, io.Discard)
	if err != nil || c.streams != 1000 || c.rate != 20 || len(c.members) != 2 {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	d := summarize(ds)
	if d.N != 100 || d.P50 != 50*time.Millisecond || d.P99 != 99*time.Millisecond || d.Max != 100*time.Millisecond {
		t.Fatalf("%+v", d)
	}
	if d := summarize([]time.Duration{7}); d.P50 != 7 || d.P99 != 7 {
		t.Fatalf("%+v", d)
	}
}

// Weights are unique per member in what the widget shows, including after
// the server's rounding to 0.01 kg and the conversion to pounds, and every
// one lies within markerBand of the member's weight (the server would
// question one further out and not show it as current).
func TestUniqueNeedles(t *testing.T) {
	for _, c := range []struct {
		unit    string
		center  float64
		atLeast int
	}{{"kg", 72, 190}, {"lb", 160, 400}} {
		m := &member{id: "x", unit: c.unit, seen: map[string]bool{}, center: c.center}
		seen := map[string]bool{}
		n := 0
		for ; ; n++ {
			w, err := m.nextWrite(`<span class="num">%s</span>`)
			if err != nil {
				break
			}
			if seen[string(w.needle)] {
				t.Fatalf("%s: needle %s repeated", c.unit, w.needle)
			}
			seen[string(w.needle)] = true
			shown := health.Unit(c.unit).FromKg(w.kg)
			if math.Abs(shown-c.center) > c.center*markerBand+0.05 {
				t.Fatalf("%s: marker %.2f is outside the band around %.0f", c.unit, shown, c.center)
			}
			m.writes = append(m.writes, w)
		}
		if n < c.atLeast {
			t.Errorf("%s: only %d unique markers in the band, want at least %d", c.unit, n, c.atLeast)
		}
	}
}

// A patch showing write 3 delivers writes 1-3 on that stream (coalesced
// renders skip intermediate values); a later patch of write 3 adds nothing.
func TestDeliveryAccounting(t *testing.T) {
	m := &member{id: "maya", unit: "kg", seen: map[string]bool{}, center: 72}
	for range 4 {
		w, _ := m.nextWrite(`<span class="num">%s</span>`)
		w.sent = time.Now().Add(-10 * time.Millisecond)
		m.writes = append(m.writes, w)
	}
	s := &stream{m: m}
	body := "event: datastar-patch-elements\ndata: elements <div><span class=\"num\">72.2</span></div>\n\n" +
		"event: datastar-patch-elements\ndata: elements <span class=\"num\">72.2</span>\n\n"
	first := make(chan struct{})
	s.read(strings.NewReader(body), first, time.Now())
	if s.upto != 3 || len(s.lat) != 3 || s.events != 2 {
		t.Fatalf("upto %d, %d latencies, %d events", s.upto, len(s.lat), s.events)
	}
	for i, w := range m.writes {
		want := int32(1)
		if i == 3 {
			want = 0
		}
		if w.delivered.Load() != want {
			t.Errorf("write %d delivered %d times, want %d", i, w.delivered.Load(), want)
		}
	}
}

// A long line (a big patch) is read whole even past the reader's buffer.
func TestLongLines(t *testing.T) {
	m := &member{id: "maya", unit: "kg", seen: map[string]bool{}, center: 72}
	w, _ := m.nextWrite(`<span class="num">%s</span>`)
	w.sent = time.Now()
	m.writes = append(m.writes, w)
	pad := strings.Repeat("x", 100<<10)
	body := "event: datastar-patch-elements\ndata: elements <div>" + pad + string(w.needle) + pad + "</div>\n\n"
	s := &stream{m: m}
	s.read(strings.NewReader(body), make(chan struct{}), time.Now())
	if s.upto != 1 {
		t.Fatal("needle beyond the buffer size was missed")
	}
}

// TestRunEndToEnd runs the tool against its own server child: a few
// streams, a second of writes, the render comparison and some cycles.
func TestRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	out := filepath.Join(t.TempDir(), "report.json")
	var stdout, stderr bytes.Buffer
	err := run([]string{"-streams", "6", "-rate", "10", "-duration", "1s", "-settle", "100ms", "-grace", "3s",
		"-render", "1", "-render-slice", "200ms", "-cycles", "30", "-json", out}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var rep report
	raw, _ := os.ReadFile(out)
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	f := rep.Fanout
	if f == nil || f.Writes < 5 || f.Delivery.N == 0 || f.Missing != 0 || f.OpenFailed != 0 {
		t.Fatalf("fan-out: %+v\n%s", f, stdout.String())
	}
	if f.Expected != f.Delivery.N {
		t.Fatalf("expected %d deliveries, measured %d", f.Expected, f.Delivery.N)
	}
	if rep.Idle.Goroutines <= 0 || rep.Idle.RSS == 0 || rep.ReadyMS <= 0 {
		t.Fatalf("no server figures: %+v", rep)
	}
	if rep.Render == nil || rep.Render.Ratio <= 0 || rep.Cycles == nil || rep.Cycles.Errors != 0 {
		t.Fatalf("render %+v cycles %+v", rep.Render, rep.Cycles)
	}
	if len(rep.Render.BareRPS) != 1 || rep.Render.BareRPS[0] <= 0 {
		t.Fatalf("render: no rate against the bare server: %+v", rep.Render)
	}
	for _, want := range []string{"delivery (write sent", "per stream:", "cycles: 30", "shutdown:"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestHTTPSuite runs the wrk suite briefly (skipped where wrk is not
// installed; CI installs it): every case answers, the 304 case really is a
// 304 (a few hundred bytes, not the page), gzip is smaller than the page,
// and the ratios are computed against the bare server.
func TestHTTPSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	testkit.NeedTool(t, "wrk", "wrk")
	out := filepath.Join(t.TempDir(), "http.json")
	var stdout, stderr bytes.Buffer
	if err := httpSuite([]string{"-rounds", "1", "-d", "2s", "-c", "4", "-t", "1", "-json", out}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var rep wrkReport
	raw, _ := os.ReadFile(out)
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	by := map[string]*wrkCase{}
	for _, k := range rep.Cases {
		if k.Median <= 0 {
			t.Errorf("%s: no requests measured", k.Name)
		}
		by[k.Name] = k
	}
	page, gz, nm := by["page (kiosk with its cookie)"], by["page, gzip"], by["page, revalidated (304)"]
	if page == nil || gz == nil || nm == nil || page.Bytes < 10_000 || gz.Bytes >= page.Bytes/2 || nm.Bytes > 2_000 {
		t.Fatalf("bytes per response: page %+v gzip %+v 304 %+v", page, gz, nm)
	}
	if rep.Ratios["page/bare"] <= 0 {
		t.Fatalf("ratios: %v", rep.Ratios)
	}
	if !strings.Contains(stdout.String(), "× bare") {
		t.Errorf("report:\n%s", stdout.String())
	}
}
