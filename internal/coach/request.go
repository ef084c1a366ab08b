package coach

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/schedule"
)

// Requests: a scheduled action or a to-do often asks the coach to tell the
// member something ("Add a short hydration reminder", "Remind Theo to do
// 10 minutes of stretching before bed", "Please check in with me about my
// knee in 20 minutes"). Without a model the coach writes that message from
// the request's own words, turned to the member ("his knee" → "your
// knee"; "me" and "my" too when the request names the member as "me", as
// one they scheduled for themselves does), with the facts that bear on its
// topic, and sends it with send_message, so it goes out in the run's
// commit. The request is never the member's words (agent.Agent.Heard is
// not called for it).

// requestVerb is how a request asks for its message.
type requestVerb int

const (
	verbRemind  requestVerb = iota + 1 // remind, nudge: "<Topic> reminder: <words>."
	verbTell                           // tell: the words are the message
	verbAsk                            // ask: a question about the words
	verbCheckIn                        // check in with / check on: how is it going
	verbEncourage
	verbCongratulate
	verbCompose // add, send, write…: the words describe a message to write
)

var requestVerbs = map[string]requestVerb{
	"remind": verbRemind, "nudge": verbRemind, "tell": verbTell, "ask": verbAsk, "check in with": verbCheckIn,
	"check in on": verbCheckIn, "check on": verbCheckIn, "encourage": verbEncourage, "congratulate": verbCongratulate,
	"add": verbCompose, "send": verbCompose, "write": verbCompose, "give": verbCompose, "post": verbCompose,
	"share": verbCompose, "create": verbCompose, "draft": verbCompose, "compose": verbCompose,
	"prepare": verbCompose, "message": verbCompose,
}

// reRequestHead is a request's politeness and verb.
var reRequestHead = regexp.MustCompile(`(?i)^(?:(?:please|kindly|can you|could you|would you)\s+)*` +
	`(remind|nudge|tell|ask|check\s+in\s+with|check\s+in\s+on|check\s+on|encourage|congratulate|add|send|write|give|post|share|create|draft|compose|prepare|message)\b[\s,:]*`)

// whenPhrase is a time phrase the schedule already acted on ("in 20
// minutes", "later today", "tomorrow at 9"): once the task fires it is no
// longer true, so it is not part of the message. Only at the start or the
// end of the request, or right after its addressee ("remind me in an
// hour to…"): "the race is soon" keeps its "soon".
const whenPhrase = `(?:(?:in|within|after)\s+(?:\d+|a|an|one|two|three|four|five|ten|twenty|thirty|half\s+an?|a\s+few|a\s+couple\s+of)\s*` +
	`(?:minutes?|mins?|hours?|hrs?|h|days?)|later(?:\s+(?:today|on|tonight))?|soon|shortly|tomorrow(?:\s+(?:morning|afternoon|evening|night))?|` +
	`at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|h)?)(?:\s+(?:from\s+now|or\s+so))?`

var (
	reWhenStart = regexp.MustCompile(`(?i)^` + whenPhrase + `[\s,]*`)
	reWhenEnd   = regexp.MustCompile(`(?i)[\s,]+` + whenPhrase + `$`)
)

// dropWhen removes time phrases from the start and the end of s.
func dropWhen(s string) string {
	for {
		t := strings.TrimSpace(reWhenEnd.ReplaceAllString(reWhenStart.ReplaceAllString(s, ""), ""))
		if t == s {
			return s
		}
		s = t
	}
}

// memberRequest is a request for a message, read from its words.
type memberRequest struct {
	verb requestVerb
	// body is what follows the verb, the addressee and the connector
	// ("to", "about"…), turned to the member and without time phrases.
	body string
	// kind is a compose request's kind of message ("reminder", "note").
	kind string
}

// parseRequest reads message as a request for a message to m; ok is false
// when it asks for something else ("Review Theo's week").
func parseRequest(message string, m health.Member) (memberRequest, bool) {
	s := strings.TrimSpace(message)
	if todo, ok := schedule.TodoText(s); ok {
		s = strings.TrimSpace(todo)
	}
	s = dropWhen(strings.TrimRight(s, ".!? "))
	loc := reRequestHead.FindStringSubmatchIndex(s)
	if loc == nil {
		return memberRequest{}, false
	}
	verbText := strings.ToLower(strings.Join(strings.Fields(s[loc[2]:loc[3]]), " "))
	r := memberRequest{verb: requestVerbs[verbText]}
	rest := strings.TrimSpace(s[loc[1]:])
	rest, self := dropAddressee(rest, m)
	rest = dropWhen(rest)
	if r.verb == verbCompose {
		rest = composed(rest, &r)
	} else {
		rest = dropConnector(rest, r.verb)
	}
	r.body = strings.TrimSpace(toMember(rest, m, self))
	return r, true
}

