package coach

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
)

// What a member tells the coach is remembered and acknowledged: the daily
// check-in (energy, sleep, soreness) feeds "take it easy" and the next plan,
// an injury or limitation said in a typed or voice answer stays in memory
// until the member says it is better and is mentioned in every briefing,
// and a goal answer is acknowledged in the next one.

// Daily check-in: one short question a day when the coach has nothing else
// to ask with a tap; the kind rotates by day. Its prompt id carries the
// date (checkin-<kind>-YYYYMMDD), so each day's is a new question.
const dailyPrefix = "checkin-"

type checkIn struct {
	kind     string
	question string
	options  []string
	// easy are the answers that make today a light day (keyRecovering),
	// unwell those that make the coming days light (keyUnwell).
	easy, unwell []string
}

var checkIns = []checkIn{
	{kind: "energy", question: "How's your energy today?", options: []string{optEnergised, "Normal", optTired, optUnwell},
		easy: []string{optTired}, unwell: []string{optUnwell}},
	{kind: "sleep", question: "How did you sleep last night?", options: []string{"Great", "Okay", "Badly"},
		easy: []string{"Badly"}},
	{kind: "soreness", question: "Any soreness from training?", options: []string{"None", "A little", "Very sore"},
		easy: []string{"Very sore"}},
}

// dailyCheckIn is today's check-in question.
func dailyCheckIn(g *Gathered) dashboard.Prompt {
	c := checkIns[(g.seed%len(checkIns)+len(checkIns))%len(checkIns)]
	return dashboard.Prompt{ID: dailyPrefix + c.kind + "-" + strings.ReplaceAll(g.Date, "-", ""), Type: dashboard.PromptMultipleChoice,
		Question: c.question, Options: append([]string(nil), c.options...)}
}

// dailyKind returns the check-in kind of a daily prompt id ("" for others).
func dailyKind(id string) string {
	rest, ok := strings.CutPrefix(id, dailyPrefix)
	if !ok {
		return ""
	}
	kind, date, ok := strings.Cut(rest, "-")
	if !ok || len(date) != 8 {
		return ""
	}
	for _, c := range checkIns {
		if c.kind == kind {
			return kind
		}
	}
	return ""
}

// checkInAnswer interprets a daily check-in answer.
func checkInAnswer(kind, ans, day, note string) []Update {
	for _, c := range checkIns {
		if c.kind != kind {
			continue
		}
		out := []Update{memoryUpdate("checkin:"+kind, ans+" (said "+day+")", 7*24*time.Hour, note)}
		for _, e := range c.easy {
			if ans == e {
				out = append(out, memoryUpdate(keyRecovering, ans+" ("+kind+" check-in): keep today light", 36*time.Hour, ""))
			}
		}
		for _, u := range c.unwell {
			if ans == u {
				out = append(out, memoryUpdate(keyUnwell, ans+" (said "+day+"): only light options until they feel better", 14*24*time.Hour, ""))
			}
		}
		return out
	}
	return nil
}

// Injuries and limitations. Each is kept under injury:<side-part> with no
// expiry; saying it is better (or healed, fine…) forgets it.
const keyInjury = "injury:"

const bodyParts = `knee|knees|back|lower back|shoulder|shoulders|ankle|ankles|hip|hips|wrist|wrists|neck|elbow|elbows|hamstring|hamstrings|calf|calves|foot|feet|achilles|groin`

// conditions are what people call an injury or a joint condition, after the
// part ("knee surgery", "back pain") or before it ("arthritis in both
// knees", "surgery on my left knee").
const conditions = `surgery|operation|replacement|reconstruction|arthritis|osteoarthritis|tendinitis|tendonitis|bursitis|` +
	`fracture|tear|sprain|strain|injury|pain|problems?|issues?|trouble`

// complaints are how people say a part bothers them without naming an
// injury ("my lower back gives me trouble", "my knee keeps acting up").
const complaints = `(?:gives|giving|given)\s+me\s+(?:some\s+|a\s+lot\s+of\s+|real\s+|constant\s+)?(?:trouble|grief|problems|pain|hell)|` +
	`(?:bothers|bothering|troubles|troubling)\s+me|(?:acts|acting|plays|playing|flares|flaring)\s+up|is\s+killing\s+me|lets\s+me\s+down`

