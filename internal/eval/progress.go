package eval

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// Bar draws the suite's progress: one line redrawn in place on a
// terminal, otherwise a line at every tenth of the scenarios.
type Bar struct {
	w      io.Writer
	tty    bool
	mu     sync.Mutex
	failed int
	decile int
	drawn  bool
}

// NewBar draws on w (tty: a terminal).
func NewBar(w io.Writer, tty bool) *Bar { return &Bar{w: w, tty: tty} }

// Update is an Options.Progress.
func (b *Bar) Update(done, total int, r ScenarioResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !r.Passed {
		b.failed++
	}
	line := fmt.Sprintf("%d/%d scenarios, %d failing, last %s", done, total, b.failed, r.ID)
	if b.tty {
		const width = 30
		n := width * done / max(total, 1)
		fmt.Fprintf(b.w, "\r[%s%s] %s\x1b[K", strings.Repeat("#", n), strings.Repeat("-", width-n), line)
		b.drawn = true
		return
	}
	if d := 10 * done / max(total, 1); d > b.decile || done == total {
		b.decile = d
		fmt.Fprintln(b.w, line)
	}
}

// Finish ends the bar's line on a terminal.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}