// dropAddressee removes the member the request names ("Theo", "Theo
// Smith", "him", "the member", or "me" when they scheduled it for
// themselves); self says the request's "me" and "my" are the member.
func dropAddressee(s string, m health.Member) (string, bool) {
	names := []string{"me", "the member", "him", "her", "them", "you"}
	if m.Name != "" {
		names = append([]string{m.Name, strings.Fields(m.Name)[0]}, names...)
	}
	names = append(names, m.ID)
	low := strings.ToLower(s)
	for _, n := range names {
		n = strings.ToLower(n)
		if n == "" || !strings.HasPrefix(low, n) {
			continue
		}
		if len(low) > len(n) {
			if r, _ := utf8.DecodeRuneInString(low[len(n):]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
				continue // "them" in "themselves", "her" in "here", "Theo's"
			}
		}
		return strings.TrimLeft(s[len(n):], " ,:"), n == "me"
	}
	return s, false
}

// connectors are the words between a relay verb's addressee and its message.
var connectors = map[requestVerb][]string{
	verbRemind:       {"to", "that", "about", "of"},
	verbTell:         {"that"},
	verbCheckIn:      {"about", "on", "regarding", "re"},
	verbEncourage:    {"to"},
	verbCongratulate: {"on", "for"},
}

func dropConnector(s string, v requestVerb) string {
	for _, c := range connectors[v] {
		if rest, ok := cutWord(s, c); ok {
			return rest
		}
	}
	return s
}

// cutWord cuts word (and the space after it) from the start of s.
func cutWord(s, word string) (string, bool) {
	if len(s) < len(word) || !strings.EqualFold(s[:len(word)], word) {
		return s, false
	}
	rest := s[len(word):]
	if rest != "" && rest[0] != ' ' && rest[0] != ',' && rest[0] != ':' {
		return s, false
	}
	return strings.TrimLeft(rest, " ,:"), true
}

// reCompose is what a compose verb describes: "a short hydration
// reminder", "a note about rest days", "a reminder to log dinner".
var reCompose = regexp.MustCompile(`(?i)^(?:(?:a|an|the|some|one)\s+)?(?:(?:short|quick|brief|friendly|little|gentle|small|kind|daily|weekly)\s+)*` +
	`(.*?)\s*\b(reminder|note|message|nudge|tip|encouragement|check-?in)s?\b\s*(?:(to|that|about|on|for|regarding)\s+(.*))?$`)

// composed reads a compose request: its kind of message and what it is
// about; "a reminder to X" is a reminder of X.
func composed(s string, r *memberRequest) string {
	mm := reCompose.FindStringSubmatch(s)
	if mm == nil {
		return s
	}
	r.kind = strings.ToLower(mm[2])
	if r.kind == "reminder" && strings.EqualFold(mm[3], "to") {
		r.verb = verbRemind
		return mm[4]
	}
	return strings.TrimSpace(mm[1] + " " + mm[4])
}

// The member's words in the coach's mouth: third person ("his", "Theo's")
// and, for a request the member made, first person ("my") become "your".
var (
	reWord       = regexp.MustCompile(`[\p{L}\p{N}]+(?:'[\p{L}]+)?`)
	thirdPerson  = map[string]string{"he": "you", "she": "you", "they": "you", "him": "you", "them": "you", "his": "your", "their": "your", "theirs": "yours", "hers": "yours", "himself": "yourself", "herself": "yourself", "themselves": "yourself", "themself": "yourself", "he's": "you're", "she's": "you're", "they're": "you're", "he'd": "you'd", "she'd": "you'd", "he'll": "you'll", "she'll": "you'll"}
	firstPerson  = map[string]string{"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd"}
	subjects     = map[string]bool{"he": true, "she": true, "they": true, "i": true}
	agreeingVerb = map[string]string{"is": "are", "was": "were", "has": "have", "does": "do", "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't", "doesn't": "don't", "am": "are"}
	// herBefore: "her" before these is "you" ("ask her how"), else "your".
	herBefore = map[string]bool{"": true, "to": true, "and": true, "or": true, "about": true, "that": true, "how": true, "if": true,
		"whether": true, "what": true, "when": true, "why": true, "a": true, "an": true, "the": true, "on": true, "for": true,
		"with": true, "again": true, "today": true, "tonight": true}
)

