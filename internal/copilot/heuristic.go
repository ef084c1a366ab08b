package copilot

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"hearth/internal/agent"
)

// maxPromptValue bounds each value Prompt shows the model.
const maxPromptValue = 500

// Prompt is the user message the copilot gets: the open form, its fields
// and values (never a secret), and the admin's words last. ParsePrompt
// reads it back (the heuristic answers from the same message a model gets).
func Prompt(f Form, values map[string]string, ask string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Open form: %s (%s)\n", f.ID, f.Title)
	fields := make([]string, 0, len(f.Fields))
	for _, fd := range f.Fields {
		d := fd.Name + " [" + fd.Kind
		if len(fd.Options) > 0 {
			d += ": " + strings.Join(fd.Options, "|")
		}
		fields = append(fields, d+"]")
	}
	fmt.Fprintf(&b, "Fields: %s\n", strings.Join(fields, ", "))
	vals := cleanValues(f, values)
	for k, v := range vals {
		vals[k] = clip(v, maxPromptValue) // the browser's values are the admin's; the model needs no novel
	}
	raw, _ := json.Marshal(vals)
	fmt.Fprintf(&b, "Current values: %s\n", raw)
	fmt.Fprintf(&b, "Request: %s", ask)
	return b.String()
}

// ParsePrompt returns the open form's id and the request of a Prompt; a
// message in another shape is all request, with no open form.
func ParsePrompt(msg string) (form, ask string) {
	rest := msg
	if strings.HasPrefix(rest, "Open form: ") {
		line, after, _ := strings.Cut(strings.TrimPrefix(rest, "Open form: "), "\n")
		form, _, _ = strings.Cut(line, " ")
		rest = after
	}
	if i := strings.Index(rest, "Request: "); i >= 0 && (i == 0 || rest[i-1] == '\n') {
		return form, strings.TrimSpace(rest[i+len("Request: "):])
	}
	return form, strings.TrimSpace(msg)
}

// Respond is the config-copilot's heuristic answer (no model) to a
// message, as JSON matching OutputSchema. call reaches the config tools
// (config_list_users keeps a new member's id free); nil skips them.
func Respond(ctx context.Context, call agent.ToolCaller, message string) (string, error) {
	form, ask := ParsePrompt(message)
	var taken []string
	if call != nil {
		var users []UserSummary
		if err := agent.CallInto(ctx, call, "config_list_users", struct{}{}, &users); err == nil {
			for _, u := range users {
				taken = append(taken, u.ID)
			}
		}
	}
	raw, err := json.Marshal(Heuristic(form, ask, taken))
	return string(raw), err
}

var (
	urlRe      = regexp.MustCompile(`https?://[^\s"'<>]+`)
	plexRe     = regexp.MustCompile(`(?i)\bplex\b`)
	haRe       = regexp.MustCompile(`(?i)\bhome\s*assistant\b|\bhass\b`)
	addRe      = regexp.MustCompile(`(?i)\b(?:add|create|new member|set up|register)\b`)
	relationRe = regexp.MustCompile(`(?i)\b(daughter|son|wife|husband|partner|child|kid|mother|mom|mum|father|dad|brother|sister|grandma|grandmother|grandpa|grandfather|guest|friend|me|myself)\b`)
	nameRe     = regexp.MustCompile(`\b([\p{Lu}][\p{L}'-]{0,39})\b`)
	ageRe      = regexp.MustCompile(`(?i)\b(\d{1,3})\s*(?:years?\s*old|y/?o|yrs?)?\b`)
	deleteRe   = regexp.MustCompile(`(?i)\b(delete|remove|erase|drop)\b`)
	scheduleRe = regexp.MustCompile(`(?i)\b(every|daily|weekdays?|weekends?|hourly|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b`)
)

// female and male relations give the member's sex (for BMR); children's
// relations make the role child.
var (
	femaleRel = map[string]bool{"daughter": true, "wife": true, "mother": true, "mom": true, "mum": true, "sister": true, "grandma": true, "grandmother": true}
	maleRel   = map[string]bool{"son": true, "husband": true, "father": true, "dad": true, "brother": true, "grandpa": true, "grandfather": true}
	childRel  = map[string]bool{"daughter": true, "son": true, "child": true, "kid": true}
)

