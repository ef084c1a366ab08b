package importer

import (
	"io"
	"time"
)

// progressEvery is the shortest interval between two Progress calls.
const progressEvery = 100 * time.Millisecond

// progress counts the bytes a parser reads and the records it sees, and
// calls the caller's func at most every progressEvery. It is used by one
// goroutine.
type progress struct {
	r       io.Reader
	fn      func(Progress)
	now     func() time.Time
	p       Progress
	last    time.Time
	pending int
}

func newProgress(r io.Reader, file string, total int64, fn func(Progress)) *progress {
	return &progress{r: r, fn: fn, now: time.Now, p: Progress{File: file, BytesTotal: total}}
}

// Read counts bytes read through the progress.
func (p *progress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.p.BytesRead += int64(n)
	return n, err
}

// record counts one record and reports when enough time has passed; the
// clock is read once every 256 records to keep the hot path cheap.
func (p *progress) record() {
	p.p.Records++
	if p.fn == nil {
		return
	}
	if p.pending++; p.pending < 256 {
		return
	}
	p.pending = 0
	if now := p.now(); now.Sub(p.last) >= progressEvery {
		p.last = now
		p.fn(p.p)
	}
}

// done reports the final state.
func (p *progress) done() {
	if p.fn == nil {
		return
	}
	p.p.Done = true
	if p.p.BytesTotal > 0 && p.p.BytesRead > p.p.BytesTotal {
		p.p.BytesTotal = p.p.BytesRead
	}
	p.fn(p.p)
}