func toMember(s string, m health.Member, self bool) string {
	first := ""
	if f := strings.Fields(m.Name); len(f) > 0 {
		first = strings.ToLower(f[0])
	}
	locs := reWord.FindAllStringIndex(s, -1)
	var b strings.Builder
	last, prevSubject := 0, false
	for i, l := range locs {
		w := s[l[0]:l[1]]
		low := strings.ToLower(w)
		repl, subject, name := "", false, false
		switch {
		case first != "" && (low == first || low == first+"'s") || low == strings.ToLower(m.ID) && m.ID != "":
			repl, name = "you", true
			if strings.HasSuffix(low, "'s") {
				repl = "your"
			}
		case low == "her":
			next := ""
			if i+1 < len(locs) {
				next = strings.ToLower(s[locs[i+1][0]:locs[i+1][1]])
			}
			repl = "your"
			if herBefore[next] {
				repl = "you"
			}
		case thirdPerson[low] != "":
			repl, subject = thirdPerson[low], subjects[low]
		case self && firstPerson[low] != "":
			repl, subject = firstPerson[low], subjects[low]
		case prevSubject && agreeingVerb[low] != "":
			repl = agreeingVerb[low]
		}
		prevSubject = subject
		b.WriteString(s[last:l[0]])
		if repl == "" {
			b.WriteString(w)
		} else {
			// A pronoun keeps its capital (it starts a sentence); a name
			// and "I" are capitalised anyway.
			if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) && !name && firstPerson[low] == "" {
				repl = upperFirst(repl)
			}
			b.WriteString(repl)
		}
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// requestTopic is one kind of request the heuristic knows: its words, the
// label of a reminder about it, its note (what a message "about" it says
// when the request gives no words of its own) and the facts that bear on it.
type requestTopic struct {
	words *regexp.Regexp
	label string // "Hydration" reminder
	about string // a note on "hydration"
	note  string
	// facts adds the facts that bear on the topic ("" = none).
	facts func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error)
}

var requestTopics = []requestTopic{
	{words: regexp.MustCompile(`(?i)\b(hydrat\w*|water|drink\w*|thirst\w*)\b`), label: "Hydration", about: "hydration",
		note:  "keep a glass of water within reach and sip through the day; one with each meal is an easy rule.",
		facts: sessionFact("Take a bottle to today's session: %s."),
	},
	{words: regexp.MustCompile(`(?i)\bprotein\b`), label: "Protein", about: "protein",
		note: "a protein-rich meal or snack (yogurt, eggs, beans, fish) keeps you on track.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			d, err := r.c.nutritionDay(ctx, m, now)
			if err != nil || d.Meals == 0 {
				return "", err
			}
			p := d.VsTargets.Protein
			if p.Target == nil {
				return fmt.Sprintf("So far today: %s g of protein.", num(p.Consumed)), nil
			}
			return fmt.Sprintf("So far today: %s g of your %s g protein target.", num(p.Consumed), num(*p.Target)), nil
		},
	},
	{words: regexp.MustCompile(`(?i)\b(weigh\w*|scales?|weight)\b`), label: "Weigh-in", about: "weighing in",
		note: "step on the scale, ideally at the same time each morning.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			w, err := r.c.weightView(ctx, m, now)
			if err != nil || w.DaysSinceWeighIn == nil {
				return "", err
			}
			switch d := *w.DaysSinceWeighIn; d {
			case 0:
				return fmt.Sprintf("You weighed in today: %s.", w.CurrentText), nil
			case 1:
				return fmt.Sprintf("Your last weigh-in was yesterday: %s.", w.CurrentText), nil
			default:
				return fmt.Sprintf("Your last weigh-in was %d days ago.", d), nil
			}
		},
	},
	{words: regexp.MustCompile(`(?i)\b(meals?|food|eat|eating|ate|dinner|lunch|breakfast|snacks?|calories|kcal)\b`), label: "Meal", about: "meals",
		note: "log what you eat as you go; it takes a few seconds on the kiosk.",
		facts: func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
			d, err := r.c.nutritionDay(ctx, m, now)
			if err != nil {
				return "", err
			}
			if d.Meals == 0 {
				return "Nothing logged today yet.", nil
			}
			return fmt.Sprintf("Logged today: %s (%s kcal).", plural(d.Meals, "meal"), kcal(d.Totals.Calories)), nil
		},
	},
	{words: regexp.MustCompile(`(?i)\b(stretch\w*|mobility|posture|yoga|foam[- ]roll\w*)\b`), label: "Stretching", about: "stretching",
		note: "a few minutes of gentle stretching loosens you up after sitting.",
	},
	{words: regexp.MustCompile(`(?i)\b(sleep\w*|bed|bedtime|asleep|nap)\b`), label: "Sleep", about: "sleep",
		note: "aim to be in bed in time for seven to nine hours; a screen-free half hour before helps.",
	},
	{words: regexp.MustCompile(`(?i)\b(walk\w*|steps|move|moving|movement)\b`), label: "Movement", about: "moving more",
		note:  "a ten-minute walk counts; take one after your next meal.",
		facts: weekFact,
	},
	{words: regexp.MustCompile(`(?i)\b(rest\s+days?|recover\w*|rest)\b`), label: "Rest", about: "rest",
		note: "rest days are when training pays off; keep today easy and sleep well.",
	},
	{words: regexp.MustCompile(`(?i)\b(workouts?|sessions?|training|train|program|programme|exercis\w*)\b`), label: "Training", about: "training",
		note:  "whatever you do today, a short session beats none.",
		facts: sessionFact("Today's session: %s."),
	},
}

