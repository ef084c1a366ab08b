package eval

import (
	"regexp"
	"strings"

	"hearth/internal/figures"
	"hearth/internal/health"
)

// Numbers is the set of figures the coach was given: every number in the
// gathered facts, the prompt and its tool results (package figures).
type Numbers = figures.Set

// NewNumbers returns an empty set.
func NewNumbers() *Numbers { return figures.New() }

// Figure is one number stated in the plan's words.
type Figure struct {
	Path  string `json:"path"`
	Text  string `json:"text"`
	Known bool   `json:"known"`
}

// figuresIn lists the numbers in text and whether each is a fact.
func figuresIn(path, text string, facts *Numbers) []Figure {
	var out []Figure
	for _, tok := range figures.Pattern.FindAllString(text, -1) {
		v, d, ok := figures.Parse(tok)
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
