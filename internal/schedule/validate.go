package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/store"
	"hearth/internal/text"
)

// Input limits.
const (
	MaxDescriptionLen = 2000 // characters
	MaxPromptLen      = 4000 // characters
	maxIDLen          = 100
)

// normalize checks and tidies t in place (description, kind and schedule,
// policies, target) and returns its parsed schedule. Errors are
// apperr.Invalid naming the field and the problem. checkTarget runs
// Options.CheckTarget (on create, and when the target changed).
func (s *Service) normalize(ctx context.Context, q store.Queryer, t *Task, checkTarget bool) (Spec, error) {
	desc, err := text.Check(text.Multi, strings.TrimSpace(t.Description))
	if err != nil {
		return Spec{}, invalidField("description", "description "+err.Error())
	}
	t.Description = desc
	switch n := utf8.RuneCountInString(t.Description); {
	case n == 0:
		return Spec{}, invalidField("description", "description is required")
	case n > MaxDescriptionLen:
		return Spec{}, invalidField("description", fmt.Sprintf("description is %d characters; the limit is %d", n, MaxDescriptionLen))
	}
	spec, err := ParseSchedule(t.Kind, t.Schedule, s.loc)
	if err != nil {
		return Spec{}, err
	}
	t.Schedule = spec.Normalized
	switch t.OverlapPolicy {
	case "":
		t.OverlapPolicy = OverlapSkip
	case OverlapSkip, OverlapQueue:
	default:
		return Spec{}, invalidField("overlap_policy", fmt.Sprintf("unknown overlap policy %q: want skip or queue", string(t.OverlapPolicy)))
	}
	switch t.CatchupPolicy {
	case "":
		t.CatchupPolicy = CatchupOnce
	case CatchupOnce, CatchupSkip:
	default:
		return Spec{}, invalidField("catchup_policy", fmt.Sprintf("unknown catch-up policy %q: want once or skip", string(t.CatchupPolicy)))
	}
	if err := s.normalizeTarget(ctx, q, t); err != nil {
		return Spec{}, err
	}
	if checkTarget && s.opt.CheckTarget != nil {
		if err := s.opt.CheckTarget(t.AgentID, t.AssignmentID); err != nil {
			field := "agent"
			if t.AssignmentID != "" {
				field = "assignment"
			}
			return Spec{}, invalidField(field, err.Error())
		}
	}
	return spec, nil
}

func (s *Service) normalizeTarget(ctx context.Context, q store.Queryer, t *Task) error {
	t.AgentID = strings.TrimSpace(t.AgentID)
	t.AssignmentID = strings.TrimSpace(t.AssignmentID)
	t.MemberID = strings.TrimSpace(t.MemberID)
	prompt, err := text.Check(text.Multi, strings.TrimSpace(t.Prompt))
	if err != nil {
		return invalidField("prompt", "prompt "+err.Error())
	}
	t.Prompt = prompt
	for _, id := range []string{t.AgentID, t.AssignmentID, t.MemberID} {
		if _, err := text.Check(text.Line, id); err != nil {
			return invalidField("agent", "agent, assignment and member ids "+err.Error())
		}
	}
	if t.AgentID == "" {
		t.AgentID = s.opt.DefaultAgent
	}
	if len(t.AgentID) > maxIDLen || len(t.AssignmentID) > maxIDLen || len(t.MemberID) > maxIDLen {
		return invalidField("agent", "agent, assignment and member ids are at most 100 bytes")
	}
	switch {
	case t.AgentID == SystemAgent:
		switch {
		case t.AssignmentID == "":
			return invalidField("assignment", "a system task names its job (e.g. backup)")
		case t.MemberID != "" || t.Prompt != "" || t.Kind == KindHeartbeat:
			return invalidField("member", "a system task runs for the whole household: no member, prompt or heartbeat")
		}
	case t.Kind == KindHeartbeat:
		if t.AssignmentID != "" || t.MemberID != "" || t.Prompt != "" {
			return invalidField("type", "inconsistent target: a heartbeat names only the agent (it works through the agent's to-do list)")
		}
	case t.AssignmentID != "":
		if t.Prompt != "" {
			return invalidField("prompt", "inconsistent target: give an assignment or a prompt, not both")
		}
	default:
		if t.MemberID == "" {
			return invalidField("member", "missing target: a freeform action needs a member (or name an assignment)")
		}
		if t.Prompt == "" {
			t.Prompt = t.Description
		}
		if n := utf8.RuneCountInString(t.Prompt); n > MaxPromptLen {
			return invalidField("prompt", fmt.Sprintf("prompt is %d characters; the limit is %d", n, MaxPromptLen))
		}
	}
	if t.MemberID != "" {
		ok, err := memberExists(ctx, q, t.MemberID)
		if err != nil {
			return err
		}
		if !ok {
			return invalidField("member", fmt.Sprintf("unknown member %q", t.MemberID))
		}
	}
	return nil
}

// firstSlot is the first slot of spec after now (a fresh schedule).
func firstSlot(spec Spec, now time.Time) (time.Time, error) {
	next := spec.Next(now.Truncate(time.Second))
	if next.IsZero() {
		if spec.Kind == KindOnce {
			return next, invalidField("schedule", fmt.Sprintf("time %s is not in the future", spec.Normalized))
		}
		return next, invalidField("schedule", fmt.Sprintf("cron expression %q never fires", spec.Normalized))
	}
	return next, nil
}