// topicOf is the topic the words are about: the one named first, so
// "stretching before bed" is about stretching, not sleep.
func topicOf(words string) *requestTopic {
	var best *requestTopic
	at := -1
	for i := range requestTopics {
		t := &requestTopics[i]
		if loc := t.words.FindStringIndex(words); loc != nil && (at < 0 || loc[0] < at) {
			best, at = t, loc[0]
		}
	}
	return best
}

// sessionFact names today's program session in format (none on other days).
func sessionFact(format string) func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
	return func(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
		p, err := r.c.programView(ctx, m.ID, now)
		if err != nil || !p.HasProgram || p.Today != string(program.DayTraining) || p.Item == nil {
			return "", err
		}
		return fmt.Sprintf(format, fmt.Sprintf("%s, %s (%d min)", p.Week, p.Item.Title, p.Item.DurationMin)), nil
	}
}

func weekFact(ctx context.Context, r *replier, m health.Member, now time.Time) (string, error) {
	w, err := r.c.workoutsView(ctx, m, 3, now)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("This week so far: %s.", plural(w.Stats.ThisWeek, "workout")), nil
}

// request writes the message a request for one asks for; ok is false for
// a request that asks for anything else.
func (r *replier) request(ctx context.Context, m health.Member, now time.Time, message string) (string, bool, error) {
	req, ok := parseRequest(message, m)
	if !ok {
		return "", false, nil
	}
	topic := topicOf(req.body)
	var lines []string
	switch body := req.body; req.verb {
	case verbRemind:
		switch {
		case body == "" && topic != nil:
			lines = append(lines, topic.label+" reminder: "+topic.note)
		case body == "":
			lines = append(lines, "A reminder from your coach: keep going today.")
		case topic != nil:
			lines = append(lines, topic.label+" reminder: "+sentence(body, "."))
		default:
			lines = append(lines, "Reminder: "+sentence(body, "."))
		}
	case verbTell:
		if body == "" {
			return "", false, nil
		}
		lines = append(lines, upperFirst(sentence(body, ".")))
	case verbAsk:
		if body == "" {
			body = "how you are doing"
		}
		lines = append(lines, "Quick question about "+sentence(body, ":")+" tap Ask the coach to tell me.")
	case verbCheckIn:
		if body == "" {
			lines = append(lines, "Checking in: how are you doing today? Tap Ask the coach to tell me.")
		} else {
			lines = append(lines, "Checking in about "+sentence(body, ":")+" how is it going? Tap Ask the coach to tell me.")
		}
	case verbEncourage:
		if body == "" {
			lines = append(lines, "You're doing the work: keep it going today.")
		} else {
			lines = append(lines, "You can do it: "+sentence(body, "."))
		}
	case verbCongratulate:
		if body == "" {
			lines = append(lines, "Congratulations, well done!")
		} else {
			lines = append(lines, "Congratulations on "+sentence(body, "!"))
		}
	case verbCompose:
		label := "A note"
		if req.kind == "reminder" {
			label = "A reminder"
		}
		switch {
		case topic != nil && req.kind == "reminder":
			lines = append(lines, topic.label+" reminder: "+topic.note)
		case topic != nil:
			lines = append(lines, "A note on "+topic.about+": "+topic.note)
		case body != "":
			lines = append(lines, label+" from your coach about "+sentence(body, "."))
		default:
			lines = append(lines, label+" from your coach: keep going today.")
		}
	}
	if topic != nil && topic.facts != nil {
		f, err := topic.facts(ctx, r, m, now)
		if err != nil {
			return "", true, err
		}
		if f != "" {
			lines = append(lines, f)
		}
	}
	return strings.Join(lines, " "), true, nil
}

// sentence ends s with end (its own end punctuation replaced).
func sentence(s, end string) string {
	return strings.TrimRight(strings.TrimSpace(s), ".!?:;, ") + end
}
