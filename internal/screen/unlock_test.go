package screen

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// An unlock is per screen and member, ends after UnlockFor or when the
// screen goes home; wrong PINs are limited per screen and per member.
func TestUnlocksExpireAndLimitTries(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))
	u := NewUnlocks(clock)
	if u.Unlocked("s1", "ada") || u.Unlocked("", "ada") {
		t.Fatal("unlocked before any PIN")
	}
	u.Unlock("s1", "ada")
	if !u.Unlocked("s1", "ada") || u.Unlocked("s2", "ada") || u.Unlocked("s1", "bo") {
		t.Fatal("an unlock reaches past its screen and member")
	}
	clock.Advance(UnlockFor - time.Second)
	if !u.Unlocked("s1", "ada") {
		t.Fatal("locked before its time")
	}
	clock.Advance(time.Second)
	if u.Unlocked("s1", "ada") {
		t.Fatal("still unlocked after UnlockFor")
	}
	u.Unlock("s1", "ada")
	u.Unlock("s1", "bo")
	u.Unlock("s2", "ada")
	u.LockScreen("s1")
	if u.Unlocked("s1", "ada") || u.Unlocked("s1", "bo") || !u.Unlocked("s2", "ada") {
		t.Fatal("going home locks that screen only")
	}

	for i := 0; i < MaxTries; i++ {
		if ok, _ := u.Allowed("s1", "bo"); !ok {
			t.Fatalf("try %d refused", i+1)
		}
		u.Failed("s1", "bo")
	}
	ok, wait := u.Allowed("s1", "bo")
	if ok || wait != TriesWindow {
		t.Fatalf("after %d wrong PINs: allowed %v, wait %v", MaxTries, ok, wait)
	}
	if ok, _ := u.Allowed("s2", "bo"); !ok {
		t.Fatal("another screen is held back by this one's tries")
	}
	// Across screens, the member's own limit.
	for i := 0; i < MaxMemberTries-MaxTries; i++ {
		u.Failed("s"+string(rune('a'+i)), "bo")
	}
	if ok, _ := u.Allowed("s9", "bo"); ok {
		t.Fatal("the member's limit across screens does not hold")
	}
	clock.Advance(TriesWindow)
	if ok, _ := u.Allowed("s1", "bo"); !ok {
		t.Fatal("still held back after the window")
	}
}
