package agent

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// Chat event types, in the order a turn produces them: deltas of the
// answer's text (and tool calls as they start), then the stored answer,
// or an error.
const (
	ChatDelta = "delta"
	ChatTool  = "tool"
	// ChatReset drops the text so far: the model failed part way and the
	// heuristic's answer follows instead.
	ChatReset   = "reset"
	ChatMessage = "message"
	ChatError   = "error"
)

// ChatEvent is one step of a chat turn as it happens.
type ChatEvent struct {
	Type string `json:"type"`
	// Text is a piece of the answer (delta) or the error (error).
	Text string `json:"text,omitempty"`
	// Tool and Label name a tool call: the tool, and what it did in the
	// member's words ("checked your weight trend").
	Tool  string          `json:"tool,omitempty"`
	Label string          `json:"label,omitempty"`
	Args  json.RawMessage `json:"args,omitempty"`
	// Message is the answer as stored (message).
	Message *ThreadMessage `json:"message,omitempty"`
}

// ChatStream is one chat turn's events, kept in memory while the turn runs
// and for a while after, so any number of readers (the API's event
// stream, every open screen of the member) follow it from the start or
// from where they are, however late they join.
type ChatStream struct {
	RunID    int64
	ThreadID int64
	Member   string

	mu      sync.Mutex
	events  []ChatEvent
	text    strings.Builder
	tools   []ChatEvent
	done    bool
	ended   time.Time
	changed chan struct{}
}

func newChatStream(run, thread int64, member string) *ChatStream {
	return &ChatStream{RunID: run, ThreadID: thread, Member: member, changed: make(chan struct{})}
}

// add appends an event and wakes the readers.
func (s *ChatStream) add(ev ChatEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.events = append(s.events, ev)
	switch ev.Type {
	case ChatDelta:
		s.text.WriteString(ev.Text)
	case ChatReset:
		s.text.Reset()
	case ChatTool:
		s.tools = append(s.tools, ev)
	case ChatMessage, ChatError:
		s.done, s.ended = true, time.Now()
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// Next returns the events from index from on, a channel closed when more
// arrive, and whether the turn is over (its last event is a message or an
// error).
func (s *ChatStream) Next(from int) ([]ChatEvent, <-chan struct{}, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var evs []ChatEvent
	if from < len(s.events) {
		evs = append(evs, s.events[from:]...)
	}
	return evs, s.changed, s.done
}

// Text is the answer so far; Tools the tool calls so far; Done whether the
// turn is over.
func (s *ChatStream) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text.String()
}

// Answer is the turn's answer as far as it has got (the stored message's
// text once there is one) and its error text, for a screen opened mid-turn.
func (s *ChatStream) Answer() (text, errText string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text = s.text.String()
	for _, ev := range s.events {
		switch {
		case ev.Type == ChatMessage && ev.Message != nil:
			text = ev.Message.Content
		case ev.Type == ChatError:
			errText = ev.Text
		}
	}
	return strings.TrimSpace(text), errText
}

// Tools returns the tool-call events so far.
func (s *ChatStream) Tools() []ChatEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatEvent(nil), s.tools...)
}

// Done reports whether the turn is over.
func (s *ChatStream) Done() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

// chatStreamKeep is how long a finished turn's stream stays readable.
const chatStreamKeep = 2 * time.Minute

// ChatStream returns the events of chat run id while it runs (and for
// two minutes after); ok is false for an unknown or older run, whose
// messages are in its thread.
func (o *Orchestrator) ChatStream(id int64) (*ChatStream, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	s, ok := o.chats[id]
	return s, ok
}

// ActiveChats returns the member's chat turns still answering.
func (o *Orchestrator) ActiveChats(member string) []*ChatStream {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*ChatStream
	for _, s := range o.chats {
		if s.Member == member && !s.Done() {
			out = append(out, s)
		}
	}
	return out
}

// pruneChatsLocked drops streams that ended more than chatStreamKeep ago;
// callers hold o.mu.
func (o *Orchestrator) pruneChatsLocked() {
	for id, s := range o.chats {
		s.mu.Lock()
		old := s.done && time.Since(s.ended) > chatStreamKeep
		s.mu.Unlock()
		if old {
			delete(o.chats, id)
		}
	}
}

// ToolLabel is what a call of tool by the agent did, in the member's words
// ("checked your weight trend"), for chips of stored messages.
func (o *Orchestrator) ToolLabel(agentID, tool string) string {
	reg, err := o.agent(agentID)
	if err != nil {
		return "used " + strings.ReplaceAll(tool, "_", " ")
	}
	return reg.label(tool)
}
