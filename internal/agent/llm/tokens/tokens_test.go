package tokens

import (
	"strings"
	"testing"
)

// "hello world" is two tokens ("hello", " world") in o200k_base, as in
// every OpenAI encoding.
func TestCount(t *testing.T) {
	if got := Count(""); got != 0 {
		t.Errorf("Count(\"\") = %d, want 0", got)
	}
	if got := Count("hello world"); got != 2 {
		t.Errorf("Count(hello world) = %d, want 2", got)
	}
	// A real tokenizer, not a byte estimate: the same word repeated is
	// about one token a word, not bytes over four.
	if got := Count(strings.Repeat(" weight", 100)); got != 100 {
		t.Errorf("Count(100 × \" weight\") = %d, want 100", got)
	}
	// "<|endoftext|>" in stored data is text, not one special token.
	if got := Count("<|endoftext|>"); got <= 1 {
		t.Errorf("special-token text counted as %d token(s), want ordinary text", got)
	}
}

// BenchmarkCount counts a daily-dashboard-sized prompt (~14 KB of prose
// and JSON); the first call's load of the BPE ranks is outside the timer.
func BenchmarkCount(b *testing.B) {
	s := strings.Repeat(`Weight: 69.2 kg, down 0.4 kg this week; {"type":"object","properties":{"days":{"type":["integer","null"]}}} `, 128)
	Count("warm up")
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(s)
	}
}

// Long text is counted in chunks cut at a space, or at a rune boundary in
// a run without one (BPE is quadratic in a run's length): text with spaces
// counts as it would whole, and a long run of "é" (two bytes each) is cut
// between runes, never inside one.
func TestCountInChunks(t *testing.T) {
	if got := Count(strings.Repeat(" weight", 2000)); got != 2000 {
		t.Errorf("Count(2000 × \" weight\") = %d, want 2000 (cut at spaces)", got)
	}
	run := strings.Repeat("é", 5000)
	if i := cut(run); i > chunk || i%2 != 0 {
		t.Errorf("cut a run of é at byte %d: not a rune boundary within %d", i, chunk)
	}
	if got, whole := Count(run[:chunk]), Count(run); whole*chunk < got*len(run)*99/100 {
		t.Errorf("%d bytes of é count %d tokens, %d count %d: chunks lost", len(run), whole, chunk, got)
	}
}
