package coach

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
)

// Safety thresholds (documented with their sources in README.md, "The
// coach's judgement").
const (
	// UnderweightBMI: the WHO's adult cut-off for underweight.
	UnderweightBMI = 18.5
	// LowIntakeKcal is the 7-day average under which intake is very low
	// (women and unknown sex; LowIntakeKcalMale for men): the floors below
	// which calorie-reduced diets need medical supervision.
	LowIntakeKcal     = 1200.0
	LowIntakeKcalMale = 1500.0
	// lowIntakeMinDays: days logged before an average counts.
	lowIntakeMinDays = 3
	// QuestionedDays: how far back a set-aside reading is still asked about.
	QuestionedDays = 14
)

// Safety is what keeps the day safe: the heuristic plans by it, the
// model sees it (as facts and as rules), and validation enforces it.
type Safety struct {
	// LowBodyWeight: BMI under UnderweightBMI.
	LowBodyWeight bool `json:"low_body_weight"`
	// LowIntake: the 7-day average under the LowIntakeKcal floor.
	LowIntake bool `json:"low_intake"`
	// NoWeightLossPush is set by either: nothing may push toward a lower
	// weight, and a caution about eating enough belongs in the briefing.
	NoWeightLossPush bool `json:"no_weight_loss_push"`
	// Injuries are what the member said ("bad left knee"); AvoidAreas the
	// body areas they touch. With any injury, high-impact content is out too.
	Injuries []string `json:"injuries,omitempty"`
	// FollowUps are the injuries due to be asked about again.
	FollowUps       []InjuryFollowUp `json:"injury_follow_ups,omitempty"`
	AvoidAreas      []string         `json:"avoid_areas,omitempty"`
	AvoidHighImpact bool             `json:"avoid_high_impact"`
	// AvoidHighIntensity: at very low intake the body is under-fuelled, so
	// no high-intensity session either (nor with some conditions).
	AvoidHighIntensity bool `json:"avoid_high_intensity"`
	// Conditions are the health conditions the member stated ("pregnancy",
	// "heart condition"; conditions.go), with what they change on their
	// own (ConditionPush, ConditionImpact, ConditionIntensity) and whose
	// advice comes first (Clinician, "midwife's or doctor's").
	Conditions         []string            `json:"conditions,omitempty"`
	ConditionFollowUps []ConditionFollowUp `json:"condition_follow_ups,omitempty"`
	ConditionPush      bool                `json:"condition_no_weight_loss_push,omitempty"`
	ConditionImpact    bool                `json:"condition_avoid_high_impact,omitempty"`
	ConditionIntensity bool                `json:"condition_avoid_high_intensity,omitempty"`
	Clinician          string              `json:"clinician,omitempty"`
	// Age and LifeStage ("minor", "older adult") are the member's, from
	// their birth date: a minor gets no weight-loss push, an older adult
	// nothing high-impact.
	Age       int    `json:"age,omitempty"`
	LifeStage string `json:"life_stage,omitempty"`
	// OnlyWalks: the member said they only walk; every pick is a walk
	// (warm-ups and cool-downs aside).
	OnlyWalks bool `json:"only_walks,omitempty"`
	// Rules are the above as sentences for a model.
	Rules []string `json:"rules"`
}

