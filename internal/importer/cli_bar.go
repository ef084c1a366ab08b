package importer

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// bar draws import progress on a terminal (one line redrawn in place) or,
// for logs and pipes, prints a line every few seconds.
type bar struct {
	w        io.Writer
	tty      bool
	name     string
	now      func() time.Time
	last     time.Time
	lastLine Progress
	drawn    bool
}

// barLineEvery is how often a non-terminal gets a progress line.
const barLineEvery = 5 * time.Second

func newBar(w io.Writer, tty bool, name string) *bar {
	return &bar{w: w, tty: tty, name: name, now: time.Now}
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
	if now := b.now(); now.Sub(b.last) >= barLineEvery {
		b.last = now
		fmt.Fprintln(b.w, b.render(p, 0))
	}
}

// finish ends the bar's line on a terminal.
func (b *bar) finish() {
	if b.tty && b.drawn {
		fmt.Fprintf(b.w, "\r%s\x1b[K\n", b.render(b.lastLine, 30))
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
