package ratelimit

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

func denied(t *testing.T, err error) *Denied {
	t.Helper()
	var d *Denied
	if !errors.As(err, &d) {
		t.Fatalf("want a refusal, got %v", err)
	}
	return d
}

// A member's bucket: its burst, then one call each Every; a refusal says
// when to come back, and charges nothing (the client's bucket keeps its
// token for another member).
func TestBucketsRefillOnTheClock(t *testing.T) {
	clock := clockwork.NewFakeClock()
	l := New(Options{Client: Rule{Burst: 3, Every: 20 * time.Second}, Member: Rule{Burst: 2, Every: 30 * time.Second}, Clock: clock})
	for i := range 2 {
		if err := l.Take("10.0.0.5", "theo"); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	d := denied(t, l.Take("10.0.0.5", "theo"))
	if !d.Member || d.Busy || d.RetryAfter != 30*time.Second || d.Seconds() != 30 {
		t.Fatalf("third call for theo: %+v", d)
	}
	if err := l.Take("10.0.0.5", "maya"); err != nil { // the refusal took nothing from the client
		t.Fatalf("maya from the same screen: %v", err)
	}
	d = denied(t, l.Take("10.0.0.5", "maya"))
	if d.Member || d.RetryAfter != 20*time.Second {
		t.Fatalf("fourth call from the screen: %+v", d)
	}
	if d := denied(t, l.Take("10.0.0.9", "theo")); !d.Member { // another screen, same member
		t.Fatalf("theo from another screen: %+v", d)
	}
	clock.Advance(20 * time.Second)
	if err := l.Take("10.0.0.5", "maya"); err != nil {
		t.Fatalf("after 20 s: %v", err)
	}
	clock.Advance(10 * time.Second)
	if err := l.Take("10.0.0.9", "theo"); err != nil {
		t.Fatalf("theo after 30 s: %v", err)
	}
	clock.Advance(time.Hour) // a bucket fills to its burst, no further
	for i := range 3 {
		if err := l.Take("10.0.0.7", "maya"); i < 2 && err != nil || i == 2 && err == nil {
			t.Fatalf("call %d after an hour: %v", i+1, err)
		}
	}
}

// A call the server makes for a member (a re-plan after what they said)
// shares the member's bucket with the calls their screens make, and
// leaves every client's bucket alone.
func TestTakeMemberSharesTheMembersBucket(t *testing.T) {
	clock := clockwork.NewFakeClock()
	l := New(Options{Client: Rule{Burst: 1, Every: time.Minute}, Member: Rule{Burst: 2, Every: 30 * time.Second}, Clock: clock})
	if err := l.TakeMember("theo"); err != nil {
		t.Fatal(err)
	}
	if err := l.Take("10.0.0.5", "theo"); err != nil { // the screen's one token is still there
		t.Fatal(err)
	}
	if d := denied(t, l.TakeMember("theo")); !d.Member || d.RetryAfter != 30*time.Second {
		t.Fatalf("third call for theo: %+v", d)
	}
	if err := l.TakeMember("maya"); err != nil {
		t.Fatalf("maya has her own bucket: %v", err)
	}
	clock.Advance(30 * time.Second)
	if err := l.TakeMember("theo"); err != nil {
		t.Fatalf("after 30 s: %v", err)
	}
}

// IPv6 clients are grouped by their /64: a device hopping addresses in
// its network stays one client.
func TestIPv6ClientsShareTheirSlash64(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
	} {
		if ClientKey(tc.a) != ClientKey(tc.b) {
			t.Errorf("%s and %s: %q, %q", tc.a, tc.b, ClientKey(tc.a), ClientKey(tc.b))
		}
	}
	if ClientKey("2001:db8:1:2::1") == ClientKey("2001:db8:1:3::1") || ClientKey("192.0.2.7") == ClientKey("192.0.2.8") {
		t.Error("different networks share a key")
	}
	l := New(Options{Client: Rule{Burst: 1, Every: time.Minute}, Clock: clockwork.NewFakeClock()})
	if err := l.Take(ClientKey("2001:db8:1:2::1"), "theo"); err != nil {
		t.Fatal(err)
	}
	if d := denied(t, l.Take(ClientKey("2001:db8:1:2::abcd"), "maya")); d.Member {
		t.Fatalf("the /64's second address: %+v", d)
	}
}

// One turn at a time per member: 20 parallel turns get one slot; the
// others are refused as busy and charged nothing. The slot is free once
// its turn reports done, or once released (the turn did not start); a
// turn that never reports its end frees it after Hold.
func TestOneTurnPerMember(t *testing.T) {
	clock := clockwork.NewFakeClock()
	l := New(Options{Member: Rule{Burst: 100, Every: time.Second}, Client: Rule{Burst: 100, Every: time.Second},
		Hold: time.Minute, Clock: clock})
	slots := make(chan *Slot, 20)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			<-start
			sl, err := l.Turn("10.0.0.5", "theo")
			if err == nil {
				slots <- sl
			} else if d := denied(t, err); !d.Busy {
				t.Errorf("refusal: %+v", d)
			}
		})
	}
	close(start)
	wg.Wait()
	close(slots)
	var got []*Slot
	for sl := range slots {
		got = append(got, sl)
	}
	if len(got) != 1 {
		t.Fatalf("%d turns under way at once, want 1", len(got))
	}
	if _, err := l.Turn("10.0.0.5", "maya"); err != nil {
		t.Fatalf("another member: %v", err)
	}
	var done atomic.Bool
	got[0].Bind(done.Load)
	if d := denied(t, func() error { _, err := l.Turn("10.0.0.5", "theo"); return err }()); !d.Busy {
		t.Fatalf("while the turn runs: %+v", d)
	}
	done.Store(true)
	second, err := l.Turn("10.0.0.5", "theo")
	if err != nil {
		t.Fatalf("after the turn ended: %v", err)
	}
	got[0].Release() // the first turn's late release leaves the second's slot
	if d := denied(t, func() error { _, err := l.Turn("10.0.0.5", "theo"); return err }()); !d.Busy {
		t.Fatalf("the second turn's slot: %+v", d)
	}
	second.Release()
	third, err := l.Turn("10.0.0.5", "theo")
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	third.Bind(func() bool { return false }) // never ends
	clock.Advance(time.Minute)
	if _, err := l.Turn("10.0.0.5", "theo"); err != nil {
		t.Fatalf("after Hold: %v", err)
	}
}

// The buckets kept are bounded: idle (full) ones make room; when all are
// in use a stranger waits.
func TestBucketsAreBounded(t *testing.T) {
	clock := clockwork.NewFakeClock()
	l := New(Options{Client: Rule{Burst: 1, Every: time.Minute}, Member: Rule{Burst: 1, Every: time.Minute}, MaxKeys: 4, Clock: clock})
	if err := l.Take("a", "m1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Take("b", "m2"); err != nil {
		t.Fatal(err)
	}
	if d := denied(t, l.Take("c", "m3")); d.RetryAfter != time.Minute {
		t.Fatalf("a fifth key with four in use: %+v", d)
	}
	clock.Advance(time.Minute)
	if err := l.Take("c", "m3"); err != nil {
		t.Fatalf("once the others refilled: %v", err)
	}
	if n := len(l.buckets); n > 4 {
		t.Fatalf("%d buckets kept", n)
	}
}
