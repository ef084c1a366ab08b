package screen

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Unlock policy on a shared screen: a member's PIN opens their private
// figures, chat and corrections on that one screen for UnlockFor; wrong
// PINs are limited per screen and per member, so guessing a 4-digit PIN
// from the wall (or from many tabs) takes years, not minutes.
const (
	UnlockFor = 5 * time.Minute
	// MaxTries wrong PINs on one screen for one member, then that screen
	// waits TriesWindow.
	MaxTries = 5
	// MaxMemberTries wrong PINs for one member across every screen within
	// TriesWindow, then nobody may try for that member until it passes.
	MaxMemberTries = 10
	TriesWindow    = 15 * time.Minute
)

// Unlocks keeps which screen has which member unlocked, server-side only
// (never in the page or a signal), in memory: a restart locks every
// screen, which is the safe side.
type Unlocks struct {
	mu      sync.Mutex
	clock   clockwork.Clock
	open    map[[2]string]time.Time // screen, member → until
	tries   map[[2]string][]time.Time
	members map[string][]time.Time
}

// NewUnlocks returns an empty set on clock (nil: the real one).
func NewUnlocks(clock clockwork.Clock) *Unlocks {
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	return &Unlocks{clock: clock, open: map[[2]string]time.Time{}, tries: map[[2]string][]time.Time{}, members: map[string][]time.Time{}}
}

// Unlocked reports whether screen has member unlocked now.
func (u *Unlocks) Unlocked(screen, member string) bool {
	if screen == "" {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	until, ok := u.open[[2]string{screen, member}]
	if ok && !u.clock.Now().Before(until) {
		delete(u.open, [2]string{screen, member})
		return false
	}
	return ok
}

// Until is when screen's unlock of member ends (zero: locked).
func (u *Unlocks) Until(screen, member string) time.Time {
	if !u.Unlocked(screen, member) {
		return time.Time{}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.open[[2]string{screen, member}]
}

// Allowed reports whether screen may try a PIN for member now, and if
// not, how long until it may.
func (u *Unlocks) Allowed(screen, member string) (bool, time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	now := u.clock.Now()
	key := [2]string{screen, member}
	u.tries[key] = recent(u.tries[key], now)
	u.members[member] = recent(u.members[member], now)
	wait := time.Duration(0)
	if t := u.tries[key]; len(t) >= MaxTries {
		wait = max(wait, t[len(t)-MaxTries].Add(TriesWindow).Sub(now))
	}
	if t := u.members[member]; len(t) >= MaxMemberTries {
		wait = max(wait, t[len(t)-MaxMemberTries].Add(TriesWindow).Sub(now))
	}
	return wait <= 0, wait
}

// Failed counts a wrong PIN; Allowed says when the next may be tried.
func (u *Unlocks) Failed(screen, member string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	now := u.clock.Now()
	key := [2]string{screen, member}
	u.tries[key] = append(recent(u.tries[key], now), now)
	u.members[member] = append(recent(u.members[member], now), now)
}

// Unlock opens member on screen for UnlockFor (a right PIN clears that
// screen's wrong tries).
func (u *Unlocks) Unlock(screen, member string) time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	until := u.clock.Now().Add(UnlockFor)
	u.open[[2]string{screen, member}] = until
	delete(u.tries, [2]string{screen, member})
	return until
}

// Lock closes member on screen now.
func (u *Unlocks) Lock(screen, member string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.open, [2]string{screen, member})
}

// LockScreen closes every member on screen (the screen went back to the
// household view).
func (u *Unlocks) LockScreen(screen string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for k := range u.open {
		if k[0] == screen {
			delete(u.open, k)
		}
	}
}

func recent(ts []time.Time, now time.Time) []time.Time {
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= TriesWindow {
		i++
	}
	return ts[i:]
}
