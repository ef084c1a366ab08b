package app

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"hearth/internal/testkit"
)

// lockedBuf is a writer the test can read while the logger writes.
type lockedBuf struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuf) String() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String(), l.writes
}

// TestBufferedLoggerBatchesAndNeverLoses: info lines from many goroutines
// reach the output batched into few writes, every one of them, each whole;
// an error line is out before the call returns; flush at exit writes the
// rest.
func TestBufferedLoggerBatchesAndNeverLoses(t *testing.T) {
	out := &lockedBuf{}
	log, flush := NewBufferedLogger(out, "info")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				log.Info("http", "g", g, "i", i, "uri", "/m/maya")
			}
		}()
	}
	wg.Wait()
	log.Error("disk full", "path", "/data/hearth.db")
	s, writes := out.String()
	if !strings.Contains(s, "disk full") {
		t.Fatal("an error line was not written before Error returned")
	}
	if writes > 400 {
		t.Errorf("%d writes for 4,001 lines: not batched", writes)
	}
	log.Info("last line")
	flush()
	s, _ = out.String()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 4002 {
		t.Fatalf("%d lines written, want 4,002", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "time=") {
			t.Fatalf("torn line: %q", l)
		}
		if i := strings.Index(l, " g="); i > 0 {
			seen[l[i:]] = true
		}
	}
	for g := range 8 {
		for i := range 500 {
			if !seen[fmt.Sprintf(" g=%d i=%d uri=/m/maya", g, i)] {
				t.Fatalf("line g=%d i=%d lost", g, i)
			}
		}
	}
	if !strings.Contains(lines[len(lines)-1], "last line") {
		t.Fatal("flush did not write the last line")
	}
}

// TestBufferedLoggerFlushesOnItsOwn: an info line reaches the output within
// the flush interval without anyone calling flush.
func TestBufferedLoggerFlushesOnItsOwn(t *testing.T) {
	out := &lockedBuf{}
	log, flush := NewBufferedLogger(out, "info")
	defer flush()
	log.Info("page served")
	testkit.WaitFor(t, testkit.Patience, "the info line to be written", func() bool {
		s, _ := out.String()
		return strings.Contains(s, "page served")
	})
}
