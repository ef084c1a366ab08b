package importer

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// bar draws import progress on a terminal (one line redrawn in place) or,
// for logs and pipes, prints a line at every tenth of the file (or every few
// seconds when the size is unknown or progress is slow) and a final line
// with the totals.
type bar struct {
	w        io.Writer
	tty      bool
	name     string
	now      func() time.Time
	last     time.Time
	decile   int // last tenth printed
	lastLine Progress
	drawn    bool
}

// barLineEvery is how often a non-terminal gets a progress line.
const barLineEvery = 5 * time.Second

func newBar(w io.Writer, tty bool, name string) *bar {
	return &bar{w: w, tty: tty, name: name, now: time.Now, decile: 0}
}

func (b *bar) update(p Progress) {
	b.lastLine = p
	if p.Done {
		return
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\x1b[K", b.render(p, 30))
		b.drawn = true
		return
	}
	now := b.now()
	decile := int(p.Percent() / 10) // -1 when the size is unknown
	if decile >= 10 {
		return // the final line says it
	}
	if decile > b.decile || now.Sub(b.last) >= barLineEvery {
		b.last, b.decile = now, max(b.decile, decile)
		fmt.Fprintln(b.w, b.render(p, 0))
	}
}

// finish ends the bar's line on a terminal, and prints the final line with
// the totals for a log.
func (b *bar) finish() {
	switch {
	case b.tty && b.drawn:
		fmt.Fprintf(b.w, "\r%s\x1b[K\n", b.render(b.lastLine, 30))
	case !b.tty && b.lastLine.Done:
		fmt.Fprintln(b.w, b.render(b.lastLine, 0)+", done reading")
	}
}

// render formats p; width 0 leaves the bar out.
func (b *bar) render(p Progress, width int) string {
	var s strings.Builder
	s.WriteString(b.name + " ")
	pct := p.Percent()
	if width > 0 && pct >= 0 {
		full := int(pct / 100 * float64(width))
		s.WriteString("[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "] ")
	}
	if pct >= 0 {
		fmt.Fprintf(&s, "%3.0f%% %s/%s", pct, FormatBytes(p.BytesRead), FormatBytes(p.BytesTotal))
	} else {
		s.WriteString(FormatBytes(p.BytesRead))
	}
	fmt.Fprintf(&s, ", %d records", p.Records)
	return s.String()
}
