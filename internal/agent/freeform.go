package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/text"
)

// MaxChatMessageLen caps a member's chat message, in characters.
const MaxChatMessageLen = 4000

// defaultReply is the chat answer when no model is available and the agent
// has no Reply function.
const defaultReply = "I can't think this through right now (no language model is available), but I've kept your message."

// startFreeform records the message on its thread (created if Thread is
// 0) and queues the chat run, returning it at once. Turns on one thread run
// one after another.
func (o *Orchestrator) startFreeform(ctx context.Context, reg *registered, req Request) (Run, error) {
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
	if req.FromMember {
		req.Chat = true
	}
	switch req.Surface {
	case "":
		req.Surface = SurfaceAdmin
	case SurfaceAdmin, SurfaceKiosk:
	default:
		return Run{}, apperr.Invalidf("unknown surface %q", req.Surface)
	}
	if !req.Trigger.Valid() {
		return Run{}, apperr.Invalidf("unknown trigger %q", req.Trigger)
	}

	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return Run{}, ErrClosed
	}
	r := Run{Agent: req.Agent, Member: req.Member, Trigger: req.Trigger, Origin: req.Origin}
	var userMsg ThreadMessage
	err := o.db.Tx(ctx, func(tx *store.Tx) error {
		threadID := req.Thread
		if threadID == 0 {
			t := Thread{Agent: req.Agent, Member: req.Member, Title: title(msg), Chat: req.Chat, Origin: req.Surface}
			if err := o.threads.create(ctx, tx, &t); err != nil {
				return err
			}
			threadID = t.ID
		} else {
			t, err := o.threads.thread(ctx, tx, threadID)
			if err != nil {
				return err
			}
			// The admin may continue any thread; another surface its own only.
			if t.Agent != req.Agent || t.Member != req.Member || (req.Surface != SurfaceAdmin && t.Origin != req.Surface) {
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
	o.pruneChatsLocked()
	cs := newChatStream(r.ID, userMsg.ThreadID, r.Member)
	o.chats[r.ID] = cs
	o.publishChat(cs, "started")
	o.launchLocked(r, runKey{}, func(ctx context.Context, x *Exec) error {
		err := func() error {
			unlock, err := o.lockThread(ctx, *x.run.ThreadID)
			if err != nil {
				return err
			}
			defer unlock()
			return o.timed(ctx, func(ctx context.Context) error { return o.runFreeform(ctx, reg, x, userMsg, req, cs) })
		}()
		if err != nil {
			cs.add(ChatEvent{Type: ChatError, Text: "The coach could not answer: " + err.Error()})
		}
		o.publishChat(cs, "done")
		return err
	})
	return r, nil
}

// ChatUpdate is what the live hub carries about a chat turn (kind chat,
// on the member's topic and the admin topic): it started, called a tool,
// or is done; its text is read from the orchestrator's ChatStream.
type ChatUpdate struct {
	Run    int64  `json:"run"`
	Thread int64  `json:"thread"`
	Member string `json:"member"`
	Event  string `json:"event"` // started, tool, done
}

func (o *Orchestrator) publishChat(cs *ChatStream, event string) {
	if o.pub == nil {
		return
	}
	u := ChatUpdate{Run: cs.RunID, Thread: cs.ThreadID, Member: cs.Member, Event: event}
	o.pub.Publish(live.MemberTopic(cs.Member), live.KindChat, u)
	o.pub.Publish(live.TopicAdmin, live.KindChat, u)
}

// ChatTurn is a chat message as an agent's Reply sees it.
type ChatTurn struct {
	Message string
	Thread  int64
	// History are the thread's earlier text messages, oldest first.
	History []ThreadMessage
	// Recalled are older messages found by full-text search, best first,
	// when the message refers back to something said before.
	Recalled []Recalled
	// Chat says a person typed the message (Request.Chat).
	Chat bool
	// FromMember says the member typed it (Request.FromMember).
	FromMember bool
	// Call runs one of the agent's tools for the member: the call shows as
	// it happens (a chip) and is recorded on the run and in the thread.
	Call ToolCaller
	// Record reports a tool call Converse made itself (the call shows as a
	// chip and is stored in the thread).
	Record func(name string, args json.RawMessage, result any, err error)
}

// recordedCall is a tool call a turn made, for its thread.
type recordedCall struct {
	name   string
	args   json.RawMessage
	result json.RawMessage
	err    string
}

func newRecordedCall(name string, args json.RawMessage, result any, err error) recordedCall {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	rc := recordedCall{name: name, args: args}
	if err != nil {
		rc.err = err.Error()
	} else {
		rc.result, _ = json.Marshal(result)
	}
	return rc
}

func (o *Orchestrator) runFreeform(ctx context.Context, reg *registered, x *Exec, userMsg ThreadMessage, req Request, cs *ChatStream) error {
	if err := o.startRunning(ctx, x); err != nil {
		return err
	}
	memID := reg.def.ID
	if reg.def.Chat.MemoryScope == MemoryThread {
		memID = threadMemoryID(reg.def.ID, userMsg.ThreadID)
	}
	end := x.Phase(ctx, PhaseLoadMemory)
	mem, err := x.Memory(ctx, memID)
	end()
	if err != nil {
		return err
	}
	x.Phase(ctx, PhasePrune)() // Memory pruned it on load

	end = x.Phase(ctx, PhaseHistory)
	n := reg.def.Chat.LastMessages
	if n <= 0 {
		n = o.opts.HistoryMessages
	}
	history, err := o.threads.textMessages(ctx, userMsg.ThreadID, userMsg.ID, n)
	var recalled []Recalled
	if err == nil && !reg.def.Chat.NoRecall && RefersBack(userMsg.Content) {
		from := userMsg.ID
		if len(history) > 0 {
			from = history[0].ID
		}
		// Another surface recalls only its own threads: what an admin said
		// as the member stays off the open screen.
		origin := req.Surface
		if origin == SurfaceAdmin {
			origin = ""
		}
		recalled, err = o.threads.Recall(ctx, reg.def.ID, x.run.Member, origin, userMsg.Content, userMsg.ThreadID, from, 5)
	}
	end()
	if err != nil {
		return err
	}
	turn := ChatTurn{Message: userMsg.Content, Thread: userMsg.ThreadID, History: history, Recalled: recalled, Chat: req.Chat,
		FromMember: req.FromMember}
	var reply string
	var calls []recordedCall
	if reg.def.Converse != nil {
		reply, calls, err = o.converse(ctx, reg, x, turn, cs)
	} else {
		msgs := make([]Message, 0, len(history)+1)
		for _, m := range history {
			msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
		}
		msgs = append(msgs, Message{Role: RoleUser, Content: userMsg.Content})
		system := joinNonEmpty("\n\n", WithDataRule(reg.def.SystemPrompt), requestSection(reg.def, req),
			"## Working memory\n"+mem.Serialize(), recallSection(recalled, o.opts.Location))
		x.SetPrompt(Prompt{System: system, User: userMsg.Content, Source: "the agent's built-in chat instructions"})
		reply, calls, err = o.chatReply(ctx, reg, reg.toolsFor(req.Surface), req.Surface, x, mem, ModelRequest{System: system, Messages: msgs, Memory: memoryText(mem)}, turn, cs)
	}
	if err != nil {
		return err
	}
	// Only the member's own words are theirs to remember: what a schedule,
	// a to-do or the admin wrote for them never is (issue 32).
	if reg.def.Heard != nil && req.FromMember {
		rmem, err := x.Memory(ctx, reg.def.ID)
		if err == nil {
			err = reg.def.Heard(ctx, x.Scope(reg.def.ID, rmem), userMsg.Content)
		}
		if err != nil {
			o.log.Warn("agent: note what the member said", "run", x.run.ID, "err", err)
		}
	}
	out, _ := json.Marshal(map[string]string{"reply": reply})
	x.update(func(r *Run) { r.Output = out })
	var answer ThreadMessage
	// Whoever answered (the model, or the heuristic after the model's own
	// writes were discarded), the writes still staged are that answer's:
	// a message the turn sends goes out with its reply, in one commit.
	err = x.commit(ctx, true, func(tx *store.Tx) error {
		for i, c := range calls {
			id := fmt.Sprintf("call_%d_%d", x.run.ID, i+1)
			args := c.args
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			call := ThreadMessage{ThreadID: userMsg.ThreadID, Role: RoleAssistant, Type: MessageToolCall, Content: reg.label(c.name),
				ToolName: c.name, ToolArgs: args, ToolCallID: id, RunID: &x.run.ID}
			result := ThreadMessage{ThreadID: userMsg.ThreadID, Role: RoleTool, Type: MessageToolResult, Content: string(c.result),
				ToolName: c.name, ToolCallID: id, RunID: &x.run.ID}
			if c.err != "" {
				b, _ := json.Marshal(map[string]string{"error": c.err})
				result.Content = string(b)
			}
			for _, m := range []*ThreadMessage{&call, &result} {
				if err := o.threads.addMessage(ctx, tx, m); err != nil {
					return err
				}
			}
		}
		answer = ThreadMessage{ThreadID: userMsg.ThreadID, Role: RoleAssistant, Type: MessageText, Content: reply, RunID: &x.run.ID}
		return o.threads.addMessage(ctx, tx, &answer)
	}, nil)
	if err != nil {
		return err
	}
	cs.add(ChatEvent{Type: ChatMessage, Message: &answer})
	return nil
}

// converse answers a turn with the agent's own Converse (an agent made in
// admin runs its definition): the tool calls it reports show as chips and
// are stored in the thread; the answer shows when it is complete.
func (o *Orchestrator) converse(ctx context.Context, reg *registered, x *Exec, turn ChatTurn, cs *ChatStream) (string, []recordedCall, error) {
	var mu sync.Mutex
	var calls []recordedCall
	turn.Record = func(name string, args json.RawMessage, result any, callErr error) {
		rc := newRecordedCall(name, args, result, callErr)
		mu.Lock()
		calls = append(calls, rc)
		mu.Unlock()
		cs.add(ChatEvent{Type: ChatTool, Tool: name, Label: reg.label(name), Args: rc.args})
		o.publishChat(cs, "tool")
	}
	reply, err := reg.def.Converse(ctx, x, turn)
	if err != nil {
		return "", calls, err
	}
	reply, _ = text.Clean(text.Multi, strings.TrimSpace(reply)) // the answer reaches screens
	if reply == "" {
		return "", calls, errors.New("the agent's answer is empty")
	}
	cs.add(ChatEvent{Type: ChatDelta, Text: reply})
	mu.Lock()
	defer mu.Unlock()
	return reply, slices.Clone(calls), nil
}

// chatReply asks the model through the engine's loop, streaming its text
// into cs (or, without one, with the budget spent or after a model error,
// the agent's heuristic reply); calls are the tool calls the turn made.
// The model and the heuristic reply call tools through box, the turn's
// surface's tools. When the heuristic answers after the model, the writes
// the model staged are discarded first: only the answer given stages what
// the commit applies.
func (o *Orchestrator) chatReply(ctx context.Context, reg *registered, box *Toolbox, surface Surface, x *Exec, mem *Memory, req ModelRequest, turn ChatTurn,
	cs *ChatStream) (reply string, calls []recordedCall, err error) {
	scope := x.Scope(x.run.Agent, mem)
	var mu sync.Mutex
	traced := func(book bool) ToolCaller {
		base := box.Caller(scope)
		return func(ctx context.Context, name string, args json.RawMessage) (any, error) {
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			cs.add(ChatEvent{Type: ChatTool, Tool: name, Label: reg.label(name), Args: args})
			o.publishChat(cs, "tool")
			v, err := base(ctx, name, args)
			rc := newRecordedCall(name, args, v, err)
			mu.Lock()
			calls = append(calls, rc)
			mu.Unlock()
			if book { // the model's calls are booked by the runtime
				x.update(func(r *Run) {
					r.ToolCalls = append(r.ToolCalls, ToolCall{Name: name, Args: args, Result: rc.result, Error: rc.err})
				})
			}
			return v, err
		}
	}
	streamed := false
	heuristic := func(fallback string) (string, []recordedCall, error) {
		if fallback != "" {
			x.MarkFellBack(fallback)
			x.discardStaged("the model's reply was not used (" + fallback + ")")
		}
		if streamed {
			cs.add(ChatEvent{Type: ChatReset})
		}
		turn.Call = traced(true)
		req.Planner = func(ctx context.Context) (string, error) {
			if reg.def.Reply == nil {
				return defaultReply, nil
			}
			return reg.def.Reply(ctx, scope, turn)
		}
		res, err := x.heuristic(ctx, req)
		if err != nil {
			return "", calls, fmt.Errorf("heuristic reply: %w%s", err, fallbackNote(fallback))
		}
		out, _ := text.Clean(text.Multi, strings.TrimSpace(res.Output))
		for _, line := range strings.SplitAfter(out, "\n") {
			cs.add(ChatEvent{Type: ChatDelta, Text: line})
		}
		return out, calls, nil
	}
	switch fallback, err := x.NoModelReason(ctx); {
	case err != nil:
		return "", nil, err
	case fallback == FallbackNoModel:
		return heuristic("")
	case fallback != "":
		return heuristic(fallback)
	}
	s := reg.def.Model
	req.Model, req.Temperature, req.MaxTokens, req.MaxIterations = s.Model, s.Temperature, s.MaxTokens, s.maxIterations()
	req.Budget, req.ToolModel = s.Budget, s.ToolModel
	specs := reg.def.Chat.modelSpecs(box, surface)
	if reg.def.Offer != nil {
		names, err := reg.def.Offer(ctx, scope)
		if err != nil {
			return "", nil, fmt.Errorf("the tools to offer: %w", err)
		}
		specs = slices.DeleteFunc(specs, func(s ToolSpec) bool { return !slices.Contains(names, s.Name) })
	}
	if len(specs) > 0 {
		req.Tools, req.CallTool = specs, traced(false)
	}
	req.OnDelta = func(t string) {
		streamed = true
		cs.add(ChatEvent{Type: ChatDelta, Text: string(text.WithoutCR([]byte(t)))})
	}
	out, err := x.Reason(ctx, Reasoning{ModelRequest: req, Retries: -1, Check: func(_ context.Context, raw string) (any, []ValidationError, error) {
		if s, _ := text.Clean(text.Multi, raw); strings.TrimSpace(s) != "" { // model text reaches screens
			return strings.TrimSpace(s), nil, nil
		}
		return nil, []ValidationError{{Path: "/", Message: "the reply is empty"}}, nil
	}})
	var invalid *InvalidOutputError
	var over *RunBudgetError
	switch {
	case err == nil:
		return out.(string), calls, nil
	case errors.As(err, &over):
		x.note(over.Error())
		return heuristic(FallbackBudget)
	case errors.As(err, &invalid):
		return heuristic("model_error: empty reply")
	case ctx.Err() != nil:
		return "", calls, fmt.Errorf("reason: %w", err)
	}
	return heuristic("model_error: " + err.Error())
}

// requestSection tells the model, in a turn no person typed (a scheduled
// action or a to-do), whose words the message is: the household's admin's
// or the agent's own, never the member's, so its "me" and "my" are not the
// member speaking to it; the agent's RequestNote follows.
func requestSection(def Agent, req Request) string {
	if req.Chat {
		return ""
	}
	return joinNonEmpty("\n", "## This turn\nThe message is not the member speaking: it is a request run for the member "+
		"(trigger "+string(req.Trigger)+"), written by the household's admin, by the member when they scheduled it, or by you "+
		"as a to-do. Act on it with your tools; your reply is kept as the run's record and is not shown to the member.",
		def.RequestNote)
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