// safetyOf derives the safety facts from the gathered views and what the
// member said that memory (or this run's updates) holds: injuries and
// health conditions (key → value).
func safetyOf(g *Gathered, said map[string]string) Safety {
	injuries := map[string]string{}
	for k, v := range said {
		if strings.HasPrefix(k, keyInjury) {
			injuries[k] = v
		}
	}
	s := Safety{Rules: []string{}}
	if b := g.Weight.BMI; b != nil && *b < UnderweightBMI {
		s.LowBodyWeight = true
		s.Rules = append(s.Rules, fmt.Sprintf("The member's BMI is %s, under %s (underweight): never push toward a lower weight "+
			"(no goal ETA toward a lower goal, no praise for losing, no \"lose weight\" goal); caution them kindly to eat enough.",
			num(*b), num(UnderweightBMI)))
	}
	floor := LowIntakeKcal
	if g.Member.Sex == "male" {
		floor = LowIntakeKcalMale
	}
	if avg := g.Week.Average.Calories.Consumed; g.Week.DaysLogged >= lowIntakeMinDays && avg > 0 && avg < floor {
		s.LowIntake = true
		s.Rules = append(s.Rules, fmt.Sprintf("The member averaged %s kcal a day over the last 7 days, under %s: very low. "+
			"Never push toward a lower weight; say plainly that they should eat enough and talk to a doctor if eating more is hard.",
			kcal(avg), kcal(floor)))
	}
	s.NoWeightLossPush = s.LowBodyWeight || s.LowIntake
	if s.LowIntake {
		s.AvoidHighIntensity = true
		s.Rules = append(s.Rules, "At this intake pick no high-intensity content.")
	}
	for key, said := range injuries {
		said, _, _ = strings.Cut(said, " (said")
		s.Injuries = append(s.Injuries, asNoun(strings.TrimSpace(said)))
		name := strings.TrimPrefix(key, keyInjury)
		name = strings.TrimPrefix(strings.TrimPrefix(name, "left-"), "right-")
		if a := content.AreaOf(strings.ReplaceAll(name, "-", " ")); a != "" && !slices.Contains(s.AvoidAreas, a) {
			s.AvoidAreas = append(s.AvoidAreas, a)
		}
	}
	slices.Sort(s.Injuries)
	slices.Sort(s.AvoidAreas)
	s.FollowUps = injuryFollowUps(injuries, g.civil)
	if len(s.Injuries) > 0 {
		s.AvoidHighImpact = true
		rule := fmt.Sprintf("The member has a %s: pick no high-impact content", joinAnd(s.Injuries))
		if len(s.AvoidAreas) > 0 {
			rule += " and nothing that loads the " + joinAnd(s.AvoidAreas)
		}
		s.Rules = append(s.Rules, rule+", as Up Next, alternate or playlist item; acknowledge it in the briefing.")
	}
	if _, ok := said[keyWalkingOnly]; ok {
		s.OnlyWalks = true
		s.Rules = append(s.Rules, "The member said they only walk (no gym classes): pick walks only (warm-ups and cool-downs aside), "+
			"and build the walks up a little each week.")
	}
	if g.mutant != MutantIgnoreConditions {
		held := conditionsHeld(said)
		s.conditionLimits(held, g.Member)
		s.ConditionFollowUps = conditionFollowUps(held, g.civil)
	} else {
		s.conditionLimits(nil, g.Member)
	}
	if len(g.Weight.Questioned) > 0 {
		s.Rules = append(s.Rules, "A recent weigh-in far from the trend (or a sudden change from the one before) was set aside (questioned_readings): never present it as "+
			"the current weight or a goal reached; ask the member to confirm it.")
	}
	return s
}

// unsafe says why the entry does not suit the member today ("" when it does).
func (s Safety) unsafe(e content.MenuEntry) string {
	if s.AvoidHighImpact && e.Impact == content.ImpactHigh {
		return "it is high impact"
	}
	if s.AvoidHighIntensity && e.Intensity == content.IntensityHigh {
		return "it is high intensity"
	}
	for _, a := range e.AreaList() {
		if slices.Contains(s.AvoidAreas, a) {
			return "it loads the " + a
		}
	}
	if s.OnlyWalks && e.Kind != content.KindWalk && !isSupport(e.Kind) {
		return notAWalk
	}
	return ""
}

// notAWalk is why a pick does not suit a member who only walks.
const notAWalk = "it is not a walk"

// weightLossPush finds words that push toward a lower weight.
var weightLossPush = regexp.MustCompile(`(?i)\b(lose|losing|drop|dropping|shed|cut)\b[^.]{0,20}\b(weight|kg|kilos?|lbs?|pounds)\b|calorie deficit|eat less`)

// goalPush finds words that push toward the goal weight (a push toward a
// lower weight when the goal is below the current weight).
var goalPush = regexp.MustCompile(`(?i)at this pace you reach|toward(s)? your goal|at your goal|goal weight|(your|the) goal (of|at) [\d.]+ ?(kg|lb)`)

// negation words just before a match make it no push ("I won't push you
// to lose weight").
var negation = regexp.MustCompile(`(?i)\b(not|no|never|won't|don't|wouldn't|shouldn't|isn't|without)\b`)

// pushIn returns the first match of re in text not negated in the few
// words before it ("" when none).
func pushIn(re *regexp.Regexp, text string) string {
	for _, loc := range re.FindAllStringIndex(text, -1) {
		before := text[max(0, loc[0]-30):loc[0]]
		if i := strings.LastIndexAny(before, ".!?;"); i >= 0 {
			before = before[i+1:]
		}
		if !negation.MatchString(before) {
			return text[loc[0]:loc[1]]
		}
	}
	return ""
}

