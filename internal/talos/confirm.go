package talos

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/homeassistant"
	"hearth/internal/workflow"
)

// ConfirmWorkflow is the workflow a held action waits in: one step that
// suspends until an adult confirms or refuses on the screen, or the
// confirmation times out. It is durable: a restart keeps the question
// waiting, and Expire refuses it once its time is up.
const ConfirmWorkflow = "talos-confirm"

// confirmStep is the one step's path.
const confirmStep = "confirm"

// Answers to a held action.
const (
	AnswerConfirm = "confirm"
	AnswerRefuse  = "refuse"
	AnswerTimeout = "timeout"
)

// Flows is the workflow runtime as confirmations use it.
type Flows interface {
	Register(w *workflow.Workflow) error
	Start(ctx context.Context, req workflow.StartRequest) (workflow.Run, error)
	Wait(ctx context.Context, id int64) (workflow.Run, error)
	Resume(ctx context.Context, id int64, path string, data json.RawMessage) (workflow.Run, error)
}

// Confirmations hold gated actions until an adult answers on the screen.
type Confirmations struct {
	store     *Store
	flows     Flows
	household Household
	ha        homeassistant.Connect
	now       func() time.Time
	changed   func(member string)
}

// NewConfirmations registers the confirmation workflow on flows. ha
// performs a confirmed Home Assistant call.
func NewConfirmations(st *Store, flows Flows, household Household, ha homeassistant.Connect, now func() time.Time) (*Confirmations, error) {
	if now == nil {
		now = time.Now
	}
	c := &Confirmations{store: st, flows: flows, household: household, ha: ha, now: now, changed: func(string) {}}
	w, err := workflow.New(ConfirmWorkflow, "Hold an action Talos was asked for until an adult confirms it on the screen (refused after 2 minutes)").
		Schemas(map[string]any{"type": "object", "required": []string{"decision"},
			"properties": map[string]any{"decision": map[string]any{"type": "integer", "minimum": 1}}}, nil, nil).
		Then(&workflow.Step{ID: confirmStep, Description: "Wait for an adult's confirmation, then act (or refuse)",
			Suspend: map[string]any{"type": "object", "required": []string{"decision", "question"},
				"properties": map[string]any{"decision": map[string]any{"type": "integer"}, "question": map[string]any{"type": "string"},
					"until": map[string]any{"type": "string"}}},
			Resume: map[string]any{"type": "object", "required": []string{"answer"}, "additionalProperties": false,
				"properties": map[string]any{"answer": map[string]any{"enum": []string{AnswerConfirm, AnswerRefuse, AnswerTimeout}},
					"by": map[string]any{"type": "string", "maxLength": 40}}},
			Run: c.step}).
		Commit()
	if err != nil {
		return nil, err
	}
	if err := flows.Register(w); err != nil {
		return nil, err
	}
	return c, nil
}

// start starts the confirmation of a waiting decision and waits until it
// is suspended (the screen can show it as soon as the model is told).
func (c *Confirmations) start(ctx context.Context, rec Record) error {
	in, _ := json.Marshal(map[string]int64{"decision": rec.ID})
	run, err := c.flows.Start(ctx, workflow.StartRequest{Workflow: ConfirmWorkflow, Member: rec.Member, Input: in,
		Trigger: workflow.TriggerAgent, Origin: fmt.Sprintf("policy_decision:%d", rec.ID)})
	if err != nil {
		return err
	}
	if err := c.store.setWorkflow(ctx, rec.ID, run.ID); err != nil {
		return err
	}
	_, err = c.flows.Wait(ctx, run.ID)
	return err
}

type answer struct {
	Answer string `json:"answer"`
	By     string `json:"by,omitempty"`
}

