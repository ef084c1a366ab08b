package coach

import (
	"encoding/json"
	"strings"
	"time"

	"hearth/internal/agent"
)

// Memory key prefixes and lifetimes of the follow-up tracking.
const (
	keyFollowUp = "followup:"
	keyAnswered = "answered:"
	keyDropped  = "dropped:"

	followUpTTL = 7 * 24 * time.Hour
	droppedTTL  = 14 * 24 * time.Hour
	answeredTTL = 14 * 24 * time.Hour
	// dailyAnsweredTTL keeps a daily check-in closed for its day.
	dailyAnsweredTTL = 36 * time.Hour
	maxAskTimes      = 2 // asked, then re-asked once, then dropped
	maxAnswerValue   = 300
)

// answeredTTLs are how long an answer keeps a prompt closed, by prompt id;
// 0 is for good (onboarding questions). Others use answeredTTL.
var answeredTTLs = map[string]time.Duration{
	promptGoal:       0,
	promptOnboarding: 0,
	promptCheckIn:    6 * 24 * time.Hour,
	promptBehind:     21 * 24 * time.Hour,
	promptNext:       30 * 24 * time.Hour,
}

// answeredRecord is the value of an answered:<id> memory entry (a plain
// string, e.g. set by an admin, counts as the answer).
type answeredRecord struct {
	Question string `json:"question,omitempty"`
	Answer   string `json:"answer"`
}

// followUpRecord is the value of a followup:<id> memory entry.
type followUpRecord struct {
	Question string `json:"question"`
	AskedOn  string `json:"asked_on"`
	Times    int    `json:"times"`
}

// FollowUp is a prompt that was shown and not answered yet.
type FollowUp struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	AskedOn  string `json:"asked_on"`
	Times    int    `json:"times"`
}

// ClosedPrompt is a prompt that must not be asked: answered, or dropped
// after being ignored twice.
type ClosedPrompt struct {
	ID       string `json:"id"`
	Question string `json:"question,omitempty"`
	Answer   string `json:"answer,omitempty"`
}

// FollowUps is the prompt bookkeeping of a run, derived from working memory
// and the member's answers.
type FollowUps struct {
	// Answered and Dropped are closed: never asked in this run.
	Answered []ClosedPrompt `json:"answered"`
	Dropped  []ClosedPrompt `json:"dropped"`
	// Reask were ignored once and may be asked one more time.
	Reask []FollowUp `json:"reask"`
	// Open were asked today already (a re-run) and are still unanswered.
	Open []FollowUp `json:"open"`
	// NewlyAnswered and NewlyDropped are what this run records in memory.
	NewlyAnswered []ClosedPrompt `json:"newly_answered,omitempty"`
	NewlyDropped  []ClosedPrompt `json:"newly_dropped,omitempty"`
}

