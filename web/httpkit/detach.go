package httpkit

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"
)

// A member dashboard's live stream outlives its request by hours, and under
// net/http each one holds a connection goroutine with a 16 KB stack (its
// resting depth through Echo's middleware keeps the GC from shrinking it),
// a background reader, 4 KB read and write buffers, the parsed request and
// the cloned response headers: ~44 KB a stream. Once the stream's headers
// are decided, the connection is hijacked and the stream goes on in a
// goroutine of its own that rests one frame deep, with one tiny reader
// goroutine to notice the client leaving and a write buffer borrowed from
// a pool only while an event is written. See BENCHMARKS.md, "Memory per
// open stream".

// streamWriteTimeout bounds one write to a detached stream: a client that
// stops reading is dropped rather than holding its goroutine.
const streamWriteTimeout = 10 * time.Second

// Streams tracks the live streams taken off net/http, which
// http.Server.Shutdown neither closes nor waits for. Close ends them all;
// Wait returns once their goroutines are done.
type Streams struct {
	mu     sync.Mutex
	closed bool
	open   map[*streamConn]struct{}
	wg     sync.WaitGroup
}

// NewStreams returns an empty stream set.
func NewStreams() *Streams { return &Streams{open: map[*streamConn]struct{}{}} }

// add registers a stream; false after Close.
func (s *Streams) add(c *streamConn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.open[c] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Streams) remove(c *streamConn) {
	s.mu.Lock()
	delete(s.open, c)
	s.mu.Unlock()
	s.wg.Done()
}

// Close closes every detached stream's connection (which ends its
// goroutines) and refuses new ones. Registered to run at server shutdown.
func (s *Streams) Close() {
	s.mu.Lock()
	s.closed = true
	conns := make([]*streamConn, 0, len(s.open))
	for c := range s.open {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.conn.Close()
	}
}

// Wait waits for the detached streams' goroutines to end, or for ctx.
func (s *Streams) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Echo context keys between limitStreams and a handler that detaches: the
// stream's slot in the caps is then released when the stream ends, not
// when the handler returns.
const (
	CtxStreamRelease  = "hearth.stream.release"
	CtxStreamDetached = "hearth.stream.detached"
)

// DetachedStream is a stream running on its own goroutine.
type DetachedStream struct {
	Ctx context.Context
	SSE *datastar.ServerSentEventGenerator
	// Out is where shared pre-encoded patches are written (through SSEWriter).
	Out http.ResponseWriter
	End func() // closes the connection and releases the stream's slot
}

// Detach hijacks the request's connection, writes the SSE response
// headers (the ones the middleware set, plus the stream's own) and returns
// the stream to run on a new goroutine, whose context ends when the client
// goes or the server shuts down. taken reports that the connection is no
// longer net/http's: with a nil stream the server is shutting down and the
// connection is already closed. Not taken (HTTP/2, a test recorder): the
// caller streams as before.
func (s *Streams) Detach(c echo.Context) (st *DetachedStream, taken bool) {
	if s == nil || c.Request().ProtoMajor != 1 {
		return nil, false
	}
	h := c.Response().Header().Clone()
	conn, _, err := http.NewResponseController(c.Response()).Hijack()
	if err != nil {
		return nil, false
	}
	_ = conn.SetDeadline(time.Time{})
	release, _ := c.Get(CtxStreamRelease).(func())
	c.Set(CtxStreamDetached, true)
	ctx, cancel := context.WithCancel(context.WithoutCancel(c.Request().Context()))
	closeConn := func() {
		cancel()
		_ = conn.Close()
		if release != nil {
			release()
		}
	}
	out := &streamConn{conn: conn, header: h}
	if !s.add(out) { // shutting down
		closeConn()
		return nil, true
	}
	st = &DetachedStream{Ctx: ctx, Out: out, End: sync.OnceFunc(func() {
		closeConn()
		s.remove(out)
	})}
	// The client never sends anything more on a stream's connection; a
	// read returns only when it closes.
	go func() {
		var b [1]byte
		for {
			if _, err := conn.Read(b[:]); err != nil {
				cancel()
				return
			}
		}
	}()
	sh := out.Header()
	sh.Set(echo.HeaderContentType, "text/event-stream")
	sh.Set(echo.HeaderCacheControl, "no-cache")
	sh.Set("X-Accel-Buffering", "no")
	out.WriteHeader(http.StatusOK)
	req := (&http.Request{ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}}).WithContext(ctx)
	st.SSE = datastar.NewSSE(SSEWriter{out}, req)
	return st, true
}

// streamConn is the http.ResponseWriter of a detached stream: writes
// collect in a pooled buffer and go out on Flush, one write per event
// batch. The body is delimited by closing the connection (HTTP/1.1 with
// "Connection: close", no chunking).
type streamConn struct {
	conn   net.Conn
	header http.Header // until the header is written
	wrote  bool
	buf    *bytes.Buffer // pending bytes; nil between flushes
}

var streamBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (w *streamConn) Header() http.Header {
	if w.header == nil { // written already (datastar sets its own after)
		w.header = http.Header{}
	}
	return w.header
}

func (w *streamConn) pending() *bytes.Buffer {
	if w.buf == nil {
		w.buf = streamBufs.Get().(*bytes.Buffer)
	}
	return w.buf
}

func (w *streamConn) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	h := w.header
	w.header = nil
	h.Del("Content-Length")
	h.Del("Transfer-Encoding")
	h.Set("Connection", "close")
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	b := w.pending()
	b.WriteString("HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n")
	_ = h.Write(b)
	b.WriteString("\r\n")
}

func (w *streamConn) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.pending().Write(p)
}

// FlushError sends what is pending (http.ResponseController calls it).
func (w *streamConn) FlushError() error {
	b := w.buf
	if b == nil {
		return nil
	}
	w.buf = nil
	_ = w.conn.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	_, err := w.conn.Write(b.Bytes())
	if b.Cap() <= 256<<10 {
		b.Reset()
		streamBufs.Put(b)
	}
	return err
}

func (w *streamConn) Flush() { _ = w.FlushError() }
