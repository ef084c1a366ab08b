package eval

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
)

// Fact checks grade what the plan states, not how the heuristic coach
// happens to say it: a figure in a unit, a date in any common format, an
// entity (a program, its day, a body area, a goal), a stance from a small
// vocabulary (StanceNames). A model that states the same fact in other
// words passes; one that states another figure or date does not.

// Units a figure check names, with the words that write them.
var unitWords = map[string]string{
	"kg":       `kgs?|kilos?|kilograms?`,
	"lb":       `lbs?|pounds?`,
	"kcal":     `kcal|calories|cals?|kilocalories`,
	"kj":       `kj|kilojoules?`,
	"g":        `g|grams?`,
	"days":     `days?`,
	"weeks":    `weeks?`,
	"sessions": `sessions?|workouts?`,
	"min":      `mins?|minutes?`,
	"%":        `%|percent|per cent`,
}

// unitAfter matches a unit written right after a number: "74 kg",
// "1,900kcal", "6-day", and one word between ("2 rest days", "3 missed
// sessions").
var unitAfter = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for u, words := range unitWords {
		end := `\b`
		if u == "%" {
			end = ``
		}
		out[u] = regexp.MustCompile(`(?i)^\s*-?\s*(?:[a-z]+\s+)?(?:` + words + `)` + end)
	}
	return out
}()

// Numbers as written: digits (thousands separators, decimals, "2.9k") or a
// small number word.
var (
	numberToken = regexp.MustCompile(`(?i)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(k)\b)?|\b(` + numberWordAlt + `)\b`)
	numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
		"twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	ordinalWords = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
		"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
		"twentieth"}
)

const numberWordAlt = `zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty`

// statedNumber is a number found in text: its value, how precisely it is
// written (the step a rounding to it covers) and where it ends.
type statedNumber struct {
	value, step float64
	text        string
	end         int
}

func numbersIn(s string) []statedNumber {
	var out []statedNumber
	for _, m := range numberToken.FindAllStringSubmatchIndex(s, -1) {
		n := statedNumber{text: s[m[0]:m[1]], end: m[1], step: 1}
		if m[6] >= 0 {
			n.value = float64(slices.Index(numberWords, strings.ToLower(s[m[6]:m[7]])))
			out = append(out, n)
			continue
		}
		plain := strings.ReplaceAll(s[m[2]:m[3]], ",", "")
		v, err := strconv.ParseFloat(plain, 64)
		if err != nil {
			continue
		}
		if i := strings.IndexByte(plain, '.'); i >= 0 {
			n.step = math.Pow10(-(len(plain) - i - 1))
		}
		if m[4] >= 0 { // "2.9k"
			v, n.step = v*1000, n.step*1000
		}
		n.value = v
		out = append(out, n)
	}
	return out
}

// matches reports whether the stated number is want within rounding (at
// the precision it is written with) or the tolerance.
func (n statedNumber) matches(want, tolerance float64) bool {
	diff := math.Abs(n.value - math.Abs(want))
	return diff <= n.step/2+1e-9 || diff <= tolerance+1e-9
}

// sentences splits text into sentences (and the parts fieldText joined);
// a decimal point is not an end.
var sentenceEnd = regexp.MustCompile(`[.!?;]+(?:\s+|$)|\n+`)

