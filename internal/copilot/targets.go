package copilot

import (
	"regexp"
	"strings"
)

// targetPatterns read a member's targets from plain words: "1800 kcal",
// "protein 120", "120 g protein", "goal weight 65", "170 cm". Each has the
// number in its first non-empty group.
var targetPatterns = []struct {
	field string
	res   []*regexp.Regexp
}{
	{"calories", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d{3,4})\s*(?:kcal|calories|cals?)\b`),
		regexp.MustCompile(`(?i)\bcalories?(?:\s+target)?\s*(?:to|of|at|is|:|=)?\s*(\d{3,4})\b`)}},
	{"protein_g", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d{1,3})\s*(?:g|grams?)?\s+(?:of\s+)?protein\b`),
		regexp.MustCompile(`(?i)\bprotein(?:\s+target)?\s*(?:to|of|at|is|:|=)?\s*(\d{1,3})\b`)}},
	{"carbs_g", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d{1,4})\s*(?:g|grams?)?\s+(?:of\s+)?carbs?\b`),
		regexp.MustCompile(`(?i)\bcarbs?(?:\s+target)?\s*(?:to|of|at|is|:|=)?\s*(\d{1,4})\b`)}},
	{"fat_g", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d{1,3})\s*(?:g|grams?)?\s+(?:of\s+)?fats?\b`),
		regexp.MustCompile(`(?i)\bfats?(?:\s+target)?\s*(?:to|of|at|is|:|=)?\s*(\d{1,3})\b`)}},
	{"goal_weight", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bgoal(?:\s+weight)?\s*(?:to|of|at|is|:|=)?\s*(\d{2,3}(?:[.,]\d)?)\b`)}},
	{"height_cm", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(\d{2,3})\s*cm\b`),
		regexp.MustCompile(`(?i)\bheight\s*(?:to|of|at|is|:|=)?\s*(\d{2,3})\b`)}},
}

// activityWords map plain words to the activity levels.
var activityWords = []struct {
	re    *regexp.Regexp
	level string
}{
	{regexp.MustCompile(`(?i)\bvery\s+active\b`), "very_active"},
	{regexp.MustCompile(`(?i)\bsedentary\b|\bdesk\s+job\b`), "sedentary"},
	{regexp.MustCompile(`(?i)\blightly\s+active\b|\blight\s+activity\b`), "light"},
	{regexp.MustCompile(`(?i)\bmoderately\s+active\b|\bmoderate(?:\s+activity)?\b`), "moderate"},
	{regexp.MustCompile(`(?i)\bactive\b`), "active"},
}

// readTargets returns the targets the words name (in the form's field
// order) and the words without them (so "protein 90" is not an age).
func readTargets(ask string) ([]FieldValue, string) {
	var out []FieldValue
	rest := ask
	for _, tp := range targetPatterns {
		for _, re := range tp.res {
			m := re.FindStringSubmatch(rest)
			if m == nil {
				continue
			}
			out = append(out, FieldValue{tp.field, Value(strings.ReplaceAll(m[1], ",", "."))})
			rest = strings.Replace(rest, m[0], " ", 1)
			break
		}
	}
	for _, a := range activityWords {
		if m := a.re.FindString(rest); m != "" {
			out = append(out, FieldValue{"activity_level", Value(a.level)})
			rest = strings.Replace(rest, m, " ", 1)
			break
		}
	}
	return out, rest
}
