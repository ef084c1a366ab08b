package coach

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Health conditions and life stage (README.md, "The coach's judgement").
// A condition a member states in ordinary words ("I'm pregnant", "I have
// osteoporosis", "a heart condition") is kept under condition:<name> and,
// like an injury, limits what is offered, is named in the briefing with a
// word about their clinician, and is asked about again after a while. The
// member's age, from the birth date on their profile, puts them in a life
// stage (a minor, an older adult) with limits of its own.
const keyCondition = "condition:"

// Life stages by age: WHO's guidelines speak to children and adolescents
// (5–17) and to older adults (65 and over) apart from other adults.
const (
	MinorAge      = 18 // under this: a minor
	OlderAdultAge = 65 // this and over: an older adult

	lifeStageMinor = "minor"
	lifeStageOlder = "older adult"
)

// lifeStage names the age group ("" for adults 18–64 and an unknown age).
func lifeStage(age int) string {
	switch {
	case age <= 0:
		return ""
	case age < MinorAge:
		return lifeStageMinor
	case age >= OlderAdultAge:
		return lifeStageOlder
	}
	return ""
}

// condition is one kind of health condition: how people say it, how long
// it is kept, when it is asked about again, and what it changes.
type condition struct {
	key  string // memory key
	name string // as the briefing names it ("your …")
	said *regexp.Regexp
	// over: how people say it no longer applies (nil: only through the
	// follow-up question or an admin).
	over *regexp.Regexp
	ttl  time.Duration // 0: kept until said otherwise
	// followUpDays: asked about again this long after it was said.
	followUpDays int
	// What it changes: no push toward a lower weight, nothing high-impact,
	// nothing high-intensity.
	noWeightLossPush, avoidHighImpact, avoidHighIntensity bool
	// clinician is whose advice comes first ("midwife's or doctor's").
	clinician string
}

// healthConditions are the conditions the coach recognises, in the order the
// briefing names them.
var healthConditions = []condition{
	{key: keyCondition + "pregnancy", name: "pregnancy",
		said: regexp.MustCompile(`\bpregnan(?:t|cy)\b|\bexpecting\s+(?:a\s+baby|a\s+child|twins)\b|\b(?:first|second|third|1st|2nd|3rd)\s+trimester\b|\bmy\s+due\s+date\b`),
		over: regexp.MustCompile(`\b(?:had|have\s+had)\s+(?:the|my|our)\s+baby\b|\bgave\s+birth\b|\bbaby\s+(?:was|is|has\s+been)\s+born\b|\bno\s+longer\s+pregnant\b|\bnot\s+pregnant\s+any\s*more\b`),
		// A pregnancy ends: kept at most about 40 weeks and asked about
		// every four weeks.
		ttl: 280 * 24 * time.Hour, followUpDays: 28,
		noWeightLossPush: true, avoidHighImpact: true, avoidHighIntensity: true, clinician: "midwife's or doctor's"},
	{key: keyCondition + "osteoporosis", name: "osteoporosis",
		said:         regexp.MustCompile(`\bosteoporo(?:sis|tic)\b|\bosteopenia\b|\bbrittle\s+bones\b|\blow\s+bone\s+(?:density|mass)\b`),
		followUpDays: 90, noWeightLossPush: true, avoidHighImpact: true, clinician: "doctor's"},
	{key: keyCondition + "heart", name: "heart condition",
		said: regexp.MustCompile(`\bheart\s+(?:condition|disease|problems?|issues?|failure|attack|surgery|bypass|trouble|murmur|valve)\b|` +
			`\bstents?\b|\bangina\b|\barrhythmias?\b|\batrial\s+fibrillation\b|\ba-?fib\b|\bpacemaker\b|\bcardiac\b|\bcardiomyopathy\b|\bcoronary\b`),
		followUpDays: 90, avoidHighIntensity: true, clinician: "doctor's or cardiologist's"},
}

// conditionOf returns the condition kept under key.
func conditionOf(key string) (condition, bool) {
	for _, c := range healthConditions {
		if c.key == key {
			return c, true
		}
	}
	return condition{}, false
}