// cautionWords is what a caution about eating enough says.
var cautionWords = regexp.MustCompile(`(?i)eat enough|enough (food|to eat)|fuel|doctor|take care`)

// checkSafety is validation's safety gate: the same rules the heuristic
// plans by, each refused with its reason for a model to correct.
func (g *Gathered) checkSafety(doc dashboard.Document, items map[string]content.Item) []agent.ValidationError {
	var out []agent.ValidationError
	s := g.Safety
	refs := []struct {
		path string
		ref  *dashboard.ContentRef
	}{{"/curated/up_next/primary", doc.Curated.UpNext.Primary}}
	for i := range doc.Curated.UpNext.Alternates {
		refs = append(refs, struct {
			path string
			ref  *dashboard.ContentRef
		}{fmt.Sprintf("/curated/up_next/alternates/%d", i), &doc.Curated.UpNext.Alternates[i]})
	}
	for i := range doc.Curated.PlaylistSuggestion {
		refs = append(refs, struct {
			path string
			ref  *dashboard.ContentRef
		}{fmt.Sprintf("/curated/playlist_suggestion/%d", i), &doc.Curated.PlaylistSuggestion[i]})
	}
	for _, r := range refs {
		if r.ref == nil {
			continue
		}
		it, ok := items[r.ref.ContentID]
		if !ok {
			continue // the catalog check reports it
		}
		if why := s.unsafe(content.MenuOf([]content.Item{it})[0]); why != "" {
			out = append(out, agent.ValidationError{Path: r.path, Message: fmt.Sprintf(
				"%s (%s) does not suit the member today: %s (%s); pick content that spares them", r.ref.Title, r.ref.ContentID,
				why, s.reasons())})
		}
	}
	texts := coachTexts(doc)
	if s.NoWeightLossPush {
		for _, t := range texts {
			m := pushIn(weightLossPush, t.text)
			if m == "" && g.goalBelow() {
				m = pushIn(goalPush, t.text)
			}
			if m != "" {
				out = append(out, agent.ValidationError{Path: t.path, Message: fmt.Sprintf(
					"%q pushes toward a lower weight, but the member's %s: no weight-loss push today", m, lowWhy(s))})
			}
		}
		if (s.LowBodyWeight || s.LowIntake) && !cautionWords.MatchString(doc.Coach.Briefing) {
			out = append(out, agent.ValidationError{Path: "/coach/briefing", Message: fmt.Sprintf(
				"the member's %s: the briefing must caution them kindly to eat enough (and see a doctor if that is hard)", lowWhy(s))})
		}
	}
	if len(s.Conditions) > 0 && !clinicianWords.MatchString(doc.Coach.Briefing) {
		out = append(out, agent.ValidationError{Path: "/coach/briefing", Message: fmt.Sprintf(
			"the member told you about their %s: say in the briefing that their %s advice comes first", joinAnd(s.Conditions), s.Clinician)})
	}
	if len(s.Injuries) > 0 && !s.acknowledged(doc.Coach.Briefing) {
		out = append(out, agent.ValidationError{Path: "/coach/briefing", Message: fmt.Sprintf(
			"the member told you about their %s: acknowledge it in the briefing", joinAnd(s.Injuries))})
	}
	if q := g.Weight.Questioned; len(q) > 0 && !asksAbout(doc, q[0].Text) {
		out = append(out, agent.ValidationError{Path: "/coach/prompts", Message: fmt.Sprintf(
			"the %s reading of %s is far from the trend: ask the member to confirm it in a prompt that names %s (it comes first in the prompt priority)",
			q[0].Text, q[0].Date, q[0].Text)})
	}
	for _, q := range g.Weight.Questioned {
		for _, t := range texts {
			if strings.Contains(t.text, q.Text) && !strings.HasPrefix(t.path, "/coach/prompts/") {
				out = append(out, agent.ValidationError{Path: t.path, Message: fmt.Sprintf(
					"the %s reading of %s is questioned (far from the trend): do not present it; ask the member to confirm it in a prompt",
					q.Text, q.Date)})
			}
		}
	}
	return out
}

// reasons names what the content rules protect.
func (s Safety) reasons() string {
	var r []string
	if len(s.Injuries) > 0 {
		r = append(r, "their "+joinAnd(s.Injuries))
	}
	if len(s.Conditions) > 0 {
		r = append(r, "their "+joinAnd(s.Conditions))
	}
	if s.LifeStage == lifeStageOlder {
		r = append(r, fmt.Sprintf("their age (%d)", s.Age))
	}
	if s.LowIntake {
		r = append(r, "very low intake")
	}
	if s.OnlyWalks {
		r = append(r, "they only walk")
	}
	return strings.Join(r, "; ")
}