func sentences(text string) []string {
	var out []string
	for _, s := range sentenceEnd.Split(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// maskTitles blanks the catalog's content titles in text: "Dumbbell Total
// Body 30" states no figure and "Foam Roller Recovery" no stance.
func maskTitles(text string, catalog map[string]content.Item) string {
	titles := make([]string, 0, len(catalog))
	for _, it := range catalog {
		if len(it.Title) >= 4 {
			titles = append(titles, it.Title)
		}
	}
	// Longest first, so a title inside another goes with it.
	slices.SortFunc(titles, func(a, b string) int { return len(b) - len(a) })
	for _, t := range titles {
		if strings.Contains(text, t) {
			text = strings.ReplaceAll(text, t, "«content»")
		}
	}
	return text
}

// Stances: a judgement the plan states, each a small vocabulary of ways to
// say it. A phrase with a negation shortly before it ("not moving toward
// your goal") does not count.
var stanceWords = map[string]string{
	// Yesterday's calories against the target.
	"over_target":  `\b(over|above|beyond|exceeded|past) (your |the )?(?:[^.;:,]|,\d){0,25}?\b(target|budget|limit)\b|\bwent over\b|\bovershot\b|\bsurplus\b|\bmore than (your|the) (calorie |daily )?(target|budget)|\bkcal (over|above)|\btoo many calories`,
	"on_target":    `\b(on|right on|hit|met|within|at) (your |the )?(calorie |kcal )?target|\bhit your calorie`,
	"under_target": `\b(under|below|short of) (your |the )?(daily )?(calorie |kcal |protein )?(target|goal)|\bfell short\b`,
	// The weight trend against the goal weight.
	"toward_goal":    `\btowards? (your |the )?goal|\bat (this|that|the current|your current) (pace|rate)\b|\bon (track|course|pace) (for|to|toward)|\bcloser to (your |the )?goal|\b(you'll|you will|you should|should) (reach|hit|get to)\b|\bheading (for|to|toward) (your |the )?goal|\b(reach|hit|get to) (your goal|\d+(\.\d+)? ?(kg|lb|lbs|pounds|kilos?)) (by|around|in|near)\b`,
	"away_from_goal": `\baway from (your |the )?goal|\bwrong (way|direction)|\b(further|farther) (from|away)|\b(creeping|drifting|trending|moving|going|edging|heading) (up|upward|higher)|\b(rising|climbing|gaining)\b|\bup(ward)? trend|\btrend(ing|ed)? up`,
	"plateau":        `\bplateau|\bflat\b|\bsteady\b|\bstable\b|\bstalled\b|\bstuck\b|\bunchanged\b|\blevel(l)?ed off|\bhold(ing)? (steady|level|still)|\bheld (steady|level)|\bhas(n't| not) (moved|budged|changed)|\bnot (moved|moving|budged|changed)`,
	"gain":           `\bup\b|\bgain(s|ed)?\b|\bmore\b|\bincrease(s|d)?\b|\badded\b|\bgrew\b|\brose\b|\bbuilt\b`,
	"at_goal":        `\bat (your |the )?goal( weight)?\b|\breached (your |the )?goal|\bhit your goal|\bmade it to your goal|\bgoal (reached|achieved|met)\b|\byou've reached\b`,
	// Load and rhythm.
	"recovery":     `\brecover(s|y|ed|ing)?\b|\brest day|\bday off|\b(take|taking|keep|keeping) it (easy|light)|\b(catch|catches) up\b|\bback off|\b(easier|lighter|light|gentle) day|\bdeload|\blet your body|\brecuperat`,
	"rest_day":     `\brest day|\bday off\b|\boff day\b|\brest today|\bno (session|training|workout) (today|scheduled)`,
	"easy_day":     `\beas(y|ier|e)\b|\bgentle\b|\blight(er)?\b|\bnot at your best|\bfeel(ing)? better|\brest\b|\brecover|\bunder the weather|\bgo slow|\blow[- ]key|\btake care`,
	"behind":       `\bbehind\b|\bmissed\b|\bfallen back|\bskipped\b|\boff (the )?schedule|\bcatch up`,
	"paused":       `\bpaus(e|ed|ing)\b|\bon hold\b|\bon pause\b|\bbreak from\b`,
	"finished":     `\bfinish(ed)?\b|\bcomplet(e|ed)\b|\bdone with\b|\bwrapped up\b|\bthe whole (program|thing)`,
	"session_done": `\bsession (is |was )?(done|complete|completed|finished|in the bag)|\b(done|completed|finished|did) (today's|your|the|this) session|\balready (done|did|trained|completed)|\bticked off|\bmoves on to`,
	// Counting sessions done before declaring a program.
	"sessions_count": `\bcount(s|ed)?\b|\bcredit|\bpick(s|ing)? up (at|from)|\bstart(s|ing)? (at|from) day`,
	"welcome_back":   `\bwelcome back|\bgood to (see|have) you (back|again)|\bglad (you're|you are|to have you) back|\b(been|it's been) a while`,
	"welcome":        `\bwelcome\b|\bglad you're here|\bnice to meet|\blet's get (you )?started`,
	// Safety at a low body weight or intake.
	"caution_eat":          `\beat (enough|more)|\benough (food|to eat)|\bfuel|\bnourish|\bdoctor\b|\bGP\b|\bdietitian|\bunder-?eating`,
	"declined_weight_loss": `\b(won't|will not|not going to|can't|cannot|shouldn't) (set|push|aim|plan)|\brather not (set|push|aim)|\bnot (a goal|something) I('ll| will| can)`,
	// A health condition or life stage: their clinician's advice first.
	"clinician_advice": `\b(doctor|GP|midwife|obstetrician|clinician|physio(therapist)?|cardiologist|specialist|nurse|care team|medical team)('s|s)?\b`,
	// A sudden change on the scale: check it again before counting it.
	"weigh_again":      `\bweigh (yourself |in )?again|\b(re-?weigh|weigh-in tomorrow|weigh tomorrow)|\bstep on the scale (again|tomorrow)|\bcheck (it |that )?(again )?(tomorrow|with another weigh-in)|\banother (weigh-in|reading)`,
	"weight_loss_push": `\b(lose|losing|drop|dropping|shed|shedding|cut|cutting)\b[^.]{0,20}\b(weight|kg|kilos?|lbs?|pounds)\b|\bcalorie deficit|\beat less`,
}

// stances compiles the vocabulary.
var stances = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for k, v := range stanceWords {
		out[k] = regexp.MustCompile(`(?i)` + v)
	}
	return out
}()

// StanceNames lists the stances a stance check can name.
func StanceNames() []string {
	out := make([]string, 0, len(stances))
	for k := range stances {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// negated: a negation in the few words before a match (within its
// sentence) turns it around.
var negationBefore = regexp.MustCompile(`(?i)(\b(not|no|never|without|nothing)\b|n't\b)[^,;:]{0,25}$`)

// stanceIn returns the first match of re in sentence s that no negation
// just before turns around ("" when none).
func stanceIn(re *regexp.Regexp, s string) string {
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if !negationBefore.MatchString(s[max(0, loc[0]-40):loc[0]]) {
			return s[loc[0]:loc[1]]
		}
	}
	return ""
}

// Date mentions as people write them.
const monthAlt = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`

var (
	dateISO     = regexp.MustCompile(`\b(20\d\d)-(\d{1,2})-(\d{1,2})\b`)
	dateDayMon  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(` + monthAlt + `)\b\.?(?:,?\s+(20\d\d)\b)?`)
	dateMonDay  = regexp.MustCompile(`(?i)\b(` + monthAlt + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(20\d\d)\b)?`)
	dateSlashed = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?\b`)
	dateWeekday = regexp.MustCompile(`(?i)\b(?:(this|next|on|last|coming)\s+)?(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b`)
	dateNamed   = regexp.MustCompile(`(?i)\b(today|tonight|tomorrow|yesterday)\b`)
	dateIn      = regexp.MustCompile(`(?i)\bin\s+(?:about\s+|around\s+|roughly\s+)?(\d+|` + numberWordAlt + `)\s+(days?|weeks?)\b`)
)

