package adminauth

import (
	"slices"
	"sync"
	"time"

	"hearth/web/ratelimit"
)

// Login throttling. A household password is short, so guessing must be
// slow, and an attacker on the LAN may have many addresses (IPv4 aliases, a
// whole IPv6 /64). Three budgets, each a backoff that doubles from
// loginFirstWait up to loginMaxWait once its free failures are spent:
//
//   - per client address (IPv6 grouped by /64): loginFreeFailures;
//   - per account, every untrusted address together: accountFreeFailures in
//     accountWindow, so rotating addresses does not multiply the guesses;
//   - per trusted browser (one that logged in before and carries the device
//     mark): deviceFreeFailures, after which it counts as untrusted.
//
// The account budget would let any LAN client keep the admin out, so it
// does not apply to a trusted browser, and `hearth admin login-link` on the
// box gives a one-time way in that no network client can block.
//
// An attempt is counted when it starts, before bcrypt runs, and given back
// when the password was right: parallel guesses cannot all be checked
// before the first is counted.
const (
	loginFreeFailures   = 5
	accountFreeFailures = 20
	accountWindow       = 24 * time.Hour
	deviceFreeFailures  = 5
	loginFirstWait      = 30 * time.Second
	loginMaxWait        = 15 * time.Minute
	loginForgetAfter    = 24 * time.Hour
)

// BlockScope says which budget refused a login.
type BlockScope int

const (
	// BlockClient: this address (or /64) failed too often.
	BlockClient BlockScope = iota + 1
	// BlockAccount: too many failures from every untrusted address together.
	BlockAccount
)

type loginGuard struct {
	mu      sync.Mutex
	now     func() time.Time
	clients map[string]*backoff
	devices map[string]*backoff // by device mark
	account backoff
	recent  []time.Time // the account's failures within accountWindow, oldest first
}

// backoff is one budget's state: failures counted, the current penalty and
// when the next attempt may start.
type backoff struct {
	failures int
	wait     time.Duration
	until    time.Time
	last     time.Time
}

// fail counts a failure at now and, past free failures, starts (or
// doubles) the penalty.
func (b *backoff) fail(now time.Time, over bool) {
	b.failures++
	b.last = now
	if !over {
		return
	}
	b.wait = min(max(2*b.wait, loginFirstWait), loginMaxWait)
	b.until = now.Add(b.wait)
}

func newLoginGuard(now func() time.Time) *loginGuard {
	return &loginGuard{now: now, clients: map[string]*backoff{}, devices: map[string]*backoff{}}
}

// loginAttempt is a counted try; the caller reports how it ended.
type loginAttempt struct {
	g       *loginGuard
	client  string
	device  string // the trusted browser's mark, "" when untrusted
	at      time.Time
	account backoff // the account's state before this attempt, given back on success
}

// begin counts an attempt from ip (device: the mark of a trusted browser,
// or ""). It returns the attempt, or how long to wait and which budget is
// spent.
func (g *loginGuard) begin(ip, device string) (*loginAttempt, time.Duration, BlockScope) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.forgetOld(now)
	if device != "" {
		d := g.devices[device]
		if d == nil {
			d = &backoff{}
			g.devices[device] = d
		}
		if d.failures < deviceFreeFailures {
			// A trusted browser draws on its own budget only: the attacker's
			// addresses cannot use it up.
			d.fail(now, false)
			return &loginAttempt{g: g, device: device, at: now}, 0, 0
		}
		// Too many failures: the mark no longer vouches for the browser.
	}
	key := ratelimit.ClientKey(ip) // IPv6 by /64, as every per-client budget
	c := g.clients[key]
	if c != nil && now.Before(c.until) {
		return nil, c.until.Sub(now), BlockClient
	}
	g.trim(now)
	if now.Before(g.account.until) {
		return nil, g.account.until.Sub(now), BlockAccount
	}
	if c == nil {
		c = &backoff{}
		g.clients[key] = c
	}
	a := &loginAttempt{g: g, client: key, at: now, account: g.account}
	c.fail(now, c.failures+1 >= loginFreeFailures)
	g.recent = append(g.recent, now)
	over := len(g.recent) >= accountFreeFailures
	if !over {
		g.account.wait = 0 // the window has forgotten the last attack
	}
	g.account.fail(now, over)
	return a, 0, 0
}

// succeeded gives the attempt back: the password was right. The address
// (or trusted browser) starts afresh; the account keeps other addresses'
// failures.
func (a *loginAttempt) succeeded() {
	g := a.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if a.device != "" {
		delete(g.devices, a.device)
		return
	}
	delete(g.clients, a.client)
	if i := slices.Index(g.recent, a.at); i >= 0 {
		g.recent = slices.Delete(g.recent, i, i+1)
	}
	if g.account.last.Equal(a.at) { // no failure came after this one
		g.account = a.account
	}
}

// penalty is how long the client that made a failed attempt must now wait
// (0 while it is within its free failures).
func (a *loginAttempt) penalty() time.Duration {
	g := a.g
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	var until time.Time
	if a.device != "" {
		if d := g.devices[a.device]; d != nil && d.failures >= deviceFreeFailures {
			until = g.account.until // untrusted from now on
		}
	} else {
		if c := g.clients[a.client]; c != nil {
			until = c.until
		}
		if g.account.until.After(until) {
			until = g.account.until
		}
	}
	if until.After(now) {
		return until.Sub(now)
	}
	return 0
}

func (g *loginGuard) trim(now time.Time) {
	i := 0
	for i < len(g.recent) && now.Sub(g.recent[i]) >= accountWindow {
		i++
	}
	g.recent = g.recent[i:]
}

// forgetOld drops addresses and browsers quiet for loginForgetAfter past
// their penalty, so the maps stay small.
func (g *loginGuard) forgetOld(now time.Time) {
	for _, m := range []map[string]*backoff{g.clients, g.devices} {
		if len(m) < 1024 {
			continue
		}
		for k, b := range m {
			if now.Sub(b.last) > loginForgetAfter && now.After(b.until) {
				delete(m, k)
			}
		}
	}
}