// lowWhy names the reason there is no weight-loss push ("the member's
// …").
func lowWhy(s Safety) string {
	var r []string
	switch {
	case s.LowBodyWeight && s.LowIntake:
		r = append(r, "BMI is under 18.5 and intake is very low")
	case s.LowBodyWeight:
		r = append(r, "BMI is under 18.5")
	case s.LowIntake:
		r = append(r, "intake is very low")
	}
	if s.ConditionPush {
		r = append(r, "health ("+joinAnd(s.Conditions)+") rules it out")
	}
	if s.LifeStage == lifeStageMinor {
		r = append(r, fmt.Sprintf("age is %d (a minor)", s.Age))
	}
	return strings.Join(r, "; ")
}

type pathText struct{ path, text string }

// coachTexts are the coach's words with their document paths.
func coachTexts(doc dashboard.Document) []pathText {
	out := []pathText{{"/coach/briefing", doc.Coach.Briefing}}
	for i, c := range doc.Coach.CTA {
		out = append(out, pathText{fmt.Sprintf("/coach/cta/%d/message", i), c.Message})
	}
	for i, f := range doc.Coach.Feedback {
		out = append(out, pathText{fmt.Sprintf("/coach/feedback/%d", i), f})
	}
	for i, p := range doc.Coach.Prompts {
		out = append(out, pathText{fmt.Sprintf("/coach/prompts/%d/question", i), p.Question})
	}
	return out
}

// keyCareLoseWeight remembers a "lose weight" choice answered with care.
const keyCareLoseWeight = "context:lose-weight-declined"

// careForGoals answers a "lose weight" choice with care when the member is
// underweight or eats very little: no weight goal is set; the choice is
// remembered, and the briefing says why (acknowledgements).
func (g *Gathered) careForGoals() {
	if !g.Safety.NoWeightLossPush {
		return
	}
	for i, u := range g.Updates {
		if u.Kind == UpdateGoal && u.Goal != nil && isLoseWeight(u.Goal.Description) {
			g.Updates[i] = memoryUpdate(keyCareLoseWeight, fmt.Sprintf("Chose %q on %s; not set as a goal because the member's %s",
				u.Goal.Description, g.Date, lowWhy(g.Safety)), 30*24*time.Hour, u.Note)
			g.Updates[i].AnswerID = u.AnswerID
		}
	}
}

func isLoseWeight(s string) bool { return regexp.MustCompile(`(?i)\blos(e|ing)\b`).MatchString(s) }

// goalBelow reports a goal weight under the current weight.
func (g *Gathered) goalBelow() bool {
	w := g.Weight
	return w.Goal.Goal != nil && w.Current != nil && *w.Goal.Goal < *w.Current
}

// goalAbove reports a weight goal above the current weight (gaining).
func (g *Gathered) goalAbove() bool {
	w := g.Weight
	return w.Goal.Goal != nil && w.Current != nil && *w.Goal.Goal > *w.Current
}

// safe reports whether the entry suits the member (see Safety.unsafe).
func (p *planner) safe(e content.MenuEntry) bool { return p.g.Safety.unsafe(e) == "" }

// cautionLine is the briefing's caution at low body weight or intake.
func (p *planner) cautionLine() string {
	s, w := p.g.Safety, p.g.Weight
	switch {
	case s.LowBodyWeight && s.LowIntake:
		return fmt.Sprintf("Your BMI is %s, under %s, and you've averaged %s kcal a day this week, which is very little: I won't push for a lower weight. Eat enough to fuel your days, and talk to your doctor if eating more is hard.",
			num(*w.BMI), num(UnderweightBMI), kcal(p.g.Week.Average.Calories.Consumed))
	case s.LowBodyWeight:
		return fmt.Sprintf("Your BMI is %s, under %s, so I won't push for a lower weight: eat enough to fuel your training, and talk to your doctor before aiming lower.",
			num(*w.BMI), num(UnderweightBMI))
	case s.LowIntake:
		return fmt.Sprintf("You've averaged %s kcal a day this week, which is very little, so I won't push for a lower weight: eat enough to fuel your days, and talk to your doctor if eating more is hard.",
			kcal(p.g.Week.Average.Calories.Consumed))
	}
	return ""
}