// dateMention is a date a sentence states: its candidates (a "03/04" is
// both orders; a day and month without a year is the nearest year), the
// slack its wording allows and whether it carries a year.
type dateMention struct {
	text     string
	days     []time.Time
	slack    int
	withYear bool
}

func monthOf(s string) time.Month {
	s = strings.ToLower(s)
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(strings.ToLower(m.String()), s[:3]) {
			return m
		}
	}
	return 0
}

// datesIn finds the dates a sentence states; relative words count from
// today, and a year left out is the one nearest to near.
func datesIn(s string, today, near time.Time) []dateMention {
	var out []dateMention
	civil := func(y int, m time.Month, d int) (time.Time, bool) {
		t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return t, m >= 1 && m <= 12 && d >= 1 && t.Day() == d
	}
	// nearest picks the year of a day and month nearest to near.
	nearest := func(m time.Month, d int) []time.Time {
		best, ok := time.Time{}, false
		for y := near.Year() - 1; y <= near.Year()+1; y++ {
			if t, valid := civil(y, m, d); valid && (!ok || absDays(t.Sub(near)) < absDays(best.Sub(near))) {
				best, ok = t, true
			}
		}
		if !ok {
			return nil
		}
		return []time.Time{best}
	}
	add := func(text string, days []time.Time, slack int, withYear bool) {
		if len(days) > 0 {
			out = append(out, dateMention{text: text, days: days, slack: slack, withYear: withYear})
		}
	}
	explicit := false
	for _, m := range dateISO.FindAllStringSubmatch(s, -1) {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if t, ok := civil(y, time.Month(mo), d); ok {
			add(m[0], []time.Time{t}, 0, true)
			explicit = true
		}
	}
	named := func(day, month, year string, text string) {
		d, _ := strconv.Atoi(day)
		mo := monthOf(month)
		if year != "" {
			y, _ := strconv.Atoi(year)
			if t, ok := civil(y, mo, d); ok {
				add(text, []time.Time{t}, 0, true)
			}
		} else {
			add(text, nearest(mo, d), 0, false)
		}
		explicit = true
	}
	for _, m := range dateDayMon.FindAllStringSubmatch(s, -1) {
		named(m[1], m[2], m[3], m[0])
	}
	for _, m := range dateMonDay.FindAllStringSubmatch(s, -1) {
		named(m[2], m[1], m[3], m[0])
	}
	for _, m := range dateSlashed.FindAllStringSubmatch(s, -1) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		var days []time.Time
		for _, dm := range [][2]int{{a, b}, {b, a}} { // day/month and month/day
			if m[3] != "" {
				y, _ := strconv.Atoi(m[3])
				if y < 100 {
					y += 2000
				}
				if t, ok := civil(y, time.Month(dm[1]), dm[0]); ok {
					days = append(days, t)
				}
			} else {
				days = append(days, nearest(time.Month(dm[1]), dm[0])...)
			}
		}
		add(m[0], days, 0, m[3] != "")
		explicit = true
	}
	if explicit {
		return out // a weekday beside a date names that date
	}
	for _, m := range dateNamed.FindAllStringSubmatch(s, -1) {
		off := map[string]int{"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}[strings.ToLower(m[1])]
		add(m[0], []time.Time{today.AddDate(0, 0, off)}, 0, false)
	}
	for _, m := range dateWeekday.FindAllStringSubmatch(s, -1) {
		wd := -1
		for d := time.Sunday; d <= time.Saturday; d++ {
			if strings.HasPrefix(strings.ToLower(d.String()), strings.ToLower(m[2])) {
				wd = int(d)
			}
		}
		ahead := (wd - int(today.Weekday()) + 7) % 7
		var days []time.Time
		switch strings.ToLower(m[1]) {
		case "last":
			days = []time.Time{today.AddDate(0, 0, ahead-7)}
		case "next": // "next Monday": the coming one or the one after
			days = []time.Time{today.AddDate(0, 0, ahead), today.AddDate(0, 0, ahead+7)}
		default:
			days = []time.Time{today.AddDate(0, 0, ahead)}
		}
		add(m[0], days, 0, false)
	}
	for _, m := range dateIn.FindAllStringSubmatch(s, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = slices.Index(numberWords, strings.ToLower(m[1]))
		}
		if strings.HasPrefix(strings.ToLower(m[2]), "week") {
			add(m[0], []time.Time{today.AddDate(0, 0, 7*n)}, 3, false) // "in 15 weeks" is a week's span
		} else {
			add(m[0], []time.Time{today.AddDate(0, 0, n)}, 0, false)
		}
	}
	return out
}