// namedConditions name an injury without its body part; each loads the
// part it belongs to.
var namedConditions = map[string]string{
	"slipped disc": "back", "herniated disc": "back", "bulging disc": "back", "prolapsed disc": "back", "sciatica": "back",
	"torn acl": "knee", "acl tear": "knee", "torn meniscus": "knee", "meniscus tear": "knee", "runner's knee": "knee",
	"rotator cuff": "shoulder", "frozen shoulder": "shoulder", "tennis elbow": "elbow", "golfer's elbow": "elbow",
	"carpal tunnel": "wrist", "plantar fasciitis": "foot", "whiplash": "neck",
}

var (
	reInjury = regexp.MustCompile(`\b(?:(bad|sore|injured|hurt|hurting|painful|stiff|weak|dodgy|tweaked|pulled|sprained|strained|broken|twisted|arthritic)\s+(?:my\s+)?)((?:left|right)\s+)?(` + bodyParts + `)\b` +
		`|\b(?:my\s+)?((?:left|right)\s+)?(` + bodyParts + `)\s+(?:is\s+|has\s+been\s+|keeps\s+|sometimes\s+|often\s+|always\s+)?(hurts|hurting|injured|aches|aching|is\s+sore|` + complaints + `|` + conditions + `)\b`)
	reInjuryIn  = regexp.MustCompile(`\b(` + conditions + `)\s+(?:in|on|of|to|with)\s+(?:my\s+|both\s+|the\s+|each\s+|both\s+my\s+)?((?:left|right)\s+)?(` + bodyParts + `)\b`)
	reComplaint = regexp.MustCompile(`^(?:` + complaints + `)$`)
	// reNotSaid: a negation just before a match ("no knee problems", "I
	// don't have a bad back") means the member said they are fine.
	reNotSaid = regexp.MustCompile(`(?:\b(?:no|not|never|without|nothing\s+wrong\s+with)|n't\s+(?:have|got))\s+(?:any\s+|a\s+)?(?:my\s+)?$`)
	reNamed   = regexp.MustCompile(`\b(` + namedAlt() + `)\b`)
	reHealed  = regexp.MustCompile(`\b((?:left|right)\s+)?(` + bodyParts + `)\s+(?:is|feels|'s|is\s+feeling|has)\s+(?:much\s+|a\s+lot\s+)?(better|fine|healed|ok|okay|good|great|back\s+to\s+normal)\b` +
		`|\bno\s+more\s+((?:left|right)\s+)?(` + bodyParts + `)\s+pain\b`)
)

// singular names a body part once ("knees" → "knee").
func singular(part string) string {
	switch part {
	case "feet":
		return "foot"
	case "calves":
		return "calf"
	}
	return strings.TrimSuffix(part, "s")
}

func injuryKey(side, part string) string {
	k := singular(strings.Join(strings.Fields(part), "-"))
	if side = strings.TrimSpace(side); side != "" {
		k = side + "-" + k
	}
	return keyInjury + k
}