// Heuristic answers the common onboarding requests without a model: a new
// member, Plex or Home Assistant's address (the token stays the admin's to
// type), a schedule in plain words; it says what it cannot do. form is the
// open form ("" none); taken are member ids already in use.
func Heuristic(form, ask string, taken []string) Reply {
	return vet(form, heuristic(form, ask, taken))
}

// vet drops the values the open form would refuse from a heuristic reply
// ("100 kcal" is not a calories target) and says why, so the heuristic
// proposes only what the form takes.
func vet(form string, r Reply) Reply {
	f, ok := FormByID(form)
	if !ok {
		return r
	}
	var why []string
	keep := func(field string, v Value) bool {
		fd, ok := f.Field(field)
		if !ok {
			return true // another form's (navigate answers): Apply reports it
		}
		if p := fd.CheckValue(strings.TrimSpace(string(v))); p != "" {
			why = append(why, fd.Label+" "+p)
			return false
		}
		return true
	}
	cmds := r.Commands[:0:0]
	for _, c := range r.Commands {
		switch c.Action {
		case SetField:
			if !keep(c.Field, c.Value) {
				continue
			}
		case SetFields:
			var fs []FieldValue
			for _, fv := range c.Fields {
				if keep(fv.Field, fv.Value) {
					fs = append(fs, fv)
				}
			}
			if len(fs) == 0 {
				continue
			}
			c.Fields = fs
		}
		cmds = append(cmds, c)
	}
	r.Commands = cmds
	if len(why) > 0 {
		r.Message = strings.TrimSpace(r.Message + " I left out what the form would refuse: " + strings.Join(why, "; ") + ".")
	}
	return r
}

func heuristic(form, ask string, taken []string) Reply {
	switch {
	case strings.TrimSpace(ask) == "":
		return Reply{Message: "Tell me what to set up, e.g. \"add my daughter Ava, 8, metric\", \"connect Plex at http://plex.local:32400\" or \"every day at 7pm\"."}
	case deleteRe.MatchString(ask):
		return Reply{Message: "I cannot delete or remove anything: I only fill in the form you have open, and you save it. Deleting is done on the page itself."}
	case plexRe.MatchString(ask):
		return connect(form, FormPlex, "Plex", "plex_url", "plex_token", ask,
			"Paste your Plex token (X-Plex-Token) in the token field yourself: I never handle tokens.")
	case haRe.MatchString(ask):
		return connect(form, FormHomeAssistant, "Home Assistant", "ha_url", "ha_token", ask,
			"Create a long-lived access token in your Home Assistant profile and paste it in the token field yourself: I never handle tokens.")
	}
	if zoneAskRe.MatchString(ask) {
		return timeZone(form, ask)
	}
	if nightRe.MatchString(ask) {
		return night(form, ask)
	}
	if enrolRe.MatchString(ask) {
		return enrolScreen(form, ask)
	}
	if cron, ok := NaturalCron(ask); ok && scheduleRe.MatchString(ask) {
		if form != FormSchedule {
			return elsewhere(FormSchedule, fmt.Sprintf("%q is the cron %s.", ask, cron))
		}
		return Reply{Message: fmt.Sprintf("\"%s\" in cron is %s (household time). Give the task a description and press Save.", clip(ask, 100), cron),
			Commands: []Command{{Action: SetFields, Fields: []FieldValue{{"type", "recurring"}, {"schedule", Value(cron)}}},
				{Action: HighlightField, Field: "description"}}}
	}
	if addRe.MatchString(ask) || relationRe.MatchString(ask) {
		if r, ok := newMember(form, ask, taken); ok {
			return r
		}
	}
	if ts, _ := readTargets(ask); len(ts) > 0 && (form == FormTargets || form == FormMember) {
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = t.Field
		}
		return Reply{Message: "I set " + strings.Join(names, ", ") + ". Check them and press Save.",
			Commands: []Command{{Action: SetFields, Fields: ts}}}
	}
	return Reply{Message: "I did not understand that. Without a language model I can: add a member (\"add my daughter Ava, 8, metric\"), " +
		"fill Plex's or Home Assistant's address (\"connect Plex at http://plex.local:32400\"), and turn a schedule in words into cron " +
		"(\"weekdays at 6:30\"). I cannot save, delete, or handle tokens and passwords."}
}

