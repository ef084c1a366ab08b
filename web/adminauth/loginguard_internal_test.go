package adminauth

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

func newFakeClock() *clockwork.FakeClock {
	return clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
}

// fail makes a wrong-password attempt and returns the penalty it earned, or
// fails the test when the attempt was refused.
func fail(t *testing.T, g *loginGuard, ip string) time.Duration {
	t.Helper()
	a, wait, _ := g.begin(ip, "")
	if a == nil {
		t.Fatalf("attempt from %s refused (wait %v)", ip, wait)
	}
	return a.penalty()
}

func TestLoginGuardBackoff(t *testing.T) {
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	for i := 1; i < loginFreeFailures; i++ {
		if w := fail(t, g, "192.0.2.1"); w != 0 {
			t.Fatalf("failure %d: penalty %v", i, w)
		}
	}
	if w := fail(t, g, "192.0.2.1"); w != 30*time.Second {
		t.Fatalf("5th failure: %v, want 30s", w)
	}
	if a, w, scope := g.begin("192.0.2.1", ""); a != nil || w != 30*time.Second || scope != BlockClient {
		t.Fatalf("blocked: %v %v %v", a, w, scope)
	}
	if a, w, _ := g.begin("192.0.2.2", ""); a == nil {
		t.Fatalf("another client is blocked: %v", w)
	}
	// The penalty doubles with each further failure, up to 15 minutes.
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute}
	for _, wnt := range want {
		clk.Advance(time.Hour)
		if w := fail(t, g, "192.0.2.1"); w != wnt {
			t.Fatalf("penalty %v, want %v", w, wnt)
		}
	}
	clk.Advance(time.Hour)
	a, _, _ := g.begin("192.0.2.1", "")
	a.succeeded()
	if a, w, _ := g.begin("192.0.2.1", ""); a == nil {
		t.Fatalf("after a success: %v", w)
	}
}

// Parallel guesses from one address: each is counted before its password
// is checked, so only the free ones reach bcrypt (the audit saw 100 parallel
// wrong passwords all checked before the first 429).
func TestLoginGuardCountsBeforeChecking(t *testing.T) {
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	const parallel = 100
	var wg sync.WaitGroup
	var mu sync.Mutex
	checked := 0
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, _, _ := g.begin("192.0.2.7", ""); a != nil {
				mu.Lock()
				checked++
				mu.Unlock()
				_ = a.penalty() // wrong password
			}
		}()
	}
	wg.Wait()
	if checked != loginFreeFailures {
		t.Fatalf("%d of %d parallel attempts reached the password check, want %d", checked, parallel, loginFreeFailures)
	}
}

// An IPv6 client's whole /64 is one budget: a host picks new addresses in
// its prefix at will.
func TestLoginGuardGroupsIPv6By64(t *testing.T) {
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	for i := range loginFreeFailures {
		fail(t, g, fmt.Sprintf("2001:db8:1:2::%x", i+1))
	}
	if a, _, scope := g.begin("2001:db8:1:2:ffff::9", ""); a != nil || scope != BlockClient {
		t.Fatal("another address in the same /64 has fresh tries")
	}
	if a, _, _ := g.begin("2001:db8:1:3::1", ""); a == nil {
		t.Fatal("the next /64 is blocked too")
	}
	for range loginFreeFailures {
		fail(t, g, "192.0.2.99")
	}
	if a, _, _ := g.begin("::ffff:192.0.2.99", ""); a != nil {
		t.Fatal("the IPv4-mapped form of a blocked address has fresh tries")
	}
}

// attack runs an attacker with n addresses, each guessing as soon as it is
// let, for d, and returns how many guesses reached the password check.
func attack(g *loginGuard, clk *clockwork.FakeClock, n int, d time.Duration) int {
	end := clk.Now().Add(d)
	guesses := 0
	for clk.Now().Before(end) {
		next := loginMaxWait
		for i := range n {
			ip := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
			a, wait, _ := g.begin(ip, "")
			if a == nil {
				next = min(next, wait)
				continue
			}
			guesses++
			next = 0
		}
		clk.Advance(max(next, time.Second))
	}
	return guesses
}

// GuessesPerDay is the account budget the README quotes: with any number
// of addresses an attacker gets at most accountFreeFailures plus one guess
// per loginMaxWait after the ramp, about 120 a day.
func TestLoginGuardRotationDoesNotMultiplyGuesses(t *testing.T) {
	perDay := accountFreeFailures + 5 + int(accountWindow/loginMaxWait) // free, the ramp (30 s … 8 min), then one per 15 min
	for _, n := range []int{1, 12, 1000} {
		clk := newFakeClock()
		g := newLoginGuard(clk.Now)
		got := attack(g, clk, n, 24*time.Hour)
		t.Logf("%4d addresses: %d guesses in 24 hours (budget %d)", n, got, perDay)
		if got > perDay {
			t.Errorf("%d addresses got %d guesses a day, more than the account budget of %d", n, got, perDay)
		}
	}
	// The acceptance case: 12 addresses, five tries each, is 60 tries on
	// the old per-address rule; the account budget stops it at 20.
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	tries := 0
	for i := range 12 {
		for range loginFreeFailures {
			if a, _, _ := g.begin(fmt.Sprintf("127.0.0.%d", i+2), ""); a != nil {
				tries++
			}
		}
	}
	if tries != accountFreeFailures {
		t.Fatalf("12 addresses × 5 tries: %d reached the password check, want the account's %d", tries, accountFreeFailures)
	}
}

// While an attack from other addresses holds the account, a browser that
// logged in before still gets in; it has its own budget, which the
// attacker cannot spend, and after deviceFreeFailures it is trusted no more.
func TestLoginGuardTrustedBrowserDuringAttack(t *testing.T) {
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	attack(g, clk, 12, time.Hour)
	fail(t, g, "10.200.0.1") // the attacker's next guess, the moment it is let
	if a, _, scope := g.begin("192.0.2.50", ""); a != nil || scope != BlockAccount {
		t.Fatalf("a fresh address during the attack: attempt %v scope %v, want the account's refusal", a, scope)
	}
	a, wait, _ := g.begin("192.0.2.50", "mark")
	if a == nil {
		t.Fatalf("the trusted browser is refused during the attack (wait %v)", wait)
	}
	a.succeeded()
	// A stolen-looking mark that keeps failing stops being trusted.
	for range deviceFreeFailures {
		if a, _, _ := g.begin("192.0.2.51", "other"); a == nil {
			t.Fatal("a trusted browser's free tries were refused")
		}
	}
	if a, _, scope := g.begin("192.0.2.51", "other"); a != nil || scope != BlockAccount {
		t.Fatalf("a mark past its free failures still bypasses the account budget: %v %v", a, scope)
	}
}

// A success gives its attempt back: logging in does not spend the budget.
func TestLoginGuardSuccessIsNotCounted(t *testing.T) {
	clk := newFakeClock()
	g := newLoginGuard(clk.Now)
	for range 3 * accountFreeFailures {
		a, _, _ := g.begin("192.0.2.9", "")
		if a == nil {
			t.Fatal("a login after successes was refused")
		}
		a.succeeded()
	}
	if len(g.recent) != 0 {
		t.Fatalf("successes left %d account failures", len(g.recent))
	}
}
