package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/text"
)

// MaxChatMessageLen caps a member's chat message, in characters.
const MaxChatMessageLen = 4000

// defaultReply is the chat answer when no model is available and the agent
// has no Reply function.
const defaultReply = "I can't think this through right now (no language model is available), but I've kept your message."

// FreeformRequest is one chat message from a member to an agent.
type FreeformRequest struct {
	Agent   string
	Member  string
	Message string
	// ThreadID continues a thread of this agent and member; 0 starts one.
	ThreadID int64
	// Trigger defaults to TriggerAPI.
	Trigger Trigger
	// Origin names what started the run beyond its trigger (see Run.Origin).
	Origin string
}

// StartFreeform records the message on its thread (created if ThreadID is
// 0) and queues the chat run, returning it at once. Turns on one thread run
// one after another.
func (o *Orchestrator) StartFreeform(ctx context.Context, req FreeformRequest) (Run, error) {
	reg, err := o.agent(req.Agent)
	if err != nil {
		return Run{}, err
	}
	msg := strings.TrimSpace(req.Message)
	switch {
	case req.Member == "":
		return Run{}, apperr.Invalidf("a member is required")
	case msg == "":
		return Run{}, apperr.Invalidf("the message is empty")
	case utf8.RuneCountInString(msg) > MaxChatMessageLen:
		return Run{}, apperr.Invalidf("the message is longer than %d characters", MaxChatMessageLen)
	}
	if req.Trigger == "" {
		req.Trigger = TriggerAPI
	}
	if !req.Trigger.Valid() {
		return Run{}, apperr.Invalidf("unknown trigger %q", req.Trigger)
	}

	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return Run{}, errClosed
	}
	r := Run{Agent: req.Agent, Member: req.Member, Trigger: req.Trigger, Origin: req.Origin}
	var userMsg ThreadMessage
	err = o.db.Tx(ctx, func(tx *store.Tx) error {
		threadID := req.ThreadID
		if threadID == 0 {
			t := Thread{Agent: req.Agent, Member: req.Member, Title: title(msg)}
			if err := o.threads.create(ctx, tx, &t); err != nil {
				return err
			}
			threadID = t.ID
		} else {
			t, err := o.threads.thread(ctx, tx, threadID)
			if err != nil {
				return err
			}
			if t.Agent != req.Agent || t.Member != req.Member {
				return apperr.NotFoundf("thread %d not found", threadID)
			}
		}
		r.ThreadID = &threadID
		if err := o.runs.create(ctx, tx, &r); err != nil {
			return err
		}
		userMsg = ThreadMessage{ThreadID: threadID, Role: RoleUser, Content: msg, RunID: &r.ID}
		return o.threads.addMessage(ctx, tx, &userMsg)
	})
	if err != nil {
		return Run{}, err
	}
	o.publish(&r)
	o.launchLocked(r, runKey{}, func(ctx context.Context, x *Exec) error {
		unlock, err := o.lockThread(ctx, *x.run.ThreadID)
		if err != nil {
			return err
		}
		defer unlock()
		return o.timed(ctx, func(ctx context.Context) error { return o.runFreeform(ctx, reg, x, userMsg) })
	})
	return r, nil
}

// Freeform sends a chat message and waits for the reply: the finished run,
// whose Output is {"reply": "..."} and ThreadID the thread.
func (o *Orchestrator) Freeform(ctx context.Context, req FreeformRequest) (Run, error) {
	r, err := o.StartFreeform(ctx, req)
	if err != nil {
		return Run{}, err
	}
	return o.Wait(ctx, r.ID)
}