// injuries finds injuries and limitations in what the member said, and the
// ones they say are better (known: the injury keys memory holds).
func injuries(text, day, note string, known []string) []Update {
	low := strings.ToLower(strings.Join(strings.Fields(text), " "))
	var out []Update
	healed := map[string]bool{}
	for _, m := range reHealed.FindAllStringSubmatch(low, -1) {
		side, part := m[1], m[2]
		if part == "" {
			side, part = m[4], m[5]
		}
		part = singular(strings.Join(strings.Fields(part), "-"))
		for _, k := range known {
			name := strings.TrimPrefix(k, keyInjury)
			if name == part || strings.HasSuffix(name, "-"+part) && (side == "" || strings.HasPrefix(name, strings.TrimSpace(side)+"-")) {
				if !healed[k] {
					healed[k] = true
					out = append(out, Update{Kind: UpdateForget, Key: k, Note: note})
				}
			}
		}
	}
	said := map[string]bool{}
	keep := func(side, part, phrase string) {
		key := injuryKey(side, part)
		if healed[key] || said[key] {
			return
		}
		said[key] = true
		out = append(out, memoryUpdate(key, phrase+" (said "+day+")", 0, note))
	}
	for _, ix := range reNamed.FindAllStringSubmatchIndex(low, -1) {
		if m := submatches(low, ix); !notSaid(low, ix[0]) {
			keep("", namedConditions[m[1]], m[1]) // "slipped disc": the back; a name says more than a part
		}
	}
	for _, ix := range reInjury.FindAllStringSubmatchIndex(low, -1) {
		if notSaid(low, ix[0]) {
			continue
		}
		m := submatches(low, ix)
		if m[3] != "" {
			keep(m[2], m[3], strings.TrimSpace(m[1]+" "+m[2]+m[3]))
			continue
		}
		phrase := strings.TrimSpace("sore " + m[4] + m[5])
		switch {
		case reComplaint.MatchString(m[6]):
			phrase = strings.TrimSpace(m[4]+m[5]) + " trouble" // "lower back trouble"
		case m[6] != "" && !strings.Contains(m[6], "sore"):
			phrase = strings.TrimSpace(m[4]+m[5]) + " " + strings.Fields(m[6])[0]
		}
		keep(m[4], m[5], phrase)
	}
	for _, ix := range reInjuryIn.FindAllStringSubmatchIndex(low, -1) {
		if m := submatches(low, ix); !notSaid(low, ix[0]) {
			keep(m[2], m[3], m[0]) // "arthritis in both knees"
		}
	}
	return out
}

// notSaid reports a negation just before position i of low.
func notSaid(low string, i int) bool { return reNotSaid.MatchString(low[:i]) }

// submatches turns a match's index pairs into its strings ("" for a group
// that did not take part).
func submatches(s string, ix []int) []string {
	out := make([]string, len(ix)/2)
	for i := range out {
		if ix[2*i] >= 0 {
			out[i] = s[ix[2*i]:ix[2*i+1]]
		}
	}
	return out
}

// namedAlt is the named conditions as a pattern, longest first.
func namedAlt() string {
	names := make([]string, 0, len(namedConditions))
	for n := range namedConditions {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	return strings.Join(names, "|")
}

// injuriesSaid are the injuries memory (or this run's updates) holds: key
// → what the member said.
func injuriesSaid(mem *agent.Memory, updates []Update) map[string]string {
	return saidUnder(mem, updates, keyInjury)
}

// memberSaid is everything about their body the member told the coach that
// memory (or this run's updates) holds: injuries, health conditions and
// preferences, key → value.
func memberSaid(mem *agent.Memory, updates []Update) map[string]string {
	return saidUnder(mem, updates, keyInjury, keyCondition, keyPreference)
}

// saidUnder are the entries under the key prefixes, with this run's
// updates applied.
func saidUnder(mem *agent.Memory, updates []Update, prefixes ...string) map[string]string {
	has := func(k string) bool {
		return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) })
	}
	said := map[string]string{}
	if mem != nil {
		for _, e := range mem.All() {
			if has(e.Key) {
				said[e.Key] = e.Value
			}
		}
	}
	for _, u := range updates {
		switch {
		case u.Kind == UpdateMemory && has(u.Key):
			said[u.Key] = u.Value
		case u.Kind == UpdateForget:
			delete(said, u.Key)
		}
	}
	return said
}

// keyPreference keeps how the member likes to train (preference:<name>).
const keyPreference = "preference:"

// heard is what the coach takes from anything the member says, typed, in
// a voice memo or (through the same interpreter) in chat: injuries,
// health conditions and how they like to train (and the ones said to be
// over), kept in typed memory keys.
func (in interpreter) heard(text, day, note string) []Update {
	out := injuries(text, day, note, in.injuries)
	out = append(out, conditionsSaid(text, day, note, in.conditions)...)
	return append(out, preferencesSaid(text, day, note, in.preferences)...)
}

