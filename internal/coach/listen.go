package coach

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// The coach listens: what a member says (a tap, a typed or spoken answer,
// a chat message) goes through one interpretation (interpreter.answer and
// interpreter.statement), which a run applies and which, as soon as it is
// said, gives the short acknowledgement the member sees and says whether
// today's plan must change (the kiosk then asks for a re-plan). A chat
// statement's notes (an injury, feeling sick or tired) are kept in
// memory by the chat turn itself; a goal said in passing is proposed, and
// kept only once the member taps to confirm it.

// statement interprets free text the member said, whatever the way: the
// program intents, injuries and health conditions (and the ones that are
// better or over), how they feel
// today, and a goal they name (a proposal to confirm, not a goal yet).
// Every recogniser of what members say belongs here, so that answers,
// voice memos and chat all hear it.
func (in interpreter) statement(text, day string, at time.Time, note string) []Update {
	out := in.intents(text, at, note)
	out = append(out, in.heard(text, day, note)...)
	out = append(out, feelings(text, day, note, in.unwell, in.recovering)...)
	if g, ok := goalSaid(text, civilDate(at, in.loc)); ok && len(in.goal(g, "")) > 0 {
		out = append(out, proposeGoal(g, day, note))
	}
	return out
}

// Goals said in passing: "I want to run a 5k in March", "my goal is to
// lose 5 kg by summer".
var (
	reGoalSaid = regexp.MustCompile(`\b(i\s+(?:really\s+)?(?:want|wanna|hope|plan|aim|intend)\s+(?:to|for)` +
		`|i(?:'d|\s+would)\s+(?:really\s+)?(?:like|love)\s+to|i(?:'m|\s+am)\s+(?:going\s+to|aiming\s+(?:to|for)|(training)\s+for)` +
		`|my\s+(?:new\s+|main\s+|big\s+)?goal\s+is(?:\s+to)?)\s+([^.!?;\n]+)`)
	// reGoalWhat: what a goal is about (not "I want to know what I ate").
	reGoalWhat = regexp.MustCompile(`\b(run|running|walk|walking|swim|swimming|cycle|cycling|ride|bike|hike|climb|row|lose|losing|gain|weigh|` +
		`stronger|fitter|fit|shape|strength|build|tone|muscle|marathon|5k|10k|half|triathlon|push-?ups?|pull-?ups?|plank|squat|deadlift|bench|` +
		`stretch|flexib\w*|toes|splits|finish|complete|kg|kilos?|lbs?|pounds?|stone|steps|mile|miles|km)\b`)
	reGoalNot  = regexp.MustCompile(`^(?:know|ask|see|tell|check|learn|understand|talk|eat|hear|say|find\s+out)\b`)
	reGoalWhen = regexp.MustCompile(`\s*\b(?:in|by|before|for|until)\s+(?:the\s+end\s+of\s+)?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b(?:\s+(\d{4}))?` +
		`|\s*\bin\s+(\d+|a|one|two|three|four|five|six|eight|ten|twelve)\s+(weeks?|months?)\b` +
		`|\s*\bby\s+the\s+end\s+of\s+(?:the\s+)?year\b`)
	reGoalWeight = regexp.MustCompile(`\b(lose|losing|gain|weigh|kg|kilos?|lbs?|pounds?|stone)\b`)
)

var numberWords = map[string]int{"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "ten": 10, "twelve": 12}

// goalSaid finds a goal in what the member said, with its date when they
// name one ("in March": the end of the next March; "in 8 weeks").
func goalSaid(text string, today time.Time) (GoalSpec, bool) {
	low := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(text, "’", "'")), " "))
	m := reGoalSaid.FindStringSubmatch(low)
	if m == nil || negated(low, strings.Index(low, m[0])) {
		return GoalSpec{}, false
	}
	what := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[3]), "please"))
	if m[2] != "" { // "I'm training for a half marathon"
		what = "train for " + what
	}
	what = strings.TrimSpace(strings.TrimRight(what, ", "))
	if reGoalNot.MatchString(what) || !reGoalWhat.MatchString(what) {
		return GoalSpec{}, false
	}
	g := GoalSpec{Kind: "custom"}
	if reGoalWeight.MatchString(what) {
		g.Kind = "weight"
	}
	if w := reGoalWhen.FindStringSubmatchIndex(what); w != nil {
		d := goalDate(what[w[0]:w[1]], today)
		if !d.IsZero() {
			g.TargetDate = d.Format(time.DateOnly)
		}
		what = strings.TrimSpace(what[:w[0]] + what[w[1]:])
	}
	what = strings.TrimSpace(strings.TrimRight(what, ", "))
	if what == "" {
		return GoalSpec{}, false
	}
	g.Description = clipText(strings.ToUpper(what[:1])+what[1:], 120)
	return g, true
}

