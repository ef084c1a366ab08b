package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/text"
)

// Limits on working memory, so a model cannot grow a member's prompt without bound.
const (
	MaxMemoryKeyLen   = 100
	MaxMemoryValueLen = 2000
	MaxMemoryEntries  = 200
)

// MemoryEntry is one remembered fact. ExpiresAt is nil for persistent entries.
type MemoryEntry struct {
	Key       string     `json:"key"`
	Value     string     `json:"value"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	UpdatedAt time.Time  `json:"updated_at"`
}

func (e MemoryEntry) expired(now time.Time) bool {
	return e.ExpiresAt != nil && !now.Before(*e.ExpiresAt)
}

func (e MemoryEntry) sameAs(o MemoryEntry) bool {
	if e.Value != o.Value || (e.ExpiresAt == nil) != (o.ExpiresAt == nil) {
		return false
	}
	return e.ExpiresAt == nil || e.ExpiresAt.Equal(*o.ExpiresAt)
}

// Memory is an agent's working memory for one member: key → value with an
// optional time to live set at write time. Expired entries are pruned when
// read and never serialised. Safe for concurrent use.
type Memory struct {
	mu       sync.Mutex
	agentID  string
	memberID string
	now      func() time.Time
	entries  map[string]MemoryEntry
	loaded   map[string]MemoryEntry // as loaded from the store, to save only what changed
}

// NewMemory returns an empty memory using now as its clock (time.Now if nil).
func NewMemory(agentID, memberID string, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{agentID: agentID, memberID: memberID, now: now,
		entries: map[string]MemoryEntry{}, loaded: map[string]MemoryEntry{}}
}

// AgentID returns the agent the memory belongs to.
func (m *Memory) AgentID() string { return m.agentID }

// MemberID returns the member the memory is about.
func (m *Memory) MemberID() string { return m.memberID }

// Get returns the value of key; an expired entry is pruned and reported absent.
func (m *Memory) Get(key string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	if !ok {
		return "", false
	}
	if e.expired(m.now()) {
		delete(m.entries, key)
		return "", false
	}
	return e.Value, true
}

// Set stores value under key; ttl > 0 makes the entry expire ttl from now,
// ttl == 0 makes it persistent. Keys and values are length-limited.
func (m *Memory) Set(key, value string, ttl time.Duration) error {
	value, err := checkMemoryEntry(key, value, ttl)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now().UTC()
	m.pruneLocked(now)
	if _, exists := m.entries[key]; !exists && len(m.entries) >= MaxMemoryEntries {
		return apperr.Invalidf("memory is full (%d entries); remove something first", MaxMemoryEntries)
	}
	e := MemoryEntry{Key: key, Value: value, UpdatedAt: now}
	if ttl > 0 {
		exp := now.Add(ttl).Truncate(time.Millisecond)
		e.ExpiresAt = &exp
	}
	m.entries[key] = e
	return nil
}

// checkMemoryEntry validates an entry and returns the value with its
// newlines normalised (an admin's textarea sends CRLF).
func checkMemoryEntry(key, value string, ttl time.Duration) (string, error) {
	_, keyErr := text.Check(text.Line, key)
	value, valueErr := text.Check(text.Multi, value)
	switch {
	case strings.TrimSpace(key) == "" || keyErr != nil:
		return "", apperr.Invalidf("memory key must be one non-empty line of text")
	case valueErr != nil:
		return "", apperr.Invalidf("memory value %v", valueErr)
	case utf8.RuneCountInString(key) > MaxMemoryKeyLen:
		return "", apperr.Invalidf("memory key longer than %d characters", MaxMemoryKeyLen)
	case utf8.RuneCountInString(value) > MaxMemoryValueLen:
		return "", apperr.Invalidf("memory value longer than %d characters", MaxMemoryValueLen)
	case ttl < 0:
		return "", apperr.Invalidf("memory ttl must not be negative")
	}
	return value, nil
}

// Remove deletes key; removing a missing key is a no-op.
func (m *Memory) Remove(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, key)
}

// All returns the live entries sorted by key.
func (m *Memory) All() []MemoryEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pruneLocked(m.now())
	return m.sortedLocked()
}

// Prune drops expired entries and reports how many went.
func (m *Memory) Prune() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pruneLocked(m.now())
}

func (m *Memory) pruneLocked(now time.Time) int {
	n := 0
	for k, e := range m.entries {
		if e.expired(now) {
			delete(m.entries, k)
			n++
		}
	}
	return n
}

func (m *Memory) sortedLocked() []MemoryEntry {
	out := make([]MemoryEntry, 0, len(m.entries))
	for _, k := range slices.Sorted(maps.Keys(m.entries)) {
		out = append(out, m.entries[k])
	}
	return out
}

// Serialize renders the live entries as Markdown for a prompt: a
// "### Persistent" and an "### Expiring" section, each "(empty)" when it has
// no entries; expiring entries show the time left. Values are JSON-quoted so
// a value cannot break out of its line.
func (m *Memory) Serialize() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.pruneLocked(now)
	var pers, exp []string
	for _, e := range m.sortedLocked() {
		v, _ := json.Marshal(e.Value)
		line := fmt.Sprintf("- **%s**: %s", escapeMarkup(e.Key), v) // the value is JSON, escaped
		if e.ExpiresAt == nil {
			pers = append(pers, line)
			continue
		}
		exp = append(exp, fmt.Sprintf("%s (expires in %s)", line, humanDuration(e.ExpiresAt.Sub(now))))
	}
	section := func(title string, lines []string) string {
		if len(lines) == 0 {
			return title + "\n(empty)"
		}
		return title + "\n" + strings.Join(lines, "\n")
	}
	return section("### Persistent", pers) + "\n\n" + section("### Expiring", exp)
}

// humanDuration renders a positive duration coarsely: "2d 3h", "5h 10m", "7m", "<1m".
func humanDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "<1m"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	default:
		return fmt.Sprintf("%dd %dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	}
}

// fingerprint is a stable digest of the live entries (keys, values, expiry
// instants) for input-reuse hashing; unlike Serialize it does not change as
// time passes.
func (m *Memory) fingerprint() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pruneLocked(m.now())
	h := sha256.New()
	for _, e := range m.sortedLocked() {
		exp := ""
		if e.ExpiresAt != nil {
			exp = e.ExpiresAt.UTC().Format(time.RFC3339Nano)
		}
		b, _ := json.Marshal([]string{e.Key, e.Value, exp})
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hydrate replaces the contents with stored entries and remembers them as
// the baseline for the next save.
func (m *Memory) hydrate(entries []MemoryEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = make(map[string]MemoryEntry, len(entries))
	m.loaded = make(map[string]MemoryEntry, len(entries))
	for _, e := range entries {
		m.entries[e.Key] = e
		m.loaded[e.Key] = e
	}
}

// memoryChange is one key whose value differs from the loaded baseline.
type memoryChange struct {
	key string
	new *MemoryEntry // nil: removed
}

// changes lists what differs from the baseline at now. Entries that merely
// expired are not changes; the store deletes expired rows on its own.
func (m *Memory) changes(now time.Time) []memoryChange {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := map[string]struct{}{}
	for k := range m.entries {
		keys[k] = struct{}{}
	}
	for k := range m.loaded {
		keys[k] = struct{}{}
	}
	var out []memoryChange
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		cur, inCur := m.entries[k]
		old, inOld := m.loaded[k]
		if inCur && cur.expired(now) {
			inCur = false
		}
		if inOld && old.expired(now) {
			inOld = false
		}
		switch {
		case !inCur && !inOld:
		case inCur && inOld && cur.sameAs(old):
		case inCur:
			c := cur
			out = append(out, memoryChange{key: k, new: &c})
		default:
			out = append(out, memoryChange{key: k})
		}
	}
	return out
}