// injuryLines are the injuries as the member said them, sorted.
func (p *planner) injuryLines() []string {
	if p.g.mutant == MutantIgnoreInjuries {
		return nil
	}
	var out []string
	for _, v := range injuriesSaid(p.mem, p.g.Updates) {
		v, _, _ = strings.Cut(v, " (said")
		out = append(out, asNoun(strings.TrimSpace(v)))
	}
	sort.Strings(out)
	return out
}

// asNoun turns "right knee hurts" into "sore right knee", so that "your
// …" reads well; "bad left knee" stays.
func asNoun(said string) string {
	f := strings.Fields(said)
	if len(f) < 2 {
		return said
	}
	switch f[len(f)-1] {
	case "hurts", "hurting", "pain", "aches", "aching":
		return "sore " + strings.Join(f[:len(f)-1], " ")
	case "injury", "injured":
		return "injured " + strings.Join(f[:len(f)-1], " ")
	}
	return said
}

// acknowledgements are the briefing's sentences about what the member told
// the coach: a new goal, and the injuries it keeps in mind.
func (p *planner) acknowledgements() []string {
	var s []string
	for _, u := range p.g.Updates {
		if u.Kind == UpdateGoal && u.Goal != nil {
			s = append(s, fmt.Sprintf("You told me your goal: %s. I'll plan with that in mind.", lowerFirst(u.Goal.Description)))
		}
	}
	for _, u := range p.g.Updates {
		if u.Kind == UpdateMemory && u.Key == keyCareLoseWeight {
			s = append(s, fmt.Sprintf("You asked for a lower weight; %s I won't set that goal. Let's build strength and energy instead.", p.declinedBecause()))
		}
	}
	if inj := p.injuryLines(); len(inj) > 0 {
		s = append(s, fmt.Sprintf("I'm keeping your %s in mind; tell me when it's better.", joinAnd(inj)))
	}
	return s
}

// declinedBecause says why a lower weight is not set as a goal, as the
// start of a sentence ("at your weight", "with your pregnancy").
func (p *planner) declinedBecause() string {
	s := p.g.Safety
	switch {
	case s.LowBodyWeight || s.LowIntake:
		return "at your weight"
	case s.ConditionPush:
		return "with your " + joinAnd(s.Conditions) + ","
	case s.LifeStage == lifeStageMinor:
		return fmt.Sprintf("at %d", s.Age)
	}
	return "for now"
}

// lowerFirst lower-cases the first letter ("Get stronger" → "get stronger").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// How the member feels today, said in their own words: tired, sick, sore
// all over (pain in a named body part is an injury, above), and better
// again. Tired and sore make today light (keyRecovering, like the
// check-in's "A bit tired"); sick makes the coming days light (keyUnwell,
// like "Sick or injured"); better lets both go.
const adverbs = `(?:(?:so|really|very|a\s+bit|a\s+little|quite|pretty|super|completely|totally|absolutely|still|kind\s+of|kinda|extremely|incredibly)\s+)*`

// subject starts a statement about oneself: "I'm", "I feel", "feeling".
const subject = `(?:i'?m|i\s+am|i\s+feel|i\s+felt|i'?ve\s+been|feeling|been)\s+`

