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