func absDays(d time.Duration) float64 { return math.Abs(d.Hours() / 24) }

// programDay finds "Day 4", "day four", "the fourth day", "4th session",
// "session 4": the program day a sentence names (0 none).
var programDayRe = regexp.MustCompile(`(?i)\b(?:day|session)\s+(\d+|` + numberWordAlt + `)\b|\b(\d+)(?:st|nd|rd|th)\s+(?:day|session|workout)\b|\b(` +
	strings.Join(ordinalWords[1:], "|") + `)\s+(?:day|session|workout)\b`)

func programDays(s string) []int {
	var out []int
	for _, m := range programDayRe.FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "":
			n, err := strconv.Atoi(m[1])
			if err != nil {
				n = slices.Index(numberWords, strings.ToLower(m[1]))
			}
			out = append(out, n)
		case m[2] != "":
			n, _ := strconv.Atoi(m[2])
			out = append(out, n)
		default:
			out = append(out, slices.Index(ordinalWords, strings.ToLower(m[3])))
		}
	}
	return out
}

// compileNames turns entity names into word-bounded, case-insensitive
// patterns that also take a plural ("knee" says "knees").
func compileNames(names []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, n := range names {
		p := regexp.QuoteMeta(strings.Join(strings.Fields(n), " "))
		p = strings.ReplaceAll(p, " ", `\s+`)
		out = append(out, regexp.MustCompile(`(?i)(^|\W)`+p+`(s|es)?($|\W)`))
	}
	return out
}

