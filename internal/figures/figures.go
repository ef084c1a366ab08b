// Package figures finds the numbers written in text and keeps sets of
// known figures: the coach's validation (every number in its words must
// come from the facts) and the eval's numbers grader share it.
package figures

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Pattern finds numbers as people write them: 1,640 or 81.4 or 7. A
// leading sign is not part of the number ("-0.6 kg" states 0.6 down).
var Pattern = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`)

// Parse reads a token Pattern found: its value and how many decimals it
// is written with.
func Parse(tok string) (v float64, decimals int, ok bool) {
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

// Set holds absolute values keyed by their rounding to 0, 1 and 2
// decimals, so a figure matches when a known value rounds to it at the
// precision it is written with: "81" matches 81.4, "81.0" does not.
type Set struct{ byDecimals [3]map[int64]bool }

// New returns an empty set.
func New() *Set {
	s := &Set{}
	for i := range s.byDecimals {
		s.byDecimals[i] = map[int64]bool{}
	}
	return s
}

// Add adds a value (NaN, infinities and absurd magnitudes are ignored).
func (s *Set) Add(v float64) {
	v = math.Abs(v)
	if math.IsNaN(v) || math.IsInf(v, 0) || v > 1e12 {
		return
	}
	for d := range s.byDecimals {
		s.byDecimals[d][int64(math.Round(v*math.Pow10(d)))] = true
	}
}

// Has reports whether v, written with decimals places, is in the set.
func (s *Set) Has(v float64, decimals int) bool {
	decimals = min(decimals, len(s.byDecimals)-1)
	return s.byDecimals[decimals][int64(math.Round(math.Abs(v)*math.Pow10(decimals)))]
}

// AddText adds every number written in text.
func (s *Set) AddText(text string) {
	for _, tok := range Pattern.FindAllString(text, -1) {
		if v, _, ok := Parse(tok); ok {
			s.Add(v)
		}
	}
}

// AddJSON adds every number of a JSON document and the numbers written in
// its strings; a document that does not decode is read as text.
func (s *Set) AddJSON(raw []byte) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		s.AddText(string(raw))
		return
	}
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case json.Number:
			if f, err := t.Float64(); err == nil {
				s.Add(f)
			}
		case string:
			s.AddText(t)
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

// Of collects the figures of v's JSON form.
func Of(v any) (*Set, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := New()
	s.AddJSON(raw)
	return s, nil
}
