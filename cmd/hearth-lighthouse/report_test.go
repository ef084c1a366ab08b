package main

import (
	"strings"
	"testing"
)

// A report in the shape Lighthouse 12 writes (only the fields read), with
// an audit whose details are not a table.
const sampleReport = `{
 "categories": {"performance": {"score": 0.97}},
 "runWarnings": ["slow"],
 "audits": {
  "total-blocking-time": {"numericValue": 143},
  "largest-contentful-paint": {"numericValue": 1738.4},
  "cumulative-layout-shift": {"numericValue": 0},
  "dom-size": {"numericValue": 524, "details": {"type": "table", "items": [{"statistic": "Total DOM Elements", "value": {"type": "numeric", "value": 524}}]}},
  "screenshot-thumbnails": {"details": {"type": "filmstrip", "items": [{"timing": 1}]}},
  "final-screenshot": {"details": {"type": "screenshot", "data": "x"}},
  "mainthread-work-breakdown": {"numericValue": 1067.7, "details": {"items": [
    {"group": "other", "groupLabel": "Other", "duration": 579},
    {"group": "scriptEvaluation", "groupLabel": "Script Evaluation", "duration": 251.6}]}},
  "bootup-time": {"details": {"items": [
    {"url": "http://127.0.0.1:18199/static/hearth.b98f6f6fad.js", "total": 200.9, "scripting": 140.9, "scriptParseCompile": 4.2},
    {"url": "Unattributable", "total": 502.3, "scripting": 3.7, "scriptParseCompile": 0}]}},
  "long-tasks": {"details": {"items": [
    {"url": "http://127.0.0.1:18199/static/datastar.e7d6ad0e83.js", "duration": 106},
    {"url": "http://127.0.0.1:18199/static/datastar.e7d6ad0e83.js", "duration": 60},
    {"url": "http://127.0.0.1:18199/live/m/maya?datastar=%7B%7D", "duration": 51}]}}
 }
}`

func TestParseReport(t *testing.T) {
	r, err := parseReport([]byte(sampleReport))
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 97 || r.TBT != 143 || r.DOM != 524 || r.MainThread != 1067.7 || r.NumLong != 3 {
		t.Fatalf("parsed %+v", r)
	}
	if r.Groups["Other"] != 579 || r.Bootup["/static/hearth.js"].Scripting != 140.9 || r.Bootup["Unattributable"].Total != 502.3 {
		t.Fatalf("breakdown %+v %+v", r.Groups, r.Bootup)
	}
	if r.LongTasks["/static/datastar.js"] != 166 || r.LongTasks["/live/m/maya?…"] != 51 {
		t.Fatalf("long tasks %+v", r.LongTasks)
	}
	if _, err := parseReport([]byte(`{"categories": {}}`)); err == nil {
		t.Fatal("a report without a performance score parsed")
	}
}

func TestMedians(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Fatalf("median of 5 1 3 = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Fatalf("median of 4 1 3 2 = %v", m)
	}
	rs := []report{{Score: 90, TBT: 300, Groups: map[string]float64{"Other": 10}}, {Score: 99, TBT: 100, Groups: map[string]float64{"Other": 30, "Style & Layout": 5}}, {Score: 95, TBT: 200, Groups: map[string]float64{}}}
	var b strings.Builder
	printMedians(&b, rs)
	out := b.String()
	for _, want := range []string{"performance 95   TBT 200 ms", "Other                                10", "Style & Layout                        0"} {
		if !strings.Contains(out, want) {
			t.Errorf("medians lack %q:\n%s", want, out)
		}
	}
}