// computeFollowUps classifies the prompts memory tracks. answers are the
// recent answers (any processed state); a follow-up counts as answered when
// an answer to its id came on or after the day it was asked.
func computeFollowUps(entries []agent.MemoryEntry, answers []AnswerLine, unprocessed []AnswerLine, today string) FollowUps {
	f := FollowUps{Answered: []ClosedPrompt{}, Dropped: []ClosedPrompt{}, Reask: []FollowUp{}, Open: []FollowUp{}}
	closed := map[string]bool{}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Key, keyAnswered):
			id := strings.TrimPrefix(e.Key, keyAnswered)
			r := answeredRecord{Answer: e.Value}
			if strings.HasPrefix(e.Value, "{") {
				_ = json.Unmarshal([]byte(e.Value), &r)
			}
			f.Answered = append(f.Answered, ClosedPrompt{ID: id, Question: r.Question, Answer: r.Answer})
			closed[id] = true
		case strings.HasPrefix(e.Key, keyDropped):
			id := strings.TrimPrefix(e.Key, keyDropped)
			f.Dropped = append(f.Dropped, ClosedPrompt{ID: id, Question: e.Value})
			closed[id] = true
		}
	}
	answerTo := func(id, since string) (AnswerLine, bool) {
		for _, a := range answers {
			if a.PromptID == id && a.Day >= since {
				return a, true
			}
		}
		for _, a := range unprocessed {
			if a.PromptID == id && a.Day >= since {
				return a, true
			}
		}
		return AnswerLine{}, false
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Key, keyFollowUp) {
			continue
		}
		id := strings.TrimPrefix(e.Key, keyFollowUp)
		var r followUpRecord
		if json.Unmarshal([]byte(e.Value), &r) != nil || closed[id] {
			continue
		}
		fu := FollowUp{ID: id, Question: r.Question, AskedOn: r.AskedOn, Times: max(r.Times, 1)}
		if a, ok := answerTo(id, r.AskedOn); ok {
			cp := ClosedPrompt{ID: id, Question: r.Question, Answer: clipText(a.Answer, maxAnswerValue)}
			f.Answered, f.NewlyAnswered = append(f.Answered, cp), append(f.NewlyAnswered, cp)
			closed[id] = true
			continue
		}
		switch {
		case r.AskedOn >= today:
			f.Open = append(f.Open, fu)
		case fu.Times >= maxAskTimes:
			cp := ClosedPrompt{ID: id, Question: r.Question}
			f.Dropped, f.NewlyDropped = append(f.Dropped, cp), append(f.NewlyDropped, cp)
			closed[id] = true
		default:
			f.Reask = append(f.Reask, fu)
		}
	}
	// Answers to prompts memory no longer tracks (expired, or written by a
	// model without bookkeeping) still close them.
	for _, a := range unprocessed {
		if !closed[a.PromptID] {
			cp := ClosedPrompt{ID: a.PromptID, Question: a.Question, Answer: clipText(a.Answer, maxAnswerValue)}
			f.Answered, f.NewlyAnswered = append(f.Answered, cp), append(f.NewlyAnswered, cp)
			closed[a.PromptID] = true
		}
	}
	return f
}

// closed reports whether a prompt (by id or by the same question) must not
// be asked, and why.
func (f FollowUps) closed(id, question string) (ClosedPrompt, string, bool) {
	q := normQuestion(question)
	if dailyKind(id) != "" {
		q = "" // the daily check-in asks the same few questions again
	}
	for _, c := range f.Answered {
		if c.ID == id || (q != "" && normQuestion(c.Question) == q) {
			return c, "answered", true
		}
	}
	for _, c := range f.Dropped {
		if c.ID == id || (q != "" && normQuestion(c.Question) == q) {
			return c, "dropped", true
		}
	}
	return ClosedPrompt{}, "", false
}

// normQuestion lowercases a question and keeps letters and digits only.
func normQuestion(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// recordFollowUps updates memory after a document is written: answered and
// dropped prompts are closed, and every prompt shown today is tracked with
// how many times it has been asked.
func recordFollowUps(mem *agent.Memory, f FollowUps, shown []promptShown, today string) error {
	for _, c := range f.NewlyAnswered {
		ttl, ok := answeredTTLs[c.ID]
		switch {
		case dailyKind(c.ID) != "":
			ttl = dailyAnsweredTTL
		case !ok:
			ttl = answeredTTL
		}
		b, _ := json.Marshal(answeredRecord{Question: clipText(c.Question, 200), Answer: clipText(c.Answer, maxAnswerValue)})
		if err := mem.Set(keyAnswered+c.ID, string(b), ttl); err != nil {
			return err
		}
		mem.Remove(keyFollowUp + c.ID)
	}
	for _, c := range f.NewlyDropped {
		q := c.Question
		if q == "" {
			q = "ignored twice"
		}
		if err := mem.Set(keyDropped+c.ID, clipText(q, maxAnswerValue), droppedTTL); err != nil {
			return err
		}
		mem.Remove(keyFollowUp + c.ID)
	}
	for _, p := range shown {
		r := followUpRecord{Question: clipText(p.question, 200), AskedOn: today, Times: 1}
		if v, ok := mem.Get(keyFollowUp + p.id); ok {
			var prev followUpRecord
			if json.Unmarshal([]byte(v), &prev) == nil {
				r.Times = prev.Times + 1
				if prev.AskedOn >= today { // shown again the same day: not a new ask
					r.Times = max(prev.Times, 1)
				}
			}
		}
		b, _ := json.Marshal(r)
		if err := mem.Set(keyFollowUp+p.id, string(b), followUpTTL); err != nil {
			return err
		}
	}
	return nil
}

// promptShown is a prompt of the written document.
type promptShown struct{ id, question string }