// elsewhere answers a request for another form: open it.
func elsewhere(target, why string) Reply {
	f, _ := FormByID(target)
	return Reply{Message: why + " That is done on " + f.Title + ": open it and ask me there.",
		Commands: []Command{{Action: Navigate, To: target}}}
}

func connect(form, target, name, urlField, tokenField, ask, tokenHint string) Reply {
	if form != target {
		return elsewhere(target, "")
	}
	u := strings.TrimRight(urlRe.FindString(ask), ".,;)")
	if u == "" {
		return Reply{Message: fmt.Sprintf("What is %s's address? For example: connect %s at http://192.168.1.10:32400.", name, name),
			Commands: []Command{{Action: HighlightField, Field: urlField}}}
	}
	return Reply{Message: fmt.Sprintf("I filled %s's address. %s Then press Save.", name, tokenHint),
		Commands: []Command{{Action: SetField, Field: urlField, Value: Value(u)}, {Action: HighlightField, Field: tokenField}}}
}

// newMember reads "add my daughter Ava, 8, metric".
func newMember(form, ask string, taken []string) (Reply, bool) {
	targets, rest := readTargets(ask)
	rel := ""
	if m := relationRe.FindStringSubmatch(rest); m != nil {
		rel = strings.ToLower(m[1])
	}
	name := memberName(rest)
	if name == "" {
		if rel == "" {
			return Reply{}, false
		}
		return Reply{Message: "What is their name? For example: add my daughter Ava, 8, metric."}, true
	}
	if form != FormMember {
		return elsewhere(FormMember, "Adding "+name+" is a new member."), true
	}
	ask = rest
	fields := []FieldValue{{"id", Value(freeID(name, taken))}, {"name", Value(name)}}
	var said []string
	age := -1
	for _, m := range ageRe.FindAllStringSubmatch(ask, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && n < 120 {
			age = n
			break
		}
	}
	lower := strings.ToLower(ask)
	switch {
	case regexp.MustCompile(`\b(metric|kg|kilos?|kilograms?)\b`).MatchString(lower):
		fields = append(fields, FieldValue{"unit", "kg"})
		said = append(said, "weights in kg")
	case regexp.MustCompile(`\b(imperial|lbs?|pounds?)\b`).MatchString(lower):
		fields = append(fields, FieldValue{"unit", "lb"})
		said = append(said, "weights in lb")
	}
	switch {
	case femaleRel[rel]:
		fields = append(fields, FieldValue{"sex", "female"})
	case maleRel[rel]:
		fields = append(fields, FieldValue{"sex", "male"})
	}
	switch {
	case rel == "guest" || rel == "friend":
		fields = append(fields, FieldValue{"role", "guest"})
		said = append(said, "role guest")
	case (childRel[rel] && (age < 0 || age < 18)) || (age >= 0 && age < 18):
		fields = append(fields, FieldValue{"role", "child"})
		said = append(said, "role child")
	}
	fields = append(fields, targets...)
	if len(targets) > 0 {
		said = append(said, "targets")
	}
	msg := "I filled the new member " + name
	if len(said) > 0 {
		msg += " (" + strings.Join(said, ", ") + ")"
	}
	msg += "."
	cmds := []Command{{Action: SetFields, Fields: fields}}
	if age >= 0 {
		msg += fmt.Sprintf(" An age (%d) is not a birth date: enter %s's birth date yourself if you want age-based targets.", age, name)
		cmds = append(cmds, Command{Action: HighlightField, Field: "birth_date"})
	}
	msg += " Check the form and press Add member to save."
	return Reply{Message: msg, Commands: cmds}, true
}