// Injury follow-ups: an injury said InjuryFollowUpDays ago (or last
// confirmed then) is asked about again; "better" forgets it, "still" keeps
// it from today.
const (
	InjuryFollowUpDays = 14
	promptInjuryPrefix = "injury-"
	optInjuryBetter    = "Better now"
	optInjuryStill     = "Still bothering me"
)

var reSaidOn = regexp.MustCompile(`\(said (\d{4}-\d{2}-\d{2})\)`)

// InjuryFollowUp is an injury due to be asked about.
type InjuryFollowUp struct {
	Key   string `json:"key"`
	Said  string `json:"said"`
	Since string `json:"since"`
}

// injuryFollowUps are the injuries said InjuryFollowUpDays or more ago.
func injuryFollowUps(injuries map[string]string, today time.Time) []InjuryFollowUp {
	var out []InjuryFollowUp
	for key, v := range injuries {
		if since, ok := saidDaysAgo(v, today, InjuryFollowUpDays); ok {
			said, _, _ := strings.Cut(v, " (said")
			out = append(out, InjuryFollowUp{Key: key, Said: asNoun(strings.TrimSpace(said)), Since: since})
		}
	}
	slices.SortFunc(out, func(a, b InjuryFollowUp) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// saidDaysAgo returns the day a note was said ("… (said 2026-02-10)") when
// that is days or more before today.
func saidDaysAgo(note string, today time.Time, days int) (since string, ok bool) {
	m := reSaidOn.FindStringSubmatch(note)
	if m == nil {
		return "", false
	}
	t, err := time.Parse(time.DateOnly, m[1])
	if err != nil || today.Sub(t) < time.Duration(days)*24*time.Hour {
		return "", false
	}
	return m[1], true
}

// injuryPrompt asks how an injury is now; its id carries the injury and
// the day it was said, so each follow-up is a new question.
func (g *Gathered) injuryPrompt(f InjuryFollowUp) (id, question string) {
	return followUpID(promptInjuryPrefix, keyInjury, f.Key, f.Since),
		fmt.Sprintf("You told me about your %s on %s. How is it now?", f.Said, g.dateText(f.Since))
}

// injuryPromptKey returns the injury memory key of an injury follow-up
// prompt id ("injury-left-knee-20260210" → "injury:left-knee").
func injuryPromptKey(id string) (string, bool) {
	return followUpKey(id, promptInjuryPrefix, keyInjury)
}

// followUpID is the id of a follow-up prompt about the memory key said on
// since: the prompt prefix, the key without its prefix, and the day
// ("injury-left-knee-20260210").
func followUpID(promptPrefix, keyPrefix, key, since string) string {
	return promptPrefix + strings.TrimPrefix(key, keyPrefix) + "-" + strings.ReplaceAll(since, "-", "")
}

// followUpKey is followUpID read back: the memory key the prompt id asks
// about.
func followUpKey(id, promptPrefix, keyPrefix string) (string, bool) {
	rest, ok := strings.CutPrefix(id, promptPrefix)
	if !ok || len(rest) < 10 || rest[len(rest)-9] != '-' {
		return "", false
	}
	return keyPrefix + rest[:len(rest)-9], true
}

// injuryAnswer interprets the answer to an injury follow-up.
func injuryAnswer(key string, a AnswerLine, note string) []Update {
	if strings.EqualFold(strings.TrimSpace(a.Answer), optInjuryBetter) {
		return []Update{{Kind: UpdateForget, Key: key, Note: note}}
	}
	said := strings.TrimPrefix(a.Question, "You told me about your ")
	said, _, _ = strings.Cut(said, " on ")
	return []Update{memoryUpdate(key, said+" (said "+a.Day+")", 0, note)}
}

// asksAbout reports a prompt whose question names the text.
func asksAbout(doc dashboard.Document, text string) bool {
	for _, p := range doc.Coach.Prompts {
		if strings.Contains(p.Question, text) {
			return true
		}
	}
	return false
}

// acknowledged reports a briefing that names an injured area (or, for an
// injury of no known area, what the member said).
func (s Safety) acknowledged(briefing string) bool {
	low := strings.ToLower(briefing)
	for _, a := range s.AvoidAreas {
		if strings.Contains(low, a) {
			return true
		}
	}
	for _, said := range s.Injuries {
		if strings.Contains(low, strings.ToLower(said)) {
			return true
		}
	}
	return false
}
