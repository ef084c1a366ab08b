package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// write is one weigh-in the tool posted; needle is the exact markup the
// member's weight widget shows for it, unique within the run.
type write struct {
	seq       int
	member    *member
	kg        float64
	needle    []byte
	sent      time.Time // request sent: the latency clock starts here
	rtt       time.Duration
	status    int
	err       error
	delivered atomic.Int32 // streams that showed this write (or a later one)
}

// member is one household member under load: its streams and its writes in
// commit order (writes to one member are serialised).
type member struct {
	id      string
	unit    string
	streams int

	wmu sync.Mutex // serialises this member's writes so seq order is commit order

	mu     sync.RWMutex
	writes []*write
	seen   map[string]bool // needles used
	center float64         // the member's weight in their unit: markers lie around it
	step   int             // markers tried so far (center+0.1, center-0.1, center+0.2, …)
}

func (m *member) pending() []*write {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.writes
}

// stream is one SSE client of /live/m/:member.
type stream struct {
	m      *member
	upto   int // writes[:upto] are delivered on this stream
	lat    []time.Duration
	events int
	bytes  int64
	opened time.Duration // request → first event (set by read)
	err    error
	ended  bool // the server ended the stream
}

// openStream connects to the member's live stream and checks the answer
// is a 200; the caller reads the body with read.
func openStream(ctx context.Context, c *http.Client, base string, m *member) (*stream, *http.Response, error) {
	s := &stream{m: m}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/live/m/"+m.id, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "text/event-stream, text/html, application/json")
	req.Header.Set("Datastar-Request", "true")
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("stream %s: status %d", m.id, resp.StatusCode)
	}
	s.opened = time.Since(start)
	return s, resp, nil
}

// read consumes events until the body ends; first is closed at the first
// event. Lines are scanned in place: only lines of patched elements are
// checked for the pending writes' needles.
func (s *stream) read(body io.Reader, first chan<- struct{}, openedAt time.Time) {
	br := bufio.NewReaderSize(body, 16<<10)
	var scratch []byte
	gotFirst := false
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			scratch = append(scratch[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				scratch = append(scratch, line...)
			}
			line = scratch
		}
		if err != nil {
			if !gotFirst {
				close(first)
			}
			if !errors.Is(err, context.Canceled) {
				s.err = err
			}
			s.ended = true
			return
		}
		s.bytes += int64(len(line))
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			s.events++
			if !gotFirst {
				gotFirst = true
				s.opened = time.Since(openedAt)
				close(first)
			}
		case bytes.HasPrefix(line, []byte("data: elements ")):
			s.check(line)
		}
	}
}

// check records the delivery of every pending write up to the newest one
// whose needle is in line: the widget now shows that write's state, which
// includes every earlier write of the member (coalesced renders skip values).
func (s *stream) check(line []byte) {
	ws := s.m.pending()
	for j := len(ws) - 1; j >= s.upto; j-- {
		if bytes.Contains(line, ws[j].needle) {
			now := time.Now()
			for i := s.upto; i <= j; i++ {
				s.lat = append(s.lat, now.Sub(ws[i].sent))
				ws[i].delivered.Add(1)
			}
			s.upto = j + 1
			return
		}
	}
}