// goalDate reads a goal's date phrase (a reGoalWhen match) from today.
func goalDate(phrase string, today time.Time) time.Time {
	m := reGoalWhen.FindStringSubmatch(phrase)
	switch {
	case m == nil:
		return time.Time{}
	case m[1] != "":
		mon, ok := monthNamed(m[1])
		if !ok {
			return time.Time{}
		}
		y := today.Year()
		if m[2] != "" {
			y, _ = strconv.Atoi(m[2])
		} else if mon < today.Month() {
			y++ // March said in November: next March
		}
		return time.Date(y, mon+1, 0, 0, 0, 0, 0, time.UTC) // the month's last day
	case m[3] != "":
		n, err := strconv.Atoi(m[3])
		if err != nil {
			n = numberWords[m[3]]
		}
		if strings.HasPrefix(m[4], "week") {
			return today.AddDate(0, 0, 7*n)
		}
		return today.AddDate(0, n, 0)
	}
	return time.Date(today.Year(), time.December, 31, 0, 0, 0, 0, time.UTC)
}

func monthNamed(s string) (time.Month, bool) {
	for mon := time.January; mon <= time.December; mon++ {
		name := strings.ToLower(mon.String())
		if s == name || len(s) >= 3 && strings.HasPrefix(name, s) {
			return mon, true
		}
	}
	return 0, false
}

// A goal proposal waits in memory (one at a time: a newer one replaces
// it) for the member's tap on the dashboard's question about it.
const (
	keyGoalProposal          = "proposal:goal"
	goalProposalTTL          = 7 * 24 * time.Hour
	promptGoalProposalPrefix = "goal-proposal-"
	optAddGoal               = "Add the goal"
	optNotNow                = "Not now"
)

// goalProposal is the memory value of keyGoalProposal.
type goalProposal struct {
	Goal GoalSpec `json:"goal"`
	Said string   `json:"said"`
}

func proposeGoal(g GoalSpec, day, note string) Update {
	b, _ := json.Marshal(goalProposal{Goal: g, Said: day})
	return Update{Kind: UpdateMemory, Key: keyGoalProposal, Value: string(b), TTLHours: int(goalProposalTTL / time.Hour), Note: note}
}

// proposalOf reads a stored proposal.
func proposalOf(value string) (goalProposal, bool) {
	var p goalProposal
	if err := json.Unmarshal([]byte(value), &p); err != nil || p.Goal.Description == "" {
		return goalProposal{}, false
	}
	return p, true
}

// id is the proposal's prompt id: a new proposal is a new question.
func (p goalProposal) id() string {
	sum := sha256.Sum256([]byte(p.Goal.Kind + "|" + p.Goal.Description + "|" + p.Goal.TargetDate))
	return promptGoalProposalPrefix + hex.EncodeToString(sum[:4])
}

// question asks to confirm the goal.
func (p goalProposal) question() string {
	q := fmt.Sprintf("You told me you'd like to %s. Add it as a goal", lowerFirst(p.Goal.Description))
	if p.Goal.TargetDate != "" {
		q += ", by " + longDate(p.Goal.TargetDate)
	}
	return q + "?"
}

// longDate renders YYYY-MM-DD as "Wed 31 Mar 2027".
func longDate(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.Format("Mon 2 Jan 2006")
}

// pendingProposal is the goal proposal a run leaves in memory: this
// run's updates over what memory holds.
func pendingProposal(mem *agent.Memory, us []Update) (goalProposal, bool) {
	for _, u := range slices.Backward(us) {
		switch {
		case u.Kind == UpdateForget && u.Key == keyGoalProposal:
			return goalProposal{}, false
		case u.Kind == UpdateMemory && u.Key == keyGoalProposal:
			return proposalOf(u.Value)
		}
	}
	if mem == nil {
		return goalProposal{}, false
	}
	v, ok := mem.Get(keyGoalProposal)
	if !ok {
		return goalProposal{}, false
	}
	return proposalOf(v)
}

// proposalAnswer interprets the answer to a goal proposal's question:
// the goal is added only on "Add the goal"; either way the proposal goes.
// A question about an older proposal than the one held adds nothing.
func (in interpreter) proposalAnswer(a AnswerLine, note string) ([]Update, bool) {
	if !strings.HasPrefix(a.PromptID, promptGoalProposalPrefix) {
		return nil, false
	}
	if in.proposal == nil || in.proposal.id() != a.PromptID {
		return nil, true
	}
	out := []Update{{Kind: UpdateForget, Key: keyGoalProposal, Note: note}}
	if strings.TrimSpace(a.Answer) == optAddGoal {
		out = append(in.goal(in.proposal.Goal, note), out...)
	}
	return out, true
}

