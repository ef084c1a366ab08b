package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"

	"hearth/internal/health"
)

// numberPattern finds numbers as people write them: 1,640 or 81.4 or 7.
// A leading sign is not part of the number ("-0.6 kg" states 0.6 down).
var numberPattern = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`)

// Numbers is the set of figures the coach was given: every number in the
// gathered facts, the prompt and its tool results, by absolute value,
// rounded to 0, 1 and 2 decimals. A figure in the plan matches when a fact
// rounds to it at the precision it is written with: "81" matches 81.4,
// "81.0" does not.
type Numbers struct{ byDecimals [3]map[int64]bool }

// NewNumbers returns an empty set.
func NewNumbers() *Numbers {
	n := &Numbers{}
	for i := range n.byDecimals {
		n.byDecimals[i] = map[int64]bool{}
	}
	return n
}

// Add adds a value.
func (n *Numbers) Add(v float64) {
	v = math.Abs(v)
	if math.IsNaN(v) || math.IsInf(v, 0) || v > 1e12 {
		return
	}
	for d := range n.byDecimals {
		n.byDecimals[d][int64(math.Round(v*math.Pow10(d)))] = true
	}
}

// Has reports whether v written with decimals places is a fact.
func (n *Numbers) Has(v float64, decimals int) bool {
	decimals = min(decimals, len(n.byDecimals)-1)
	return n.byDecimals[decimals][int64(math.Round(math.Abs(v)*math.Pow10(decimals)))]
}

// AddText adds every number written in s.
func (n *Numbers) AddText(s string) {
	for _, tok := range numberPattern.FindAllString(s, -1) {
		if v, _, ok := parseNumber(tok); ok {
			n.Add(v)
		}
	}
}

// AddJSON adds every number of a JSON document, and the numbers inside its
// strings. Invalid JSON is read as text.
func (n *Numbers) AddJSON(raw []byte) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		n.AddText(string(raw))
		return
	}
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case json.Number:
			if f, err := t.Float64(); err == nil {
				n.Add(f)
			}
		case string:
			n.AddText(t)
		case []any:
			for _, e := range t {
				walk(e)
			}
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(doc)
}

// parseNumber reads a token numberPattern found.
func parseNumber(tok string) (v float64, decimals int, ok bool) {
	plain := strings.ReplaceAll(tok, ",", "")
	f, err := strconv.ParseFloat(plain, 64)
	if err != nil {
		return 0, 0, false
	}
	if i := strings.IndexByte(plain, '.'); i >= 0 {
		decimals = len(plain) - i - 1
	}
	return f, decimals, true
}

// Figure is one number stated in the plan's words.
type Figure struct {
	Path  string `json:"path"`
	Text  string `json:"text"`
	Known bool   `json:"known"`
}

// figures lists the numbers in text and whether each is a fact.
func figures(path, text string, facts *Numbers) []Figure {
	var out []Figure
	for _, tok := range numberPattern.FindAllString(text, -1) {
		v, d, ok := parseNumber(tok)
		if !ok {
			continue
		}
		out = append(out, Figure{Path: path, Text: tok, Known: facts.Has(v, d)})
	}
	return out
}

// unitPattern finds a figure followed by a unit of weight or energy.
var unitPattern = regexp.MustCompile(`(?i)(\d[\d,]*(?:\.\d+)?)\s*(kg|kgs|kilograms?|kilos?|lbs?|pounds?|kj|kilojoules?|kcal|calories|cal)\b`)

// unitProblems reports figures written in a unit the member does not use:
// weights in the other system, energy in kilojoules (Hearth keeps kcal and
// converts imported kJ).
func unitProblems(path, text string, unit health.Unit) []string {
	var out []string
	for _, m := range unitPattern.FindAllStringSubmatch(text, -1) {
		u := strings.ToLower(m[2])
		switch {
		case strings.HasPrefix(u, "k") && (u == "kj" || strings.HasPrefix(u, "kilojoule")):
			out = append(out, path+": "+m[0]+" is in kilojoules; Hearth speaks kcal")
		case isKgUnit(u) && unit == health.LB:
			out = append(out, path+": "+m[0]+" is in kg for a member who uses lb")
		case isLbUnit(u) && unit != health.LB:
			out = append(out, path+": "+m[0]+" is in lb for a member who uses kg")
		}
	}
	return out
}

func isKgUnit(u string) bool {
	return u == "kg" || u == "kgs" || strings.HasPrefix(u, "kilogram") || u == "kilo" || u == "kilos"
}

func isLbUnit(u string) bool { return u == "lb" || u == "lbs" || strings.HasPrefix(u, "pound") }