// reSomeoneElse: the clause is about someone else ("my wife is pregnant",
// "my mum has osteoporosis").
var reSomeoneElse = regexp.MustCompile(`\b(?:my|our|his|her|their)\s+(?:mum|mom|mother|dad|father|wife|husband|partner|girlfriend|boyfriend|` +
	`sister|brother|son|daughter|friend|grandma|grandmother|granny|grandpa|grandfather|aunt|uncle|colleague|neighbou?r|boss|kid|child)s?\b|` +
	`\b(?:she|he|they)(?:'s|\s+is|\s+has|\s+had|\s+was)?\b`)

// reClause is where a clause starts: what is said before it is not about
// the condition.
var reClause = regexp.MustCompile(`[.;!?]|\bbut\b|\band\s+i\b`)

// aboutSomeoneElse reports a clause before position i of low that is about
// another person.
func aboutSomeoneElse(low string, i int) bool {
	before := low[:i]
	if ix := reClause.FindAllStringIndex(before, -1); len(ix) > 0 {
		before = before[ix[len(ix)-1][1]:]
	}
	return reSomeoneElse.MatchString(before)
}

// reNotCondition: a negation shortly before ("I'm not pregnant", "no
// heart problems", "never had a heart attack").
var reNotCondition = regexp.MustCompile(`(?:\b(?:no|not|never|without)|n't)(?:\s+\S+){0,2}\s+$`)

// conditionsSaid finds the conditions the member states about themselves
// in text, and those they say are over (known: the condition keys memory
// holds). Each is kept with the day it was said, for the follow-up.
func conditionsSaid(text, day, note string, known []string) []Update {
	low := strings.ToLower(strings.Join(strings.Fields(text), " "))
	var out []Update
	for _, c := range healthConditions {
		if c.over != nil && c.over.MatchString(low) {
			if slices.Contains(known, c.key) {
				out = append(out, Update{Kind: UpdateForget, Key: c.key, Note: note})
			}
			continue
		}
		for _, ix := range c.said.FindAllStringIndex(low, -1) {
			if reNotCondition.MatchString(low[:ix[0]]) || aboutSomeoneElse(low, ix[0]) {
				continue
			}
			out = append(out, memoryUpdate(c.key, c.name+" (said "+day+")", c.ttl, note))
			break
		}
	}
	return out
}

// conditionsHeld are the conditions memory (or this run's updates) holds:
// key → what was kept ("pregnancy (said 2026-02-17)").
func conditionsHeld(said map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range said {
		if _, ok := conditionOf(k); ok {
			out[k] = v
		}
	}
	return out
}

// Condition follow-ups: a condition said its kind's followUpDays ago (or
// last confirmed then) is asked about again; "not any more" forgets it,
// "still" keeps it from today.
const (
	promptConditionPrefix = "condition-"
	optConditionStill     = "Yes, still"
	optConditionOver      = "No, not any more"
)

// ConditionFollowUp is a condition due to be asked about.
type ConditionFollowUp struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Since string `json:"since"`
}

