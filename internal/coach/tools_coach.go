package coach

import (
	"context"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// MemoLine is one voice memo's transcript.
type MemoLine struct {
	ID         int64     `json:"id"`
	Day        string    `json:"day"`
	PromptID   string    `json:"prompt_id,omitempty"`
	Transcript string    `json:"transcript"`
	Status     string    `json:"status"`
	At         time.Time `json:"at"`
}

// maxTranscript caps a transcript in tool results (characters).
const maxTranscript = 500

// memosArgs are get_voice_memos's arguments.
type memosArgs struct {
	Days *int `json:"days" desc:"How many days back (1-30); null = 7." schema:"minimum=1,maximum=30"`
}

func (t *Tools) voiceMemos() agent.Tool {
	return scopedTool("get_voice_memos", "The member's recent voice memos as transcripts (newest first), with the prompt each answered if any.",
		func(ctx context.Context, scope agent.Scope, a memosArgs) ([]MemoLine, error) {
			return t.c.memos(ctx, scope.MemberID, orInt(a.Days, 7), t.c.clock(scope))
		})
}

func (c *core) memos(ctx context.Context, member string, days int, now time.Time) ([]MemoLine, error) {
	since := health.LocalDay(now, c.loc).AddDate(0, 0, 1-days)
	ms, err := c.dash.VoiceMemos(ctx, member, since)
	if err != nil {
		return nil, err
	}
	out := []MemoLine{}
	for _, m := range ms {
		if m.CreatedAt.After(now) {
			continue
		}
		out = append(out, MemoLine{ID: m.ID, Day: m.Day, PromptID: m.PromptID, Transcript: clipText(m.Transcript, maxTranscript),
			Status: m.Status, At: m.CreatedAt.UTC()})
	}
	return out, nil
}

// PromptStatus is a prompt of the latest dashboard and whether it was answered.
type PromptStatus struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
	Answered bool     `json:"answered"`
	Answer   string   `json:"answer,omitempty"`
}

// AnswerLine is a member's answer to a prompt.
type AnswerLine struct {
	ID         int64     `json:"id"`
	Day        string    `json:"day"`
	PromptID   string    `json:"prompt_id"`
	Question   string    `json:"question"`
	Answer     string    `json:"answer"`
	Kind       string    `json:"kind"`
	AnsweredAt time.Time `json:"answered_at"`
	Processed  bool      `json:"processed"`
}

// PromptsView is get_prompt_responses's result.
type PromptsView struct {
	// LatestDay is the newest dashboard on or before today ("" if none);
	// Prompts are its prompts with their answers.
	LatestDay string         `json:"latest_day,omitempty"`
	Prompts   []PromptStatus `json:"prompts"`
	// Answers are the answers of the window, newest first; Unprocessed the
	// ones no coach run has turned into updates yet, oldest first.
	Answers     []AnswerLine `json:"answers"`
	Unprocessed []AnswerLine `json:"unprocessed"`

	latestAt time.Time // when the latest dashboard was written
}

// answersArgs are get_prompt_responses's arguments.
type answersArgs struct {
	Days *int `json:"days" desc:"How many days back (1-60); null = 14." schema:"minimum=1,maximum=60"`
}

func (t *Tools) promptResponses() agent.Tool {
	return scopedTool("get_prompt_responses",
		"The prompts of the member's latest dashboard (answered or not) and their recent answers, "+
			"including the ones no run has acted on yet.",
		func(ctx context.Context, scope agent.Scope, a answersArgs) (PromptsView, error) {
			return t.c.promptsView(ctx, scope.MemberID, orInt(a.Days, 14), t.c.clock(scope))
		})
}

func (c *core) promptsView(ctx context.Context, member string, days int, now time.Time) (PromptsView, error) {
	v := PromptsView{Prompts: []PromptStatus{}, Answers: []AnswerLine{}, Unprocessed: []AnswerLine{}}
	since := health.LocalDay(now, c.loc).AddDate(0, 0, -days)
	recent, err := c.dash.RecentAnswers(ctx, member, since)
	if err != nil {
		return v, err
	}
	for _, a := range recent {
		v.Answers = append(v.Answers, answerLine(a))
	}
	un, err := c.dash.UnprocessedAnswers(ctx, member)
	if err != nil {
		return v, err
	}
	for _, a := range un {
		v.Unprocessed = append(v.Unprocessed, answerLine(a))
	}
	doc, err := c.dash.Latest(ctx, member, dateOf(now, c.loc))
	if apperr.Is(err, apperr.NotFound) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.LatestDay, v.latestAt = doc.Day, doc.CreatedAt
	for _, p := range doc.Document.Coach.Prompts {
		ps := PromptStatus{ID: p.ID, Type: p.Type, Question: p.Question, Options: p.Options}
		for _, a := range recent {
			if a.Day == doc.Day && a.PromptID == p.ID {
				ps.Answered, ps.Answer = true, a.Answer
			}
		}
		v.Prompts = append(v.Prompts, ps)
	}
	return v, nil
}

func answerLine(a dashboard.Answer) AnswerLine {
	return AnswerLine{ID: a.ID, Day: a.Day, PromptID: a.PromptID, Question: a.Question, Answer: a.Answer, Kind: a.Kind,
		AnsweredAt: a.AnsweredAt.UTC(), Processed: a.ProcessedAt != nil}
}
