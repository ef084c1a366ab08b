package coach

import (
	"fmt"

	"hearth/internal/agent"
	"hearth/internal/figures"
)

// FreeNumberMax: whole numbers up to this may appear in the coach's words
// without being in the facts ("two rest days", "3 sets"); every other
// number must match a figure of the gathered data at the precision written.
const FreeNumberMax = 10

// numberSet holds every number of the facts (package figures).
type numberSet = figures.Set

// collectNumbers walks v's JSON (numbers, and numbers inside strings).
func collectNumbers(v any) (*numberSet, error) { return figures.Of(v) }

// checkNumbers reports numbers in text that the facts do not contain.
func checkNumbers(path, text string, facts *numberSet) []agent.ValidationError {
	var out []agent.ValidationError
	for _, tok := range figures.Pattern.FindAllString(text, -1) {
		v, d, ok := figures.Parse(tok)
		if !ok || (d == 0 && v <= FreeNumberMax) || facts.Has(v, d) {
			continue
		}
		out = append(out, agent.ValidationError{Path: path, Message: fmt.Sprintf(
			"the number %s is not in the facts; use only figures from the facts or tool results, as given", tok)})
	}
	return out
}