// step is the confirmation: it suspends with the question, then acts on
// the answer. It runs again after a crash; a decision already settled is
// not acted on twice (settle moves it once).
func (c *Confirmations) step(ctx context.Context, wc *workflow.Context) (any, error) {
	var in struct {
		Decision int64 `json:"decision"`
	}
	if err := wc.Decode(&in); err != nil {
		return nil, err
	}
	rec, err := c.store.Decision(ctx, in.Decision)
	if err != nil {
		return nil, err
	}
	raw, resumed := wc.Resumed()
	if !resumed {
		if rec.Outcome != Waiting {
			return map[string]string{"outcome": string(rec.Outcome)}, nil
		}
		c2, _ := Describe(rec.Tool, rec.Args)
		until := ""
		if rec.ExpiresAt != nil {
			until = rec.ExpiresAt.UTC().Format(time.RFC3339)
		}
		return nil, wc.Suspend(map[string]any{"decision": rec.ID, "question": c2.Question(), "until": until})
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	outcome, result := c.decide(ctx, rec, a)
	if _, err := c.store.settle(context.WithoutCancel(ctx), rec.ID, outcome, a.By, result); err != nil {
		return nil, err
	}
	c.changed(rec.Member)
	return map[string]string{"outcome": string(outcome), "result": result}, nil
}

// decide acts on an answer: a confirmation in time performs the call.
func (c *Confirmations) decide(ctx context.Context, rec Record, a answer) (Outcome, string) {
	switch {
	case a.Answer == AnswerRefuse:
		return Refused, "refused on the screen"
	case a.Answer == AnswerTimeout || (rec.ExpiresAt != nil && !c.now().Before(*rec.ExpiresAt)):
		return TimedOut, "nobody confirmed within 2 minutes"
	}
	// The admin's workflow pages and API can resume the step too: whoever
	// answers, only an adult's confirmation acts.
	if m, err := c.household.Member(ctx, a.By); err != nil || m.Role.OrAdult() != health.RoleAdult {
		return Refused, "refused: confirmed by someone who is not one of the household's adults"
	}
	if rec.Tool != ToolCallService {
		return Refused, "only Home Assistant actions wait for confirmation"
	}
	var args homeassistant.CallArgs
	if err := json.Unmarshal(rec.Args, &args); err != nil {
		return Refused, "the held call cannot be read: " + err.Error()
	}
	res, err := homeassistant.CallConfirmed(ctx, c.ha, args)
	if err != nil {
		return Confirmed, "failed: " + err.Error()
	}
	state := ""
	if len(res.States) > 0 {
		state = " (now " + res.States[0].State + ")"
	}
	return Confirmed, "done: " + res.Called + " on " + res.EntityID + state
}

// Answer answers a waiting decision as the adult by (confirm) or anyone on
// the screen (refuse). The caller has checked by is an adult and their
// PIN. A decision past its time is refused as timed out whatever the
// answer. The returned record is the settled decision.
func (c *Confirmations) Answer(ctx context.Context, id int64, ans, by string) (Record, error) {
	rec, err := c.store.Decision(ctx, id)
	if err != nil {
		return rec, err
	}
	if rec.Outcome != Waiting || rec.Workflow == nil {
		return rec, apperr.New(apperr.Conflict, "this request was already answered (%s)", rec.Outcome)
	}
	if ans == AnswerConfirm {
		m, err := c.household.Member(ctx, by)
		if err != nil || m.Role.OrAdult() != health.RoleAdult {
			return rec, apperr.FieldErrors(map[string]string{"approver": "must be one of the household's adults"})
		}
	}
	if rec.ExpiresAt != nil && !c.now().Before(*rec.ExpiresAt) {
		ans = AnswerTimeout
	}
	data, _ := json.Marshal(answer{Answer: ans, By: by})
	if _, err := c.flows.Resume(ctx, *rec.Workflow, confirmStep, data); err != nil {
		return rec, err
	}
	if _, err := c.flows.Wait(ctx, *rec.Workflow); err != nil {
		return rec, err
	}
	return c.store.Decision(ctx, id)
}

// Expire refuses every waiting decision whose time is up; it returns how
// many it refused. The app calls it every few seconds (and a test after
// moving its clock).
func (c *Confirmations) Expire(ctx context.Context) (int, error) {
	ws, err := c.store.Waiting(ctx, "")
	if err != nil {
		return 0, err
	}
	n := 0
	now := c.now()
	for _, r := range ws {
		if r.ExpiresAt == nil || now.Before(*r.ExpiresAt) {
			continue
		}
		if r.Workflow == nil { // never asked (a crash between the two writes)
			if ok, err := c.store.settle(ctx, r.ID, TimedOut, "", "nobody confirmed within 2 minutes"); err == nil && ok {
				n++
			}
			continue
		}
		if _, err := c.Answer(ctx, r.ID, AnswerTimeout, ""); err != nil && !apperr.Is(err, apperr.Conflict) {
			return n, err
		}
		n++
	}
	return n, nil
}