// textOf is the text a fact check reads: field's words (catalog titles
// masked for figures, dates and stances).
func (e *Expectation) textOf(d *dashboard.Document, catalog map[string]content.Item) string {
	text := fieldText(d, e.fieldOrCoach())
	if e.Check != CheckEntity {
		text = maskTitles(text, catalog)
	}
	return text
}

func (e *Expectation) fieldOrCoach() string {
	if e.Field == "" {
		return "coach"
	}
	return e.Field
}

// claim runs a fact check: hits are the sentences that state the fact.
func (e *Expectation) claim(d *dashboard.Document, catalog map[string]content.Item) string {
	return e.claimIn(e.textOf(d, catalog), fieldText(d, e.fieldOrCoach()))
}

// onChat runs a text check (a fact, a pattern, a word count) on the
// coach's chat replies.
func (e *Expectation) onChat(replies []string, catalog map[string]content.Item) string {
	if len(replies) == 0 {
		return "the timeline has no chat replies"
	}
	text := strings.Join(replies, "\n")
	switch e.Check {
	case CheckFigure, CheckDate, CheckStance:
		return e.claimIn(maskTitles(text, catalog), text)
	case CheckEntity:
		return e.claimIn(text, text)
	case CheckMentions:
		return e.mentionsIn(text)
	case CheckWords:
		return count("words in chat", len(strings.Fields(text)), e.Min, e.Max)
	}
	return "check " + e.Check + " does not read the chat"
}

// claimIn runs a fact check on text (shown is the text as the report
// quotes it).
func (e *Expectation) claimIn(text, shown string) string {
	var hits []string
	for _, s := range sentences(text) {
		if e.res["about"] != nil && !e.res["about"].MatchString(s) {
			continue
		}
		if what := e.states(s); what != "" {
			hits = append(hits, fmt.Sprintf("%q (in %q)", what, clip(s, 120)))
		}
	}
	field := e.fieldOrCoach()
	switch {
	case e.Absent && len(hits) > 0:
		return field + " states " + strings.Join(hits, "; ")
	case !e.Absent && len(hits) == 0:
		return fmt.Sprintf("%s does not state %s: %q", field, e.factLabel(), clip(shown, 300))
	}
	return ""
}