// Understood is what the coach makes of something a member said, before
// a run applies it.
type Understood struct {
	// Ack is the short acknowledgement to show ("" when nothing was
	// understood).
	Ack string
	// Replan: it changes what today should be.
	Replan bool
}

// bookkeeping are the memory writes that change nothing about today: the
// record of an answer, a check-in answer as said, a note about the member.
func bookkeeping(u Update) bool {
	if u.Kind != UpdateMemory {
		return false
	}
	for _, p := range []string{"checkin:", "answer:", "note:"} {
		if strings.HasPrefix(u.Key, p) {
			return true
		}
	}
	return false
}

// acknowledge writes the acknowledgement of updates from what they are,
// and says whether they change today's plan.
func acknowledge(us []Update, today time.Time) Understood {
	var lines []string
	var hurt, healed []string
	seen := map[string]bool{}
	say := func(s string) {
		if !seen[s] {
			seen[s] = true
			lines = append(lines, s)
		}
	}
	u := Understood{}
	for _, x := range us {
		if !bookkeeping(x) {
			u.Replan = true
		}
		part := strings.ReplaceAll(strings.TrimPrefix(x.Key, keyInjury), "-", " ")
		switch {
		case x.Kind == UpdateMemory && strings.HasPrefix(x.Key, keyInjury):
			hurt = append(hurt, part)
		case x.Kind == UpdateForget && strings.HasPrefix(x.Key, keyInjury):
			healed = append(healed, part)
		case x.Kind == UpdateMemory && strings.HasPrefix(x.Key, keyCondition):
			if c, ok := conditionOf(x.Key); ok {
				say(fmt.Sprintf("Noted — I'll plan around your %s. Your %s advice comes first.", c.name, c.clinician))
			}
		case x.Kind == UpdateForget && strings.HasPrefix(x.Key, keyCondition):
			if c, ok := conditionOf(x.Key); ok {
				say(fmt.Sprintf("Noted — I've taken your %s off my list.", c.name))
			}
		case x.Kind == UpdateMemory && x.Key == keyWalkingOnly:
			say("Noted — walks only, a little longer each week.")
		case x.Kind == UpdateForget && x.Key == keyWalkingOnly:
			say("Noted — more than walks from now on.")
		case x.Kind == UpdateMemory && x.Key == keyUnwell:
			say("Noted — rest up: I'll keep to light options until you feel better.")
		case x.Kind == UpdateMemory && x.Key == keyRecovering:
			say("Noted — today stays light.")
		case x.Kind == UpdateForget && (x.Key == keyUnwell || x.Key == keyRecovering):
			say("Glad you're feeling better — back to your usual plan.")
		case x.Kind == UpdateMemory && x.Key == keyGoalProposal:
			if p, ok := proposalOf(x.Value); ok {
				q := fmt.Sprintf("Shall I add “%s” as a goal", p.Goal.Description)
				if p.Goal.TargetDate != "" {
					q += ", by " + longDate(p.Goal.TargetDate)
				}
				say(q + "? Tap “" + optAddGoal + "” on your dashboard to keep it.")
			}
		case x.Kind == UpdateForget && x.Key == keyGoalProposal:
		case x.Kind == UpdateGoal && x.Goal != nil:
			say(fmt.Sprintf("Noted — your goal: %s. I'll plan with it in mind.", lowerFirst(x.Goal.Description)))
		case x.Kind == UpdateDeclare:
			say(fmt.Sprintf("Noted — %s starts %s.", x.Title, shortDate(x.StartDate, today)))
		case x.Kind == UpdatePause:
			say(fmt.Sprintf("Noted — %s is paused.", x.Title))
		case x.Kind == UpdateResume:
			say(fmt.Sprintf("Noted — welcome back to %s.", x.Title))
		case x.Kind == UpdateSetDay:
			say(fmt.Sprintf("Noted — %s moves to Day %d.", x.Title, x.Day))
		case x.Kind == UpdatePace:
			say(fmt.Sprintf("Noted — %s at your own pace from now on.", x.Title))
		case x.Kind == UpdateGoalDate:
			say("Noted — your goal's date is updated.")
		}
	}
	if len(hurt) > 0 {
		lines = append([]string{fmt.Sprintf("Noted — I'm re-planning today to go easy on your %s.", joinAnd(dedupe(hurt)))}, lines...)
	}
	if len(healed) > 0 {
		lines = append(lines, fmt.Sprintf("Good to hear your %s is better — I've taken it off my list.", joinAnd(dedupe(healed))))
	}
	if len(lines) == 0 && len(us) > 0 {
		lines = append(lines, "Thanks — noted.")
	}
	u.Ack = strings.Join(lines, " ")
	return u
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// newInterpreter builds the interpreter of one member's words from their
// programs, goals and the coach's memory of them.
func newInterpreter(programs []ProgramBrief, current ProgramView, goals GoalsView, today time.Time, loc *time.Location,
	entries []agent.MemoryEntry) interpreter {
	in := interpreter{programs: programs, current: current, goals: goals, today: today, loc: loc}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Key, keyInjury):
			in.injuries = append(in.injuries, e.Key)
		case strings.HasPrefix(e.Key, keyCondition):
			in.conditions = append(in.conditions, e.Key)
		case strings.HasPrefix(e.Key, keyPreference):
			in.preferences = append(in.preferences, e.Key)
		case e.Key == keyUnwell:
			in.unwell = true
		case e.Key == keyRecovering:
			in.recovering = true
		case e.Key == keyGoalProposal:
			if p, ok := proposalOf(e.Value); ok {
				in.proposal = &p
			}
		}
	}
	return in
}