// skipName are capitalised words that are not a name.
var skipName = map[string]bool{"add": true, "my": true, "our": true, "please": true, "new": true, "a": true, "the": true,
	"create": true, "set": true, "i": true, "he": true, "she": true, "they": true, "member": true, "register": true,
	"metric": true, "imperial": true, "kg": true, "lb": true, "lbs": true, "daughter": true, "son": true, "wife": true,
	"husband": true, "partner": true, "child": true, "kid": true, "guest": true, "friend": true, "mom": true, "mum": true,
	"dad": true, "mother": true, "father": true, "brother": true, "sister": true, "me": true, "myself": true,
	"is": true, "and": true, "who": true, "named": true, "called": true, "aged": true, "age": true, "with": true}

// freeID makes a member id from a name, numbered past the taken ones.
func freeID(name string, taken []string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteRune('-')
		}
	}
	id := strings.Trim(b.String(), "-")
	if id == "" {
		id = "member"
	}
	if len(id) > 36 {
		id = id[:36]
	}
	base := id
	for n := 2; slices.Contains(taken, id); n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	return id
}

// memberName reads a name: the capitalised words that are not a
// relation or a command ("Ava", "Mary Jane"), else the word after a
// relation ("my daughter ava").
func memberName(ask string) string {
	for _, m := range nameRe.FindAllStringSubmatchIndex(ask, -1) {
		w := ask[m[2]:m[3]]
		if skipName[strings.ToLower(w)] {
			continue
		}
		name := w
		tail := ask[m[3]:]
		for {
			n := nextNameRe.FindStringSubmatch(tail)
			if n == nil || skipName[strings.ToLower(n[1])] {
				break
			}
			name += " " + n[1]
			tail = tail[len(n[0]):]
		}
		return name
	}
	if m := afterRelationRe.FindStringSubmatch(ask); m != nil && !skipName[strings.ToLower(m[1])] {
		return strings.ToUpper(m[1][:1]) + m[1][1:]
	}
	return ""
}

var (
	nextNameRe      = regexp.MustCompile(`^ ([\p{Lu}][\p{L}'-]{0,39})\b`)
	afterRelationRe = regexp.MustCompile(`(?i)\b(?:daughter|son|wife|husband|partner|child|kid|mother|mom|mum|father|dad|brother|sister|grandma|grandmother|grandpa|grandfather|guest|friend)\s+([a-z][a-z'-]{0,39})\b`)
)

var (
	nightRe      = regexp.MustCompile(`(?i)\bnight\s*mode\b|\b(dim|blank|black|dark)\b.*\bscreens?\b|\bscreens?\b.*\b(dim|blank|black|dark)\b`)
	nightOffRe   = regexp.MustCompile(`(?i)\b(turn|switch)\s+(off|out)\s+night\s*mode\b|\bnight\s*mode\s+off\b|\bno\s+night\s*mode\b|\bdisable\s+night\s*mode\b`)
	nightBlankRe = regexp.MustCompile(`(?i)\b(blank|black|dark)\b`)
	nightSpanRe  = regexp.MustCompile(`(?i)\b(?:from|between)\s+(.+?)\s+(?:to|until|till|and)\s+(.+)$`)
)

