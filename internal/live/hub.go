// Package live is the in-process pub/sub hub that feeds SSE streams. Writers
// publish after commit and never block: each subscriber has a bounded queue,
// and when it is full the subscriber is told to re-render everything instead
// (overflow coalesces into one resync signal). Writers see the hub as a
// Publisher; every event kind is a Kind constant (kinds.go), so a
// subscriber maps each one on purpose.
package live

import (
	"sync"
)

// Topic names. Member topics are "member:<id>".
const (
	TopicHousehold = "household"
	TopicAdmin     = "admin"
)

// MemberTopic returns the topic for one member's screens.
func MemberTopic(id string) string { return "member:" + id }

// Event is something that changed. Kind names what, Data is optional
// detail for the subscriber (see each Kind).
type Event struct {
	Topic string
	Kind  Kind
	Data  any
}

// Publisher is the hub as writers see it: Publish must not block. Domain
// services take one (nil publishes nothing) and publish after commit.
type Publisher interface {
	Publish(topic string, kind Kind, data any)
}

// QueueSize is each subscriber's buffer before overflow turns into a resync.
const QueueSize = 32

// Hub fans events out to subscribers by topic.
type Hub struct {
	mu     sync.RWMutex
	subs   map[string]map[*Sub]struct{}
	closed bool

	genMu sync.Mutex
	gens  map[string]uint64
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[string]map[*Sub]struct{}{}, gens: map[string]uint64{}} }

// Gen is the number of events published on topic so far. Publish raises it
// before delivering, so a reader that saw an event and then reads Gen gets a
// value at least as new as that event: caches keyed by Gen can be shared by
// every subscriber without ever serving state older than what they were told.
func (h *Hub) Gen(topic string) uint64 {
	h.genMu.Lock()
	defer h.genMu.Unlock()
	return h.gens[topic]
}

// Sub is one subscriber; read C and Resync until Done closes.
type Sub struct {
	hub    *Hub
	topics []string
	c      chan Event
	resync chan struct{}
	done   chan struct{}
	once   sync.Once
}

// C delivers events in publish order.
func (s *Sub) C() <-chan Event { return s.c }

// Resync fires when events were dropped: re-render from current state.
func (s *Sub) Resync() <-chan struct{} { return s.resync }

// Done is closed when the subscription ends (Close or hub shutdown).
func (s *Sub) Done() <-chan struct{} { return s.done }

// Subscribe registers interest in the given topics.
func (h *Hub) Subscribe(topics ...string) *Sub {
	s := &Sub{hub: h, topics: topics, c: make(chan Event, QueueSize), resync: make(chan struct{}, 1), done: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(s.done)
		return s
	}
	for _, t := range topics {
		if h.subs[t] == nil {
			h.subs[t] = map[*Sub]struct{}{}
		}
		h.subs[t][s] = struct{}{}
	}
	return s
}

// Close unsubscribes; safe to call more than once.
func (s *Sub) Close() {
	s.once.Do(func() {
		h := s.hub
		h.mu.Lock()
		for _, t := range s.topics {
			delete(h.subs[t], s)
			if len(h.subs[t]) == 0 {
				delete(h.subs, t)
			}
		}
		h.mu.Unlock()
		close(s.done)
	})
}

// Publish delivers an event to every subscriber of topic without blocking.
func (h *Hub) Publish(topic string, kind Kind, data any) {
	ev := Event{Topic: topic, Kind: kind, Data: data}
	h.genMu.Lock()
	h.gens[topic]++
	h.genMu.Unlock()
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs[topic] {
		select {
		case s.c <- ev:
		default:
			select {
			case s.resync <- struct{}{}:
			default:
			}
		}
	}
}

// Subscribers returns how many subscriptions a topic has (for tests and metrics).
func (h *Hub) Subscribers(topic string) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs[topic])
}

// Close ends every subscription; used at shutdown so streams return.
func (h *Hub) Close() {
	h.mu.Lock()
	var all []*Sub
	seen := map[*Sub]bool{}
	for _, set := range h.subs {
		for s := range set {
			if !seen[s] {
				seen[s] = true
				all = append(all, s)
			}
		}
	}
	h.closed = true
	h.mu.Unlock()
	for _, s := range all {
		s.Close()
	}
}
