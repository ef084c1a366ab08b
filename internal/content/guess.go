package content

import (
	"strings"
	"unicode"
)

// kindWords maps title words to kinds, checked in order (first match wins).
var kindWords = []struct {
	kind  Kind
	words []string
}{
	{KindWarmUp, []string{"warm-up", "warmup", "warm"}},
	{KindCoolDown, []string{"cool-down", "cooldown", "cool"}},
	{KindStretch, []string{"stretch", "stretching", "flexibility"}},
	{KindYoga, []string{"yoga", "vinyasa", "yin", "hatha"}},
	{KindPilates, []string{"pilates", "barre"}},
	{KindHIIT, []string{"hiit", "tabata", "intervals", "plyo", "plyometrics"}},
	{KindMobility, []string{"mobility"}},
	{KindRecovery, []string{"recovery", "restorative"}},
	{KindCore, []string{"core", "abs", "ab"}},
	{KindStrength, []string{"strength", "weights", "lifting", "dumbbell", "kettlebell", "resistance"}},
	{KindCardio, []string{"cardio", "cycle", "cycling", "ride", "spin", "run", "running", "row", "rowing"}},
	{KindDance, []string{"dance"}},
	{KindWalk, []string{"walk", "walking"}},
}

// GuessKind guesses an item's kind from its title, then from its show or
// program title, by whole words; KindMain when nothing matches.
func GuessKind(titles ...string) Kind {
	for _, t := range titles {
		words := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
		})
		set := make(map[string]bool, len(words)*2)
		for _, w := range words {
			set[w] = true
			for _, part := range strings.Split(w, "-") {
				set[part] = true
			}
		}
		for _, kw := range kindWords {
			for _, w := range kw.words {
				if set[w] {
					return kw.kind
				}
			}
		}
	}
	return KindMain
}