// night reads the screens' night schedule: "dim the screens from 10pm to
// 6:30am", "black screens between 22:00 and 07:00", "night mode off".
func night(form, ask string) Reply {
	if form != FormNight {
		return elsewhere(FormNight, "The screens' night is the night-mode form.")
	}
	if nightOffRe.MatchString(ask) {
		return Reply{Message: "Night mode off: the screens stay as by day. Press Save night mode to keep it.",
			Commands: []Command{{Action: SetField, Field: "night_mode", Value: "off"}}}
	}
	mode := "dim"
	if nightBlankRe.MatchString(ask) {
		mode = "blank"
	}
	fields := []FieldValue{{"night_mode", Value(mode)}}
	msg := "Night mode: " + map[string]string{"dim": "the screens dim to a clock", "blank": "the screens go black"}[mode]
	if m := nightSpanRe.FindStringSubmatch(ask); m != nil {
		h1, m1, ok1 := clock(m[1] + " ")
		h2, m2, ok2 := clock(m[2] + " ")
		if ok1 && ok2 {
			from, to := fmt.Sprintf("%02d:%02d", h1, m1), fmt.Sprintf("%02d:%02d", h2, m2)
			fields = append(fields, FieldValue{"night_from", Value(from)}, FieldValue{"night_to", Value(to)})
			msg += " from " + from + " to " + to
		}
	}
	if len(fields) == 1 {
		msg += "; say the hours too (\"from 10pm to 6:30am\") or set From and Until yourself"
	}
	return Reply{Message: msg + ". Press Save night mode to keep it.", Commands: []Command{{Action: SetFields, Fields: fields}}}
}

var (
	enrolRe     = regexp.MustCompile(`(?i)\b(enrol|enroll|register|add|set\s+up|connect)\b.*\b(screen|tablet|display|ipad|kiosk)s?\b`)
	screenForRe = regexp.MustCompile(`(?i)\b(?:for|in|on)\s+(?:the\s+|our\s+|my\s+)?([\p{L}][\p{L}' -]{0,40}?)\s*$`)
	screenIsRe  = regexp.MustCompile(`(?i)\b(?:enrol|enroll|register|add|set\s+up|connect)\s+(?:a\s+|an\s+|the\s+|our\s+|my\s+|new\s+)*([\p{L}][\p{L}' -]{0,40}?\b(?:screen|tablet|display|ipad|kiosk))\b`)
)

// enrolScreen names a screen to enrol: "enrol the kitchen tablet" →
// "Kitchen tablet", "add a screen for the hallway" → "Hallway screen".
func enrolScreen(form, ask string) Reply {
	if form != FormScreen {
		return elsewhere(FormScreen, "Enrolling a screen makes a one-time link for it.")
	}
	name := ""
	if m := screenIsRe.FindStringSubmatch(ask); m != nil {
		name = m[1]
		for _, art := range []string{"a ", "an ", "the ", "our ", "my ", "new "} {
			if len(name) > len(art) && strings.EqualFold(name[:len(art)], art) {
				name = name[len(art):]
			}
		}
	}
	if m := screenForRe.FindStringSubmatch(ask); m != nil && strings.EqualFold(strings.Fields(name + " x")[0], "screen") {
		name = m[1] + " screen"
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "screen") {
		return Reply{Message: "What should the screen be called? For example: enrol the kitchen tablet.",
			Commands: []Command{{Action: HighlightField, Field: "name"}}}
	}
	name = strings.ToUpper(name[:1]) + name[1:]
	return Reply{Message: "I named the screen " + name + ". Press the button to make its one-time enrolment link, then open it on that screen.",
		Commands: []Command{{Action: SetField, Field: "name", Value: Value(name)}}}
}

var (
	zoneAskRe  = regexp.MustCompile(`(?i)\btime\s*zone\b|\btimezone\b`)
	zoneNameRe = regexp.MustCompile(`\b(UTC|[A-Z][A-Za-z_-]+(?:/[A-Z][A-Za-z0-9_+-]+){1,2})\b`)
)

// timeZone reads an IANA zone name: "set the time zone to Europe/Berlin".
func timeZone(form, ask string) Reply {
	if form != FormTimeZone {
		return elsewhere(FormTimeZone, "The household's time zone has its own form.")
	}
	z := zoneNameRe.FindString(ask)
	if z == "" {
		return Reply{Message: "Which zone? Say its IANA name, e.g. Europe/Berlin or America/New_York (the field suggests names as you type).",
			Commands: []Command{{Action: HighlightField, Field: "time_zone"}}}
	}
	return Reply{Message: "I set the time zone to " + z + ". Press Save time zone: it takes effect when Hearth restarts.",
		Commands: []Command{{Action: SetField, Field: "time_zone", Value: Value(z)}}}
}
