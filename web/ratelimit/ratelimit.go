// Package ratelimit holds back the requests of the open side (the kiosk,
// no login) that cost a model call: a chat turn, a transcription, a day
// prepared. Each call is charged to two token buckets, the client
// address's (IPv6 grouped by /64, the block one household device picks its
// addresses from) and the member's, and a member has one chat turn under
// way at a time. A model call costs money or a local machine's CPU; the
// limits keep one screen, or one script on the network, from spending it.
package ratelimit

import (
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Rule is a token bucket: Burst calls at once, then one more each Every.
type Rule struct {
	Burst int
	Every time.Duration
}

// PerMinute is how many calls a minute the rule allows once its burst is
// spent.
func (r Rule) PerMinute() float64 { return float64(time.Minute) / float64(r.Every) }

// Defaults: a member may ask a few questions in a row, then about one
// every 15 seconds; one screen (or script) a few more, across members.
var (
	DefaultClient = Rule{Burst: 6, Every: 10 * time.Second} // 6 at once, then 6 a minute
	DefaultMember = Rule{Burst: 4, Every: 15 * time.Second} // 4 at once, then 4 a minute
)

// DefaultHold is the longest a member's turn keeps its slot when its end
// is never reported (a run lost to a crash); a turn that ends frees it at
// once.
const DefaultHold = 10 * time.Minute

// defaultMaxKeys bounds the buckets kept (each is a few dozen bytes).
const defaultMaxKeys = 4096

// Options configure a Limiter; zero values take the defaults.
type Options struct {
	Client, Member Rule
	Hold           time.Duration
	Clock          clockwork.Clock
	// MaxKeys bounds the buckets kept: past it, full buckets (idle
	// clients and members) are dropped, and if none is, a new key is
	// refused until one refills.
	MaxKeys int
}

func (o Options) withDefaults() Options {
	if o.Client.Burst <= 0 || o.Client.Every <= 0 {
		o.Client = DefaultClient
	}
	if o.Member.Burst <= 0 || o.Member.Every <= 0 {
		o.Member = DefaultMember
	}
	if o.Hold <= 0 {
		o.Hold = DefaultHold
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.MaxKeys <= 0 {
		o.MaxKeys = defaultMaxKeys
	}
	return o
}

// Limiter is safe for concurrent use.
type Limiter struct {
	opt     Options
	mu      sync.Mutex
	buckets map[string]*bucket
	busy    map[string]*busySlot // member → its turn under way
	seq     uint64
}

type bucket struct {
	rule   Rule
	tokens float64
	at     time.Time
}

type busySlot struct {
	id    uint64
	until time.Time
	done  func() bool // the bound turn's end (nil: not bound yet)
}

// held reports whether the slot still holds its member at now.
func (b *busySlot) held(now time.Time) bool {
	return now.Before(b.until) && (b.done == nil || !b.done())
}

// New returns a limiter.
func New(opt Options) *Limiter {
	return &Limiter{opt: opt.withDefaults(), buckets: map[string]*bucket{}, busy: map[string]*busySlot{}}
}

// Options returns the limiter's options, defaults filled in.
func (l *Limiter) Options() Options { return l.opt }

// Denied says why a call was held back and when to try again.
type Denied struct {
	// Busy: the member's previous turn is still under way.
	Busy bool
	// Member: the member's bucket is empty (else the client's, unless Busy).
	Member     bool
	RetryAfter time.Duration
}

func (d *Denied) Error() string {
	switch {
	case d.Busy:
		return "ratelimit: the member's turn is under way"
	case d.Member:
		return fmt.Sprintf("ratelimit: member over the limit, retry after %v", d.RetryAfter)
	}
	return fmt.Sprintf("ratelimit: client over the limit, retry after %v", d.RetryAfter)
}

// Seconds is RetryAfter in whole seconds, rounded up (for Retry-After).
func (d *Denied) Seconds() int {
	return max(1, int((d.RetryAfter+time.Second-1)/time.Second))
}

// Take charges one model call to the client (a ClientKey) and the member:
// both buckets must hold a token, and neither is charged when one is
// empty. It returns a *Denied otherwise.
func (l *Limiter) Take(client, member string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.takeLocked(l.opt.Clock.Now(), client, member)
}

// TakeMember charges one model call to the member alone: a call the
// server makes on the member's behalf (a re-plan after what they said)
// that no client asked for. It returns a *Denied when the member's bucket
// is empty.
func (l *Limiter) TakeMember(member string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.opt.Clock.Now()
	mb, err := l.bucketLocked(now, "m "+member, l.opt.Member)
	if err != nil {
		return err
	}
	if wait := mb.wait(now); wait > 0 {
		return &Denied{Member: true, RetryAfter: wait}
	}
	mb.tokens--
	return nil
}

// Turn is Take for a chat turn: also the member's one turn slot. The
// slot is held until the turn is bound to it and reports done
// (Slot.Bind), it is released (Slot.Release: the turn did not start), or
// Options.Hold passes. A member whose turn is under way is refused
// (Denied.Busy) without charging anything.
func (l *Limiter) Turn(client, member string) (*Slot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.opt.Clock.Now()
	if b, ok := l.busy[member]; ok && b.held(now) {
		return nil, &Denied{Busy: true, Member: true, RetryAfter: busyRetry}
	}
	if err := l.takeLocked(now, client, member); err != nil {
		return nil, err
	}
	l.seq++
	sl := &Slot{l: l, member: member, id: l.seq}
	l.busy[member] = &busySlot{id: sl.id, until: now.Add(l.opt.Hold)}
	return sl, nil
}

// busyRetry is the Retry-After of a member whose turn is under way (a
// turn takes seconds).
const busyRetry = 5 * time.Second

// Slot is a member's turn slot (Limiter.Turn).
type Slot struct {
	l      *Limiter
	member string
	id     uint64
}

// Bind ties the slot to its turn: it is free once done reports true.
func (s *Slot) Bind(done func() bool) {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if b := s.l.busy[s.member]; b != nil && b.id == s.id {
		b.done = done
	}
}

// Release frees the slot (the turn did not start); a slot taken over by a
// later turn is left alone.
func (s *Slot) Release() {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if b := s.l.busy[s.member]; b != nil && b.id == s.id {
		delete(s.l.busy, s.member)
	}
}

func (l *Limiter) takeLocked(now time.Time, client, member string) error {
	cb, err := l.bucketLocked(now, "c "+client, l.opt.Client)
	if err != nil {
		return err
	}
	mb, err := l.bucketLocked(now, "m "+member, l.opt.Member)
	if err != nil {
		return err
	}
	if wait := mb.wait(now); wait > 0 {
		return &Denied{Member: true, RetryAfter: wait}
	}
	if wait := cb.wait(now); wait > 0 {
		return &Denied{RetryAfter: wait}
	}
	cb.tokens--
	mb.tokens--
	return nil
}

// bucketLocked returns key's bucket refilled to now, making a full one for
// a new key (within MaxKeys).
func (l *Limiter) bucketLocked(now time.Time, key string, r Rule) (*bucket, error) {
	if b, ok := l.buckets[key]; ok {
		b.refill(now)
		return b, nil
	}
	if len(l.buckets) >= l.opt.MaxKeys {
		for k, b := range l.buckets {
			if b.refill(now); b.tokens >= float64(b.rule.Burst) {
				delete(l.buckets, k)
			}
		}
		if len(l.buckets) >= l.opt.MaxKeys { // every bucket in use: no room for a stranger
			return nil, &Denied{RetryAfter: r.Every}
		}
	}
	b := &bucket{rule: r, tokens: float64(r.Burst), at: now}
	l.buckets[key] = b
	return b, nil
}

func (b *bucket) refill(now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(b.rule.Burst), b.tokens+float64(d)/float64(b.rule.Every))
	}
	b.at = now
}

// wait is how long until the bucket holds a whole token (0: it does).
func (b *bucket) wait(now time.Time) time.Duration {
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(b.rule.Every))
}

// ClientKey is the bucket key of a client address: an IPv4 address as it
// is, an IPv6 address by its /64 (a device takes new addresses from its
// network's /64 at will), anything else as given.
func ClientKey(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil {
		return addr
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