// conditionFollowUps are the conditions due to be asked about again.
func conditionFollowUps(held map[string]string, today time.Time) []ConditionFollowUp {
	var out []ConditionFollowUp
	for key, v := range held {
		c, _ := conditionOf(key)
		if since, ok := saidDaysAgo(v, today, c.followUpDays); ok {
			out = append(out, ConditionFollowUp{Key: key, Name: c.name, Since: since})
		}
	}
	slices.SortFunc(out, func(a, b ConditionFollowUp) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// conditionPrompt asks whether a condition still applies; its id carries
// the condition and the day it was said, so each follow-up is a new
// question.
func (g *Gathered) conditionPrompt(f ConditionFollowUp) (id, question string) {
	return followUpID(promptConditionPrefix, keyCondition, f.Key, f.Since),
		fmt.Sprintf("You told me about your %s on %s. Is it still something I should plan around?", f.Name, g.dateText(f.Since))
}

// conditionPromptKey returns the memory key of a condition follow-up
// prompt id ("condition-pregnancy-20260110" → "condition:pregnancy").
func conditionPromptKey(id string) (string, bool) {
	key, ok := followUpKey(id, promptConditionPrefix, keyCondition)
	if !ok {
		return "", false
	}
	_, known := conditionOf(key)
	return key, known
}

// conditionAnswer interprets the answer to a condition follow-up.
func conditionAnswer(key string, a AnswerLine, note string) []Update {
	c, _ := conditionOf(key)
	if strings.EqualFold(strings.TrimSpace(a.Answer), optConditionOver) {
		return []Update{{Kind: UpdateForget, Key: key, Note: note}}
	}
	return []Update{memoryUpdate(key, c.name+" (said "+a.Day+")", c.ttl, note)}
}

// conditionLimits applies the held conditions and the life stage to s.
func (s *Safety) conditionLimits(held map[string]string, m MemberInfo) {
	var clinicians []string
	for _, c := range healthConditions {
		if _, ok := held[c.key]; !ok {
			continue
		}
		s.Conditions = append(s.Conditions, c.name)
		s.ConditionPush = s.ConditionPush || c.noWeightLossPush
		s.ConditionImpact = s.ConditionImpact || c.avoidHighImpact
		s.ConditionIntensity = s.ConditionIntensity || c.avoidHighIntensity
		clinicians = append(clinicians, c.clinician)
		var limits []string
		if c.avoidHighImpact {
			limits = append(limits, "no high-impact content")
		}
		if c.avoidHighIntensity {
			limits = append(limits, "no high-intensity content")
		}
		if c.noWeightLossPush {
			limits = append(limits, "no push toward a lower weight (no goal ETA, plateau or \"moving away\" against a lower goal, no \"Lose weight\" option)")
		}
		s.Rules = append(s.Rules, fmt.Sprintf("The member told you about their %s: %s; say in the briefing that their %s advice comes first.",
			c.name, strings.Join(limits, ", "), c.clinician))
	}
	switch len(clinicians) {
	case 0:
	case 1:
		s.Clinician = clinicians[0]
	default:
		s.Clinician = "doctor's"
	}
	s.Age, s.LifeStage = m.Age, m.LifeStage
	switch m.LifeStage {
	case lifeStageMinor:
		s.Rules = append(s.Rules, fmt.Sprintf("The member is %d, a minor: never push toward a lower weight (no goal ETA toward a lower goal, no \"Lose weight\" option, no calorie deficit).", m.Age))
	case lifeStageOlder:
		s.Rules = append(s.Rules, fmt.Sprintf("The member is %d, an older adult: no high-impact content.", m.Age))
	}
	s.NoWeightLossPush = s.NoWeightLossPush || s.ConditionPush || m.LifeStage == lifeStageMinor
	s.AvoidHighImpact = s.AvoidHighImpact || s.ConditionImpact || m.LifeStage == lifeStageOlder
	s.AvoidHighIntensity = s.AvoidHighIntensity || s.ConditionIntensity
}

// conditionLine is the briefing's sentence about the member's conditions
// and life stage ("" with none).
func (p *planner) conditionLine() string {
	s := p.g.Safety
	var out []string
	if len(s.Conditions) > 0 {
		var limits []string
		if s.ConditionImpact {
			limits = append(limits, "low-impact")
		}
		if s.ConditionIntensity {
			limits = append(limits, "at a moderate intensity")
		}
		line := "You told me about your " + joinAnd(s.Conditions)
		switch {
		case len(limits) > 0 && s.ConditionPush:
			line += ", so I'll keep sessions " + strings.Join(limits, " and ") + " and won't push for a lower weight."
		case len(limits) > 0:
			line += ", so I'll keep sessions " + strings.Join(limits, " and ") + "."
		case s.ConditionPush:
			line += ", so I won't push for a lower weight."
		default:
			line += "."
		}
		out = append(out, line, fmt.Sprintf("Your %s advice comes first; tell me if it changes.", s.Clinician))
	}
	switch {
	case s.LifeStage == lifeStageMinor:
		out = append(out, fmt.Sprintf("At %d, what counts is being active, about an hour a day, not a lower weight.", s.Age))
	case s.LifeStage == lifeStageOlder && !s.ConditionImpact:
		out = append(out, fmt.Sprintf("At %d, I'll keep your sessions low-impact.", s.Age))
	}
	return strings.Join(out, " ")
}

// clinicianWords is what a word about their clinician says.
var clinicianWords = regexp.MustCompile(`(?i)\b(doctor|GP|midwife|obstetrician|clinician|physio(therapist)?|cardiologist|specialist|nurse|care team)`)