func (o *Orchestrator) runFreeform(ctx context.Context, reg *registered, x *Exec, userMsg ThreadMessage) error {
	mem, err := o.begin(ctx, x)
	if err != nil {
		return err
	}

	end := x.Phase(ctx, PhaseHistory)
	history, err := o.threads.Messages(ctx, userMsg.ThreadID, userMsg.ID, o.opts.HistoryMessages)
	end()
	if err != nil {
		return err
	}
	msgs := make([]Message, 0, len(history)+1)
	for _, m := range history {
		msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
	}
	msgs = append(msgs, Message{Role: RoleUser, Content: userMsg.Content})
	system := joinNonEmpty("\n\n", reg.def.SystemPrompt, "## Working memory\n"+mem.Serialize())
	x.SetPrompt(Prompt{System: system, User: userMsg.Content})

	reply, fromModel, err := o.chatReply(ctx, reg, x, mem, Request{System: system, Messages: msgs})
	if err != nil {
		return err
	}
	out, _ := json.Marshal(map[string]string{"reply": reply})
	x.update(func(r *Run) { r.Output = out })
	return x.commit(ctx, fromModel, func(tx *store.Tx) error {
		m := ThreadMessage{ThreadID: userMsg.ThreadID, Role: RoleAssistant, Content: reply, RunID: &x.run.ID}
		return o.threads.addMessage(ctx, tx, &m)
	})
}

// chatReply asks the model through the engine's loop (or, without one,
// with the budget spent or after a model error, the agent's heuristic
// reply); fromModel says whose reply it is.
func (o *Orchestrator) chatReply(ctx context.Context, reg *registered, x *Exec, mem *Memory, req Request) (string, bool, error) {
	message := req.Messages[len(req.Messages)-1].Content
	scope := x.Scope(x.run.Agent, mem)
	heuristic := func(fallback string) (string, bool, error) {
		if fallback != "" {
			x.fallBack(fallback)
		}
		req.Planner = func(ctx context.Context) (string, error) {
			if reg.def.Reply == nil {
				return defaultReply, nil
			}
			return reg.def.Reply(ctx, scope, message)
		}
		res, err := x.heuristic(ctx, req)
		if err != nil {
			return "", false, fmt.Errorf("heuristic reply: %w%s", err, fallbackNote(fallback))
		}
		return res.Output, false, nil
	}
	switch fallback, err := x.Fallback(ctx); {
	case err != nil:
		return "", false, err
	case fallback == FallbackNoModel:
		return heuristic("")
	case fallback != "":
		return heuristic(fallback)
	}
	s := reg.def.Model
	req.Model, req.Temperature, req.MaxTokens, req.MaxIterations = s.Model, s.Temperature, s.MaxTokens, s.maxIterations()
	if specs := reg.tools.Specs(); len(specs) > 0 {
		req.Tools, req.CallTool = specs, reg.tools.Caller(scope)
	}
	out, err := x.Reason(ctx, Reasoning{Request: req, Retries: -1, Check: func(_ context.Context, raw string) (any, []ValidationError, error) {
		if s, _ := text.Clean(text.Multi, raw); strings.TrimSpace(s) != "" { // model text reaches screens
			return strings.TrimSpace(s), nil, nil
		}
		return nil, []ValidationError{{Path: "/", Message: "the reply is empty"}}, nil
	}})
	var invalid *InvalidOutputError
	switch {
	case err == nil:
		return out.(string), true, nil
	case errors.As(err, &invalid):
		return heuristic("model_error: empty reply")
	case ctx.Err() != nil:
		return "", false, fmt.Errorf("reason: %w", err)
	}
	return heuristic("model_error: " + err.Error())
}

// title makes a thread title from its first message.
func title(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if utf8.RuneCountInString(msg) <= 60 {
		return msg
	}
	return string([]rune(msg)[:59]) + "…"
}

type threadLock struct {
	ch   chan struct{}
	refs int
}

// lockThread serialises chat turns on one thread.
func (o *Orchestrator) lockThread(ctx context.Context, id int64) (func(), error) {
	o.mu.Lock()
	l, ok := o.threadLocks[id]
	if !ok {
		l = &threadLock{ch: make(chan struct{}, 1)}
		o.threadLocks[id] = l
	}
	l.refs++
	o.mu.Unlock()
	release := func() {
		o.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(o.threadLocks, id)
		}
		o.mu.Unlock()
	}
	if err := acquire(ctx, l.ch); err != nil {
		release()
		return nil, err
	}
	return func() { <-l.ch; release() }, nil
}