// states returns what in sentence s states the expectation's fact ("" if
// nothing does).
func (e *Expectation) states(s string) string {
	switch e.Check {
	case CheckFigure:
		for _, n := range numbersIn(s) {
			if e.Unit != "" && !unitAfter[e.Unit].MatchString(s[n.end:]) {
				continue
			}
			if e.Number == nil || n.matches(*e.Number, e.Tolerance) {
				return n.text + " " + e.Unit
			}
		}
	case CheckDate:
		for _, m := range datesIn(s, e.today, e.when) {
			if e.WithYear && !m.withYear {
				continue
			}
			for _, t := range m.days {
				if absDays(t.Sub(e.when)) <= float64(e.WithinDays+m.slack) {
					return m.text
				}
			}
		}
	case CheckEntity:
		name := ""
		for _, re := range e.names {
			if loc := re.FindStringIndex(s); loc != nil {
				name = strings.TrimSpace(s[loc[0]:loc[1]])
				break
			}
		}
		if len(e.names) > 0 && name == "" {
			return ""
		}
		if e.Day == 0 && !e.AnyDay {
			return name
		}
		for _, n := range programDays(s) {
			if e.AnyDay || n == e.Day {
				return strings.TrimSpace(name + " day " + strconv.Itoa(n))
			}
		}
	case CheckStance:
		return stanceIn(stances[e.Stance], s)
	}
	return ""
}

// factLabel says what a fact check looks for.
func (e *Expectation) factLabel() string {
	switch e.Check {
	case CheckFigure:
		if e.Number == nil {
			return "a figure in " + e.Unit
		}
		return strings.TrimSpace(strconv.FormatFloat(*e.Number, 'f', -1, 64) + " " + e.Unit)
	case CheckDate:
		return e.when.Format("Mon 2 Jan 2006")
	case CheckEntity:
		s := strings.Join(e.Names, " or ")
		if e.Day > 0 {
			s = strings.TrimSpace(s + " day " + strconv.Itoa(e.Day))
		}
		if e.AnyDay {
			s = strings.TrimSpace(s + " day N")
		}
		return s
	case CheckStance:
		return "stance " + e.Stance
	}
	return e.Check
}

// checkClaim validates a fact check's arguments.
func (e *Expectation) checkClaim() error {
	if e.Field != "" && !slices.Contains(textFields, e.Field) {
		return fmt.Errorf("field %q: one of %s", e.Field, strings.Join(textFields, ", "))
	}
	switch e.Check {
	case CheckFigure:
		if e.Unit != "" && unitAfter[e.Unit] == nil {
			return fmt.Errorf("unit %q: one of kg, lb, kcal, kj, g, days, weeks, sessions, min, %%", e.Unit)
		}
		if e.Number == nil && (!e.Absent || e.Unit == "") {
			return fmt.Errorf("number is required (absent with a unit alone: no figure in that unit)")
		}
	case CheckDate:
		switch {
		case (e.Date == "") == (e.InDays == nil):
			return fmt.Errorf("date (YYYY-MM-DD) or in_days is required, not both")
		case e.Date != "":
			t, err := time.Parse(time.DateOnly, e.Date)
			if err != nil {
				return fmt.Errorf("date %q: want YYYY-MM-DD", e.Date)
			}
			e.when = t
		}
	case CheckEntity:
		if len(e.Names) == 0 && e.Day == 0 && !e.AnyDay {
			return fmt.Errorf("names, day or any_day is required")
		}
		e.names = compileNames(e.Names)
	case CheckStance:
		if stances[e.Stance] == nil {
			return fmt.Errorf("stance %q: one of %s", e.Stance, strings.Join(StanceNames(), ", "))
		}
	}
	return nil
}

// setToday resolves a date check's in_days against the scenario's today
// (and gives relative words in the plan their meaning).
func (e *Expectation) setToday(today time.Time) {
	y, m, d := today.Date()
	e.today = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if e.InDays != nil {
		e.when = e.today.AddDate(0, 0, *e.InDays)
	}
}
