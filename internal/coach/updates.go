package coach

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/content"
	"hearth/internal/program"
)

// Update kinds: what a run's act applies because of the member's answers,
// voice memos or finished sessions.
const (
	UpdateDeclare  = "declare_program"
	UpdatePause    = "pause_program"
	UpdateResume   = "resume_program"
	UpdateSetDay   = "set_program_day"
	UpdatePace     = "set_program_pace"
	UpdateAdvance  = "advance_program"
	UpdateComplete = "complete_program"
	UpdateGoal     = "add_goal"
	UpdateGoalDate = "set_goal_date"
	UpdateMemory   = "remember"
	// UpdateForget removes a memory entry (an injury the member says is better).
	UpdateForget = "forget"
)

// GoalSpec is a goal to add.
type GoalSpec struct {
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// TargetDate (YYYY-MM-DD) is the date the member named, if any.
	TargetDate string `json:"target_date,omitempty"`
}

// Update is one change the run makes in act (and already shows in the
// document): program state, a goal, or a memory entry, with the coaching
// note that records it.
type Update struct {
	Kind      string `json:"kind"`
	AnswerID  int64  `json:"answer_id,omitempty"`
	MemoID    int64  `json:"memo_id,omitempty"`
	ProgramID string `json:"program_id,omitempty"`
	Title     string `json:"title,omitempty"`
	StartDate string `json:"start_date,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
	Pace      string `json:"pace,omitempty"`
	// Anchor is the schedule's new anchor date (resume, set day); Day is
	// then due on it.
	Anchor  string    `json:"anchor,omitempty"`
	FromDay int       `json:"from_day,omitempty"`
	Day     int       `json:"day,omitempty"`
	Goal    *GoalSpec `json:"goal,omitempty"`
	// GoalID and TargetDate ("" clears it) are a goal's new target date.
	GoalID int64 `json:"goal_id,omitempty"`
	// AnchorDay (declarations): the day due on the start date, past the
	// sessions the member already did with the program's content.
	AnchorDay  int    `json:"anchor_day,omitempty"`
	TargetDate string `json:"target_date,omitempty"`
	Key        string `json:"key,omitempty"`
	Value      string `json:"value,omitempty"`
	TTLHours   int    `json:"ttl_hours,omitempty"`
	Note       string `json:"note"`
}

// Answer options of the heuristic's prompts; interpretAnswer maps them back.
const (
	optLoseWeight   = "Lose weight"
	optStronger     = "Get stronger"
	optMoveMore     = "Move more every day"
	optStartPrefix  = "Start "
	optRepeatPrefix = "Repeat "
	optBreak        = "Take a break"
	optKeepPace     = "Keep my own pace"
	optSkipPrefix   = "Skip ahead to Day "
	optPause        = "Pause the program"
	optEnergised    = "Full of energy"
	optTired        = "A bit tired"
	optSore         = "Sore"
	optUnwell       = "Sick or injured"
)

func isGoalOption(s string) bool {
	_, ok := goalOptions[s]
	return ok
}

var goalOptions = map[string]GoalSpec{
	optLoseWeight: {Kind: "weight", Description: "Lose weight"},
	optStronger:   {Kind: "custom", Description: "Get stronger"},
	optMoveMore:   {Kind: "habit", Description: "Move more every day"},
}

// Memory keys written from answers.
const (
	keyEnergy     = "checkin:energy"
	keyRecovering = "context:recovering"
	keyUnwell     = "context:unwell"
	keyPace       = "program:pace"
	keyBreak      = "program:break"
	keyMemberNote = "note:member"
	keyLatestMemo = "note:latest-memo"
)

// interpreter turns answers and memos into updates.
type interpreter struct {
	programs []ProgramBrief
	current  ProgramView
	goals    GoalsView
	today    time.Time // civil date of the run
	loc      *time.Location
	injuries []string // the injury keys memory holds
	// conditions: the condition keys memory holds.
	conditions []string
	// preferences: the preference keys memory holds.
	preferences []string
	// unwell and recovering: memory holds keyUnwell, keyRecovering.
	unwell, recovering bool
	proposal           *goalProposal // the goal proposal memory holds
}

func memoryUpdate(key, value string, ttl time.Duration, note string) Update {
	return Update{Kind: UpdateMemory, Key: key, Value: clipText(value, maxAnswerValue), TTLHours: int(ttl / time.Hour), Note: note}
}

// answer interprets one prompt answer: the heuristic's own prompts by
// their options, free text (and taps on a model's prompts) by the intents
// it states; anything else is remembered as said.
func (in interpreter) answer(a AnswerLine) []Update {
	ans := strings.TrimSpace(a.Answer)
	note := fmt.Sprintf("Answer to %q: %s", clipText(a.Question, 120), clipText(ans, 300))
	var out []Update
	own := true
	switch a.PromptID {
	case promptGoal, promptNext:
		switch {
		case strings.HasPrefix(ans, optStartPrefix) || strings.HasPrefix(ans, optRepeatPrefix):
			title := strings.TrimPrefix(strings.TrimPrefix(ans, optStartPrefix), optRepeatPrefix)
			if p, ok := in.programNamed(title); ok {
				out = append(out, in.declare(p, in.today, "daily", note))
				out = append(out, in.goal(GoalSpec{Kind: "habit", Description: "Finish " + p.Title}, note)...)
			}
		case isGoalOption(ans):
			out = append(out, in.goal(goalOptions[ans], note)...)
		case ans == optBreak:
			out = append(out, memoryUpdate(keyBreak, "Wants a break before the next program (said "+a.Day+")", 14*24*time.Hour, note))
		case a.Kind != "tap" && !reStart.MatchString(" "+normText(ans)+" "):
			out = append(out, in.goal(GoalSpec{Kind: "custom", Description: clipText(ans, 120)}, note)...)
		}
	case promptBehind:
		switch {
		case ans == optKeepPace:
			out = append(out, memoryUpdate(keyPace, "Prefers to keep their own pace in "+in.current.Title+" (said "+a.Day+")", 21*24*time.Hour, note))
			if in.current.HasProgram {
				out = append(out, Update{Kind: UpdatePace, ProgramID: in.current.ProgramID, Title: in.current.Title,
					Pace: string(program.PaceOwn), FromDay: in.current.Day, Day: in.current.Day, Note: note})
			}
		case strings.HasPrefix(ans, optSkipPrefix):
			var day int
			if _, err := fmt.Sscanf(strings.TrimPrefix(ans, optSkipPrefix), "%d", &day); err == nil && in.current.HasProgram {
				out = append(out, Update{Kind: UpdateSetDay, ProgramID: in.current.ProgramID, Title: in.current.Title,
					FromDay: in.current.Day, Day: day, Note: note})
			}
		case ans == optPause && in.current.Status == "active":
			out = append(out, Update{Kind: UpdatePause, ProgramID: in.current.ProgramID, Title: in.current.Title, Note: note})
		}
	case promptCheckIn:
		out = append(out, memoryUpdate(keyEnergy, ans+" (said "+a.Day+")", 7*24*time.Hour, note))
		switch ans {
		case optTired, optSore:
			out = append(out, memoryUpdate(keyRecovering, ans+": keep today light", 48*time.Hour, ""))
		case optUnwell:
			out = append(out, memoryUpdate(keyUnwell, "Sick or injured (said "+a.Day+"): only light options until they feel better", 14*24*time.Hour, ""))
		}
	case promptOnboarding:
		out = append(out, memoryUpdate(keyMemberNote, ans, 0, note))
	default:
		if kind := dailyKind(a.PromptID); kind != "" {
			out = append(out, checkInAnswer(kind, ans, a.Day, note)...)
		} else if key, ok := injuryPromptKey(a.PromptID); ok {
			out = append(out, injuryAnswer(key, a, note)...)
		} else if key, ok := conditionPromptKey(a.PromptID); ok {
			out = append(out, conditionAnswer(key, a, note)...)
		} else if u, ok := goalDateAnswer(a, note); ok {
			out = append(out, u)
		} else if us, ok := in.proposalAnswer(a, note); ok {
			out = append(out, us...)
		} else {
			own = false
		}
	}
	switch {
	case a.Kind != "tap":
		said := in.statement(ans, a.Day, a.AnsweredAt, note)
		if hasKind(out, UpdateGoal) { // the answer to "what's your goal" is the goal, not a proposal
			said = slices.DeleteFunc(said, func(u Update) bool { return u.Key == keyGoalProposal })
		}
		out = append(out, said...)
	case !own: // a tap on a model's prompt may still state an intent
		out = append(out, in.intents(ans, a.AnsweredAt, note)...)
	}
	if len(out) == 0 {
		out = append(out, memoryUpdate("answer:"+a.PromptID, clipText(a.Question, 100)+" → "+ans, answeredTTL, note))
	}
	return out
}

// memo interprets a voice memo recorded without a prompt.
func (in interpreter) memo(m MemoLine) []Update {
	text := strings.TrimSpace(m.Transcript)
	if text == "" {
		return nil
	}
	note := "Voice memo: " + clipText(text, 300)
	out := in.statement(text, m.Day, m.At, note)
	out = append(out, memoryUpdate(keyLatestMemo, text+" ("+m.Day+")", 7*24*time.Hour, note))
	return out
}

func (in interpreter) declare(p ProgramBrief, start time.Time, pattern, note string) Update {
	return Update{Kind: UpdateDeclare, ProgramID: p.ID, Title: p.Title, StartDate: start.Format(time.DateOnly),
		Pattern: pattern, Note: note}
}

// goal adds a goal unless an active one says the same.
func (in interpreter) goal(g GoalSpec, note string) []Update {
	for _, x := range in.goals.Goals {
		if x.Status == "active" && strings.EqualFold(x.Description, g.Description) {
			return nil
		}
	}
	return []Update{{Kind: UpdateGoal, Goal: &g, Note: note}}
}

var (
	reStart   = regexp.MustCompile(`\b(start|starting|begin|beginning|kick off|kicking off)\b`)
	rePause   = regexp.MustCompile(`\bpaus(e|ing)\b`)
	reResume  = regexp.MustCompile(`\b(resume|resuming|restart|restarting|back on)\b`)
	reOnDay   = regexp.MustCompile(`\b(?:on|from|this|next)\s+((?:next\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b`)
	reISODate = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
	reWhen    = regexp.MustCompile(`\b(today|tomorrow)\b`)
)

// intents finds program declarations, pauses and resumptions in free text
// ("Starting Ember Core 30 on Monday"). Relative days count from when the
// member said it; a weekday means the next one after that day.
func (in interpreter) intents(text string, said time.Time, note string) []Update {
	low := " " + normText(text) + " "
	raw := strings.ToLower(text)
	switch {
	case reStart.MatchString(low):
		p, ok := in.programMentioned(low)
		if !ok {
			return nil
		}
		base := civilDate(said, in.loc)
		start := in.today
		switch {
		case reISODate.MatchString(raw):
			if d, err := time.Parse(time.DateOnly, reISODate.FindStringSubmatch(raw)[1]); err == nil {
				start = d
			}
		case reOnDay.MatchString(raw):
			if d, err := resolveDay(reOnDay.FindStringSubmatch(raw)[1], base.AddDate(0, 0, 1)); err == nil {
				start = d
			}
		case reWhen.MatchString(raw):
			if d, err := resolveDay(reWhen.FindStringSubmatch(raw)[1], base); err == nil {
				start = d
			}
		}
		return []Update{in.declare(p, start, patternIn(low), note)}
	case rePause.MatchString(low) && in.current.Status == "active":
		return []Update{{Kind: UpdatePause, ProgramID: in.current.ProgramID, Title: in.current.Title, Note: note}}
	case reResume.MatchString(low) && in.current.Status == "paused":
		return []Update{{Kind: UpdateResume, ProgramID: in.current.ProgramID, Title: in.current.Title, Note: note}}
	}
	return nil
}

// patternIn reads a training pattern from normalised text ("daily" if none).
func patternIn(low string) string {
	switch {
	case strings.Contains(low, " weekdays "):
		return "weekdays"
	case strings.Contains(low, " weekends "):
		return "weekends"
	}
	return "daily"
}

// programNamed finds a program by its exact title.
func (in interpreter) programNamed(title string) (ProgramBrief, bool) {
	for _, p := range in.programs {
		if strings.EqualFold(p.Title, strings.TrimSpace(title)) {
			return p, true
		}
	}
	return in.programMentioned(" " + normText(title) + " ")
}

// programMentioned finds the program whose title, short title (before a
// colon) or id appears in normalised text; the longest match wins.
func (in interpreter) programMentioned(low string) (ProgramBrief, bool) {
	best, bestLen := ProgramBrief{}, 0
	for _, p := range in.programs {
		names := []string{p.Title, strings.ReplaceAll(p.ID, "-", " ")}
		if short, _, ok := strings.Cut(p.Title, ":"); ok && len(short) >= 6 {
			names = append(names, short)
		}
		for _, n := range names {
			n = normText(n)
			if n != "" && strings.Contains(low, " "+n+" ") && len(n) > bestLen {
				best, bestLen = p, len(n)
			}
		}
	}
	return best, bestLen > 0
}

// normText lowercases s and turns everything but letters and digits into
// single spaces.
func normText(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}

// keepLastDeclare drops all but the last program declaration (and the
// pauses, resumptions and day changes before it, which it supersedes).
func keepLastDeclare(us []Update) []Update {
	last := -1
	for i, u := range us {
		if u.Kind == UpdateDeclare {
			last = i
		}
	}
	if last < 0 {
		return us
	}
	var out []Update
	for i, u := range us {
		switch u.Kind {
		case UpdateDeclare, UpdatePause, UpdateResume, UpdateSetDay, UpdatePace:
			if i < last {
				continue
			}
		}
		out = append(out, u)
	}
	return out
}

// menuEntryOf converts an item.
func menuEntryOf(it content.Item) content.MenuEntry { return content.MenuOf([]content.Item{it})[0] }
