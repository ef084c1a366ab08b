package adminauth

import (
	"sync"
	"time"
)

// Login throttling: a household password is short, so guessing must be
// slow. After loginFreeFailures failures a client waits loginFirstWait,
// doubling with each further failure up to loginMaxWait. Across all clients,
// more than loginGlobalPerMinute failures in a minute slow every login
// (guessing from many addresses) until the minute has passed. The bearer
// token never goes through the login, so scripts are not locked out.
const (
	loginFreeFailures    = 5
	loginFirstWait       = 30 * time.Second
	loginMaxWait         = 15 * time.Minute
	loginGlobalPerMinute = 60
	loginForgetAfter     = time.Hour
)

type loginGuard struct {
	mu      sync.Mutex
	now     func() time.Time
	clients map[string]*loginClient
	recent  []time.Time // failures of the last minute, every client
}

type loginClient struct {
	failures int
	wait     time.Duration // the current penalty
	until    time.Time     // no attempt before this
	last     time.Time
}

func newLoginGuard(now func() time.Time) *loginGuard {
	return &loginGuard{now: now, clients: map[string]*loginClient{}}
}

// blocked returns how long client must wait before trying again (0: may
// try now) and whether the global ceiling is what blocks it.
func (g *loginGuard) blocked(client string) (time.Duration, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if c := g.clients[client]; c != nil && now.Before(c.until) {
		return c.until.Sub(now), false
	}
	g.trim(now)
	if len(g.recent) >= loginGlobalPerMinute {
		return g.recent[0].Add(time.Minute).Sub(now), true
	}
	return 0, false
}

// failed records a wrong password and returns the new penalty (0 while the
// client is within its free failures).
func (g *loginGuard) failed(client string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.trim(now)
	g.recent = append(g.recent, now)
	c := g.clients[client]
	if c == nil {
		g.forgetOld(now)
		c = &loginClient{}
		g.clients[client] = c
	}
	c.failures++
	c.last = now
	if c.failures < loginFreeFailures {
		return 0
	}
	switch {
	case c.wait == 0:
		c.wait = loginFirstWait
	default:
		c.wait = min(2*c.wait, loginMaxWait)
	}
	c.until = now.Add(c.wait)
	return c.wait
}

// succeeded forgets the client's failures.
func (g *loginGuard) succeeded(client string) {
	g.mu.Lock()
	delete(g.clients, client)
	g.mu.Unlock()
}

func (g *loginGuard) trim(now time.Time) {
	i := 0
	for i < len(g.recent) && now.Sub(g.recent[i]) >= time.Minute {
		i++
	}
	g.recent = g.recent[i:]
}

// forgetOld drops clients quiet for loginForgetAfter past their penalty,
// so the map stays small.
func (g *loginGuard) forgetOld(now time.Time) {
	if len(g.clients) < 1024 {
		return
	}
	for k, c := range g.clients {
		if now.Sub(c.last) > loginForgetAfter && now.After(c.until) {
			delete(g.clients, k)
		}
	}
}