var (
	reTired = regexp.MustCompile(`\b` + subject + adverbs +
		`(tired|exhausted|worn\s+out|knackered|shattered|drained|wiped(?:\s+out)?|fatigued|sleepy|run\s+down|burn[et]\s+out|wrecked)\b(\s+of\b)?` +
		`|\b((?:didn'?t|did\s+not|couldn'?t|could\s+not|barely|hardly)\s+(?:sleep|slept)|slept\s+(?:badly|poorly|terribly|awfully|really\s+badly)|(?:no|low|zero)\s+energy` +
		`|exhausted|knackered|worn\s+out|wiped\s+out)\b`)
	reSick = regexp.MustCompile(`\b` + subject + adverbs +
		`(sick|ill|unwell|poorly|under\s+the\s+weather|feverish|nauseous|coming\s+down\s+with\s+(?:something|a\s+cold|the\s+flu|a\s+bug))\b(\s+of\b)?` +
		`|\b(?:i\s+have|i'?ve\s+got|i\s+got|i\s+caught|i'?ve\s+caught|i'?m\s+down\s+with|down\s+with)\s+(?:a\s+|the\s+|some\s+)?(?:bad\s+|nasty\s+|heavy\s+|stinking\s+|horrible\s+)?` +
		`(cold|flu|fever|covid|virus|stomach\s+bug|tummy\s+bug|bug|migraine|sore\s+throat|chest\s+infection|temperature|cough)\b`)
	reSoreAll = regexp.MustCompile(`\b(` + subject + adverbs + `(?:sore|achy|aching)\s+(?:all\s+over|everywhere)|everything\s+(?:hurts|aches)|` +
		subject + `in\s+(?:a\s+lot\s+of\s+|so\s+much\s+)?pain|(?:my\s+)?(?:whole\s+)?body\s+(?:hurts|aches|is\s+sore)|aching\s+all\s+over|sore\s+all\s+over)\b`)
	reBetter = regexp.MustCompile(`\b(?:` + subject + `(?:much\s+|a\s+lot\s+|loads\s+|way\s+)?(?:better|recovered)|` + subject + `(?:fine|good|great|ok|okay)\s+(?:again|now)|` +
		`no\s+longer\s+(?:sick|ill|tired|unwell)|over\s+(?:my|the)\s+(?:cold|flu|bug|virus))\b`)
)

// negated reports whether the words just before low[i:] negate it ("not
// feeling sick", "never tired").
func negated(low string, i int) bool {
	f := strings.Fields(low[:i])
	for _, w := range f[max(0, len(f)-2):] {
		if w == "not" || w == "never" || w == "no" || strings.HasSuffix(w, "n't") {
			return true
		}
	}
	return false
}

// firstMatch is the first match of re in low that is not negated and not
// "sick of"/"tired of" (fed up, not unwell); ok false if none.
func firstMatch(re *regexp.Regexp, low string, ofGroup int) ([]string, bool) {
	for _, ix := range re.FindAllStringSubmatchIndex(low, -1) {
		if negated(low, ix[0]) {
			continue
		}
		if ofGroup > 0 && ix[2*ofGroup] >= 0 {
			continue
		}
		return submatches(low, ix), true
	}
	return nil, false
}

// Memory lifetimes of what the member says about how they feel: like the
// check-in's answers.
const (
	recoveringTTL = 36 * time.Hour
	unwellTTL     = 14 * 24 * time.Hour
)

// feelings finds how the member says they feel in text: tired or sore
// all over (today light), sick (light until better), or better again
// (forgets what held: unwell and recovering say whether memory holds
// those).
func feelings(text, day, note string, unwell, recovering bool) []Update {
	low := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(text, "’", "'")), " "))
	var out []Update
	if _, ok := firstMatch(reBetter, low, 0); ok && (unwell || recovering) {
		if unwell {
			out = append(out, Update{Kind: UpdateForget, Key: keyUnwell, Note: note})
		}
		if recovering {
			out = append(out, Update{Kind: UpdateForget, Key: keyRecovering, Note: note})
		}
		return out
	}
	if m, ok := firstMatch(reSick, low, 2); ok {
		what := strings.Join(strings.Fields(m[1]+m[3]), " ")
		out = append(out, memoryUpdate(keyUnwell, "Sick: "+what+" (said "+day+"): only light options until they feel better", unwellTTL, note))
	}
	if m, ok := firstMatch(reTired, low, 2); ok {
		what := strings.Join(strings.Fields(m[1]+m[3]), " ")
		out = append(out, memoryUpdate(keyRecovering, "Said: "+what+" (said "+day+"): keep today light", recoveringTTL, note))
	} else if m, ok := firstMatch(reSoreAll, low, 0); ok {
		out = append(out, memoryUpdate(keyRecovering, "Said: "+strings.Join(strings.Fields(m[1]), " ")+" (said "+day+"): keep today light", recoveringTTL, note))
	}
	return out
}
