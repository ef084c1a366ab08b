package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// report is what one Lighthouse run says about the page.
type report struct {
	Score      float64 // performance, 0-100
	TBT        float64 // ms
	LCP, FCP   float64 // ms
	SI, TTI    float64 // ms
	CLS        float64
	DOM        float64 // elements
	MainThread float64 // ms of main-thread work (all groups)
	Bytes      float64 // total transfer bytes
	Groups     map[string]float64
	Bootup     map[string]bootup // by script (origin and content hash cut off)
	LongTasks  map[string]float64
	NumLong    float64
	Warnings   []string
}

type bootup struct{ Total, Scripting, Parse float64 }

type lhJSON struct {
	Categories struct {
		Performance struct {
			Score *float64 `json:"score"`
		} `json:"performance"`
	} `json:"categories"`
	Audits      map[string]lhAudit `json:"audits"`
	RunWarnings []string           `json:"runWarnings"`
}

type lhAudit struct {
	NumericValue float64         `json:"numericValue"`
	Details      json.RawMessage `json:"details"` // shapes differ by audit: items reads the tables
}

// items are the rows of an audit's table (nil for other shapes).
func (a lhAudit) items() []map[string]any {
	var d struct {
		Items []map[string]any `json:"items"`
	}
	_ = json.Unmarshal(a.Details, &d)
	return d.Items
}

func parseReport(b []byte) (report, error) {
	var j lhJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return report{}, fmt.Errorf("lighthouse report: %w", err)
	}
	if j.Categories.Performance.Score == nil {
		return report{}, fmt.Errorf("lighthouse report has no performance score (warnings: %v)", j.RunWarnings)
	}
	a := j.Audits
	r := report{
		Score:      *j.Categories.Performance.Score * 100,
		TBT:        a["total-blocking-time"].NumericValue,
		LCP:        a["largest-contentful-paint"].NumericValue,
		FCP:        a["first-contentful-paint"].NumericValue,
		SI:         a["speed-index"].NumericValue,
		TTI:        a["interactive"].NumericValue,
		CLS:        a["cumulative-layout-shift"].NumericValue,
		DOM:        a["dom-size"].NumericValue,
		MainThread: a["mainthread-work-breakdown"].NumericValue,
		Bytes:      a["total-byte-weight"].NumericValue,
		Groups:     map[string]float64{},
		Bootup:     map[string]bootup{},
		LongTasks:  map[string]float64{},
		Warnings:   j.RunWarnings,
	}
	for _, it := range a["mainthread-work-breakdown"].items() {
		r.Groups[str(it["groupLabel"])] += num(it["duration"])
	}
	for _, it := range a["bootup-time"].items() {
		u := shortURL(str(it["url"]))
		b := r.Bootup[u]
		b.Total += num(it["total"])
		b.Scripting += num(it["scripting"])
		b.Parse += num(it["scriptParseCompile"])
		r.Bootup[u] = b
	}
	for _, it := range a["long-tasks"].items() {
		r.LongTasks[shortURL(str(it["url"]))] += num(it["duration"])
		r.NumLong++
	}
	return r, nil
}

func str(v any) string { s, _ := v.(string); return s }
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// contentHash is the part of a static file's name that changes with its
// bytes (/static/hearth.<sha256:10>.js): cut, so runs of different builds
// line up.
var contentHash = regexp.MustCompile(`\.[0-9a-f]{10}\.`)

// shortURL is a URL without its origin and content hash: /static/hearth.js.
func shortURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	p := contentHash.ReplaceAllString(u.Path, ".")
	if u.RawQuery != "" {
		p += "?…"
	}
	return p
}

func (r report) summary() string {
	return fmt.Sprintf("perf %3.0f  TBT %5.0f ms  LCP %5.0f ms  CLS %.3f  DOM %4.0f  FCP %5.0f  TTI %5.0f  main thread %5.0f ms  long tasks %.0f",
		r.Score, r.TBT, r.LCP, r.CLS, r.DOM, r.FCP, r.TTI, r.MainThread, r.NumLong)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianOf is the median of f over the runs.
func medianOf(rs []report, f func(report) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	return median(xs)
}

// keys are the map keys seen in any run, ordered by their median, largest
// first.
func keys(rs []report, m func(report) map[string]float64) []string {
	seen := map[string]bool{}
	for _, r := range rs {
		for k := range m(r) {
			seen[k] = true
		}
	}
	ks := make([]string, 0, len(seen))
	for k := range seen {
		ks = append(ks, k)
	}
	med := func(k string) float64 { return medianOf(rs, func(r report) float64 { return m(r)[k] }) }
	sort.Slice(ks, func(i, j int) bool {
		if a, b := med(ks[i]), med(ks[j]); a != b {
			return a > b
		}
		return ks[i] < ks[j]
	})
	return ks
}

func printMedians(w io.Writer, rs []report) {
	med := func(f func(report) float64) float64 { return medianOf(rs, f) }
	fmt.Fprintf(w, "performance %.0f   TBT %.0f ms   LCP %.0f ms   CLS %.3f   DOM %.0f elements\n",
		med(func(r report) float64 { return r.Score }), med(func(r report) float64 { return r.TBT }),
		med(func(r report) float64 { return r.LCP }), med(func(r report) float64 { return r.CLS }),
		med(func(r report) float64 { return r.DOM }))
	fmt.Fprintf(w, "FCP %.0f ms   speed index %.0f ms   TTI %.0f ms   main-thread work %.0f ms   long tasks %.0f   bytes %.0f\n",
		med(func(r report) float64 { return r.FCP }), med(func(r report) float64 { return r.SI }),
		med(func(r report) float64 { return r.TTI }), med(func(r report) float64 { return r.MainThread }),
		med(func(r report) float64 { return r.NumLong }), med(func(r report) float64 { return r.Bytes }))
	fmt.Fprintln(w, "main-thread work by kind (mainthread-work-breakdown, ms, 4× CPU slowdown):")
	for _, k := range keys(rs, func(r report) map[string]float64 { return r.Groups }) {
		fmt.Fprintf(w, "  %-32s %6.0f\n", k, med(func(r report) float64 { return r.Groups[k] }))
	}
	fmt.Fprintln(w, "main-thread work by script (bootup-time, ms): total / scripting / parse+compile:")
	total := func(r report) map[string]float64 {
		m := map[string]float64{}
		for k, b := range r.Bootup {
			m[k] = b.Total
		}
		return m
	}
	for _, k := range keys(rs, total) {
		fmt.Fprintf(w, "  %-32s %6.0f %6.0f %6.0f\n", k, med(func(r report) float64 { return r.Bootup[k].Total }),
			med(func(r report) float64 { return r.Bootup[k].Scripting }), med(func(r report) float64 { return r.Bootup[k].Parse }))
	}
	fmt.Fprintln(w, "long tasks by script (long-tasks, ms summed per run):")
	for _, k := range keys(rs, func(r report) map[string]float64 { return r.LongTasks }) {
		fmt.Fprintf(w, "  %-32s %6.0f\n", k, med(func(r report) float64 { return r.LongTasks[k] }))
	}
	warned := map[string]int{}
	for _, r := range rs {
		for _, s := range r.Warnings {
			warned[s]++
		}
	}
	for s, n := range warned {
		fmt.Fprintf(w, "warning in %d of %d runs: %s\n", n, len(rs), strings.TrimSpace(s))
	}
}