// interpreterFor builds the interpreter outside a run (the kiosk's
// acknowledgement, a chat turn), from the same services a run reads.
func (c *core) interpreterFor(ctx context.Context, m health.Member, now time.Time, entries []agent.MemoryEntry) (interpreter, error) {
	infos, err := c.cat.Programs(ctx)
	if err != nil {
		return interpreter{}, fmt.Errorf("coach: programs: %w", err)
	}
	programs := make([]ProgramBrief, 0, len(infos))
	for _, p := range infos {
		programs = append(programs, ProgramBrief{ID: p.ID, Title: p.Title, TotalDays: p.TotalDays, TrainingDays: p.TrainingDays})
	}
	current, err := c.programView(ctx, m.ID, now)
	if err != nil {
		return interpreter{}, err
	}
	goals, err := c.goalsView(ctx, m, false)
	if err != nil {
		return interpreter{}, err
	}
	return newInterpreter(programs, current, goals, civilDate(now, c.loc), c.loc, entries), nil
}

// MemoryLoader loads the coach's memory of a member (*agent.MemoryStore).
type MemoryLoader interface {
	Load(ctx context.Context, agentID, memberID string) (*agent.Memory, error)
}

// Listener tells what the coach makes of a member's answer the moment it
// is given: the kiosk's acknowledgement, and whether today's plan changes.
// The next run applies the same interpretation.
type Listener struct {
	c   *core
	mem MemoryLoader
}

// NewListener returns the coach's listener over deps and its memory.
func NewListener(deps Deps, mem MemoryLoader) *Listener {
	return &Listener{c: newCore(deps), mem: mem}
}

// Answer interprets an answer the member just gave.
func (l *Listener) Answer(ctx context.Context, member string, a dashboard.Answer) (Understood, error) {
	m, err := l.c.rec.Member(ctx, member)
	if err != nil {
		return Understood{}, err
	}
	mem, err := l.mem.Load(ctx, AgentID, member)
	if err != nil {
		return Understood{}, err
	}
	in, err := l.c.interpreterFor(ctx, m, l.c.now(), mem.All())
	if err != nil {
		return Understood{}, err
	}
	return acknowledge(in.answer(answerLine(a)), civilDate(l.c.now(), l.c.loc)), nil
}

// heardInChat interprets a chat message of the member: the acknowledgement,
// and the notes to keep (memory writes: a chat turn cannot change the
// program or goals, which a run or the member's tap does).
func (c *core) heardInChat(ctx context.Context, scope agent.Scope, text string) (Understood, []Update, error) {
	m, err := c.member(ctx, scope)
	if err != nil {
		return Understood{}, nil, err
	}
	now := c.clock(scope)
	var entries []agent.MemoryEntry
	if scope.Memory != nil {
		entries = scope.Memory.All()
	}
	in, err := c.interpreterFor(ctx, m, now, entries)
	if err != nil {
		return Understood{}, nil, err
	}
	note := "Said in a chat: " + clipText(strings.Join(strings.Fields(text), " "), 300)
	var keep []Update
	for _, u := range in.statement(text, dateOf(now, c.loc), now, note) {
		if u.Kind == UpdateMemory || u.Kind == UpdateForget {
			keep = append(keep, u)
		}
	}
	return acknowledge(keep, civilDate(now, c.loc)), keep, nil
}
