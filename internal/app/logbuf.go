package app

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Access logging wrote one line per request straight to stderr: a write
// system call on every page request, measured at roughly a quarter of the
// cost of serving the kiosk's page from cache (BENCHMARKS.md). The server's
// log now goes through a buffer written out by one goroutine: lines are
// batched for at most logFlushEvery, warnings and errors are written before
// the call that logged them returns, and nothing is ever dropped (a full
// buffer is written through by the caller).
const (
	logFlushEvery = 100 * time.Millisecond
	maxLogBuffer  = 256 << 10
)

// NewBufferedLogger is NewLogger over a buffer; flush writes out what is
// buffered and stops the writer goroutine (call it once, before exit).
func NewBufferedLogger(w io.Writer, level string) (logger *slog.Logger, flush func()) {
	b := newLogBuffer(w)
	h := NewLogger(b, level).Handler()
	return slog.New(flushingHandler{h, b}), b.close
}

type logBuffer struct {
	mu  sync.Mutex // guards buf
	buf []byte
	wmu sync.Mutex // orders writes to w
	w   io.Writer

	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: w, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go b.loop()
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	if len(b.buf)+len(p) > maxLogBuffer {
		b.mu.Unlock()
		// A burst faster than the writer: write through, never drop.
		b.flush()
		b.wmu.Lock()
		defer b.wmu.Unlock()
		return b.w.Write(p)
	}
	b.buf = append(b.buf, p...)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// flush writes out everything buffered so far, in order.
func (b *logBuffer) flush() {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	b.mu.Lock()
	out := b.buf
	b.buf = make([]byte, 0, min(cap(out), maxLogBuffer))
	b.mu.Unlock()
	if len(out) > 0 {
		_, _ = b.w.Write(out) // stderr failing has nowhere to be reported
	}
}

func (b *logBuffer) loop() {
	defer close(b.stopped)
	t := time.NewTimer(logFlushEvery)
	t.Stop()
	for {
		select {
		case <-b.wake:
			// Collect what arrives in the next interval into one write.
			t.Reset(logFlushEvery)
			select {
			case <-t.C:
			case <-b.stop:
				b.flush()
				return
			}
			b.flush()
		case <-b.stop:
			b.flush()
			return
		}
	}
}

func (b *logBuffer) close() {
	b.once.Do(func() {
		close(b.stop)
		<-b.stopped
	})
	b.flush() // lines logged after close are written through here
}

// flushingHandler writes warnings and errors out before Handle returns: a
// crash right after must not lose the line that explains it.
type flushingHandler struct {
	slog.Handler
	b *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.b.flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.b}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.b}
}
