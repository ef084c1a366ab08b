package coach

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"hearth/internal/agent"
)

// FreeNumberMax: whole numbers up to this may appear in the coach's words
// without being in the facts ("two rest days", "3 sets"); every other
// number must match a figure of the gathered data at the precision written.
const FreeNumberMax = 10

// numberPattern finds numbers as people write them: 1,640 or 81.4 or 7.
var numberPattern = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`)

// numberSet holds the absolute values of every number in the facts, keyed
// by their rounding to 0, 1 and 2 decimals.
type numberSet struct{ byDecimals [3]map[int64]bool }

func newNumberSet() *numberSet {
	s := &numberSet{}
	for i := range s.byDecimals {
		s.byDecimals[i] = map[int64]bool{}
	}
	return s
}

func (s *numberSet) add(v float64) {
	v = math.Abs(v)
	if math.IsNaN(v) || math.IsInf(v, 0) || v > 1e12 {
		return
	}
	for d := range s.byDecimals {
		s.byDecimals[d][int64(math.Round(v*math.Pow10(d)))] = true
	}
}

// has reports whether a number written with decimals places matches a fact
// rounded the same way.
func (s *numberSet) has(v float64, decimals int) bool {
	decimals = min(decimals, len(s.byDecimals)-1)
	return s.byDecimals[decimals][int64(math.Round(math.Abs(v)*math.Pow10(decimals)))]
}

// addText adds the numbers written in s.
func (s *numberSet) addText(text string) {
	for _, tok := range numberPattern.FindAllString(text, -1) {
		if v, _, ok := parseNumber(tok); ok {
			s.add(v)
		}
	}
}

// collectNumbers walks v's JSON (numbers, and numbers inside strings).
func collectNumbers(v any) (*numberSet, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	s := newNumberSet()
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case json.Number:
			if f, err := t.Float64(); err == nil {
				s.add(f)
			}
		case string:
			s.addText(t)
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
	return s, nil
}

// parseNumber reads a token found by numberPattern.
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

// checkNumbers reports numbers in text that the facts do not contain.
func checkNumbers(path, text string, facts *numberSet) []agent.ValidationError {
	var out []agent.ValidationError
	for _, tok := range numberPattern.FindAllString(text, -1) {
		v, d, ok := parseNumber(tok)
		if !ok || (d == 0 && v <= FreeNumberMax) || facts.has(v, d) {
			continue
		}
		out = append(out, agent.ValidationError{Path: path, Message: fmt.Sprintf(
			"the number %s is not in the facts; use only figures from the facts or tool results, as given", tok)})
	}
	return out
}
