package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"hearth/internal/agent"
)

// Judge asks a model to score a plan's tone and helpfulness on a rubric.
// Its scores are reported on their own and never enter the deterministic
// pass rates: a judge model's taste is not a test.
type Judge struct {
	// Model names the judge model (sent with every request).
	Model string
	// Runtime is the model runtime (llm.OpenAI on the configured endpoint).
	Runtime agent.Runtime
	// Slots, when set, are the model-call slots shared with the scenarios'
	// runs (HEARTH_MODEL_CONCURRENCY).
	Slots chan struct{}
}

// JudgeScore is the judge's verdict on one plan (1-5 each).
type JudgeScore struct {
	Tone        int    `json:"tone"`
	Helpfulness int    `json:"helpfulness"`
	Comment     string `json:"comment"`
	TokensIn    int64  `json:"tokens_in,omitempty"`
	TokensOut   int64  `json:"tokens_out,omitempty"`
	Error       string `json:"error,omitempty"`
}

// JudgeRubric is the judge's instructions.
const JudgeRubric = `You review the daily plan a household fitness app's coach wrote for one member.
You see the member's situation and the plan (JSON: curated content, then the coach's briefing,
calls to action, prompts and feedback). Score two things from 1 to 5:

tone: warm, brief and concrete; never nagging, shaming or alarmist; sounds like a good human coach.
  5 = exactly right for this member today; 3 = acceptable but generic or slightly off; 1 = cold, pushy or wrong.
helpfulness: the plan answers the member's situation: the right session today, the gaps worth a nudge,
  the question worth asking, nothing irrelevant or unsafe.
  5 = a coach who knows this member could not do better; 3 = useful but misses something important;
  1 = unhelpful or harmful.

Judge only what is written. Reply with JSON: {"tone": n, "helpfulness": n, "comment": "one sentence"}.`

// judgeSchema is strict-mode compatible (no minimum/maximum, which some
// endpoints refuse in strict schemas); Score checks the range itself.
var judgeSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"tone":        map[string]any{"type": "integer", "description": "1 to 5"},
		"helpfulness": map[string]any{"type": "integer", "description": "1 to 5"},
		"comment":     map[string]any{"type": "string"},
	},
	"required":             []any{"tone", "helpfulness", "comment"},
	"additionalProperties": false,
}

// Score asks the judge about one plan. Failures are recorded in the score
// (Error), never fatal to the suite.
func (j *Judge) Score(ctx context.Context, sc *Scenario, plan string) *JudgeScore {
	if j.Slots != nil {
		select {
		case j.Slots <- struct{}{}:
			defer func() { <-j.Slots }()
		case <-ctx.Done():
			return &JudgeScore{Error: ctx.Err().Error()}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## The member's situation\n%s\n\n%s\n\n## The plan\n%s\n", sc.Title, sc.Description, plan)
	res, err := j.Runtime.Execute(ctx, agent.ModelRequest{System: JudgeRubric, Model: j.Model,
		Messages: []agent.Message{{Role: agent.RoleUser, Content: b.String()}},
		Output:   &agent.OutputSchema{Name: "plan_review", Schema: judgeSchema}})
	s := &JudgeScore{TokensIn: res.Usage.InputTokens, TokensOut: res.Usage.OutputTokens}
	if err != nil {
		s.Error = err.Error()
		return s
	}
	if err := json.Unmarshal([]byte(agent.ExtractJSON(res.Output)), s); err != nil {
		s.Error = "the judge's reply is not the review JSON: " + err.Error()
		return s
	}
	if s.Tone < 1 || s.Tone > 5 || s.Helpfulness < 1 || s.Helpfulness > 5 {
		s.Error = fmt.Sprintf("scores out of range (tone %d, helpfulness %d)", s.Tone, s.Helpfulness)
	}
	return s
}
