package web_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/live"
)

// benchGet serves one GET in-process and fails unless it is a 200.
func (s *swServer) benchGet(b *testing.B, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080"+path, nil)
	req.RemoteAddr = "127.0.0.1:40000"
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: s.csrf})
	rec := httptest.NewRecorder()
	s.app.Echo.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: %d", path, rec.Code)
	}
	return rec
}

// staticCopy saves the member page's bytes and mounts them as a static file
// on the same Echo instance (same middleware), returning its path.
func (s *swServer) staticCopy(b *testing.B, page []byte) string {
	dir := filepath.Join(s.dir, "benchstatic")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "member.html"), page, 0o644); err != nil {
		b.Fatal(err)
	}
	s.app.Echo.Static("/_bench", dir)
	return "/_bench/member.html"
}

// BenchmarkDashboardPage renders a member's full dashboard (demo household,
// today's document from the heuristic coach) through the real Echo stack,
// in-process, and serves the same bytes as a static file from the same
// server for comparison.
//
//	go test -run '^$' -bench BenchmarkDashboardPage -benchmem ./web/
func BenchmarkDashboardPage(b *testing.B) {
	s := newSweepServer(b)
	page := s.benchGet(b, "/m/maya").Body.Bytes()
	static := s.staticCopy(b, page)
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			s.benchGet(b, "/m/maya")
		}
	})
	b.Run("static", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			s.benchGet(b, static)
		}
	})
	// Side by side in one loop: each iteration renders the page and serves
	// the static copy once; the ratio is static time / page time (the
	// page's throughput as a share of the static file's).
	b.Run("side-by-side", func(b *testing.B) {
		var tp, ts time.Duration
		for b.Loop() {
			t0 := time.Now()
			s.benchGet(b, "/m/maya")
			t1 := time.Now()
			s.benchGet(b, static)
			tp, ts = tp+t1.Sub(t0), ts+time.Since(t1)
		}
		n := float64(b.N)
		b.ReportMetric(float64(tp.Microseconds())/n, "page-µs")
		b.ReportMetric(float64(ts.Microseconds())/n, "static-µs")
		b.ReportMetric(float64(ts)/float64(tp), "page/static-throughput")
	})
}

// BenchmarkDashboardPageHTTP is the same comparison over loopback HTTP with
// parallel keep-alive clients (the shape of real traffic).
func BenchmarkDashboardPageHTTP(b *testing.B) {
	s := newSweepServer(b)
	page := s.benchGet(b, "/m/maya").Body.Bytes()
	static := s.staticCopy(b, page)
	srv := httptest.NewServer(s.app.Echo)
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
	defer c.CloseIdleConnections()
	for _, p := range []struct{ name, path string }{{"page", "/m/maya"}, {"static", static}} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := c.Get(srv.URL + p.path)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("GET %s: %d", p.path, resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// benchStream is one open member stream over loopback HTTP.
type benchStream struct {
	r       *bufio.Reader
	body    io.Closer
	capture *bytes.Buffer // when set, next copies what it reads here
}

func openBenchStream(b *testing.B, ctx context.Context, url string) *benchStream {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("stream: %d", resp.StatusCode)
	}
	st := &benchStream{r: bufio.NewReaderSize(resp.Body, 64<<10), body: resp.Body}
	st.untilKeepAlive(b) // the initial full render
	return st
}

// untilKeepAlive reads one re-render: events up to the keep-alive signal
// patch that ends every patch set; it returns the bytes read.
func (st *benchStream) untilKeepAlive(b *testing.B) int {
	n, err := st.next()
	if err != nil {
		b.Fatalf("stream ended: %v", err)
	}
	return n
}

func (st *benchStream) next() (int, error) {
	n := 0
	for {
		line, err := st.r.ReadString('\n')
		n += len(line)
		if st.capture != nil {
			st.capture.WriteString(line)
		}
		if err != nil {
			return n, err
		}
		if strings.HasPrefix(line, "data: signals ") && strings.Contains(line, `"_ka"`) {
			return n, nil
		}
	}
}

// BenchmarkSSEPatch measures one change notification turning into Datastar
// patches on an open member stream: re-render of the widgets the event
// touches (weight → weight, body and coach; meal → nutrition and coach;
// dashboard → curated, coach and playlist; resync → everything) plus SSE
// encoding and delivery over loopback.
//
//	go test -run '^$' -bench BenchmarkSSEPatch -benchmem ./web/
func BenchmarkSSEPatch(b *testing.B) {
	s := newSweepServer(b)
	srv := httptest.NewServer(s.app.Echo)
	defer srv.Close()
	defer s.app.Hub.Close() // ends the streams before srv.Close waits for them
	for _, kind := range []live.Kind{live.KindWeight, live.KindMeal, live.KindWorkout, live.KindDashboard, "everything"} {
		b.Run(string(kind), func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			st := openBenchStream(b, ctx, srv.URL+"/live/m/maya")
			defer st.body.Close()
			total := 0
			// What a per-stream compressor would send: one deflate context
			// for the stream's life, flushed after every patch set.
			var zbuf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestSpeed)
			st.capture = &bytes.Buffer{}
			b.ReportAllocs()
			for b.Loop() {
				s.app.Hub.Publish(live.MemberTopic("maya"), kind, nil)
				total += st.untilKeepAlive(b)
				_, _ = zw.Write(st.capture.Bytes())
				_ = zw.Flush()
				st.capture.Reset()
			}
			b.ReportMetric(float64(total)/float64(b.N), "patch-bytes")
			b.ReportMetric(float64(zbuf.Len())/float64(b.N), "gzip-patch-bytes")
		})
	}
}

// BenchmarkSSEFanout publishes one weigh-in notification to a member with n
// open streams and waits until every stream received its patches: the cost
// of one event's fan-out (encoded once, written to each stream).
func BenchmarkSSEFanout(b *testing.B) {
	s := newSweepServer(b)
	srv := httptest.NewServer(s.app.Echo)
	defer srv.Close()
	defer s.app.Hub.Close()
	for _, n := range []int{1, 10, 100} {
		b.Run("streams="+strconv.Itoa(n), func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			streams := make([]*benchStream, n)
			for i := range streams {
				streams[i] = openBenchStream(b, ctx, srv.URL+"/live/m/maya")
				defer streams[i].body.Close()
			}
			b.ResetTimer()
			for b.Loop() {
				s.app.Hub.Publish(live.MemberTopic("maya"), "weight", nil)
				var wg sync.WaitGroup
				for _, st := range streams {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if _, err := st.next(); err != nil {
							b.Error(err)
						}
					}()
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/stream")
		})
	}
}

// BenchmarkSSEGzipStreamMemory is the memory one open stream would hold for
// a compressor of its own (a gzip.Writer at BestSpeed after its first
// flush): compressed bytes differ per stream, so they cannot be shared.
func BenchmarkSSEGzipStreamMemory(b *testing.B) {
	event := bytes.Repeat([]byte("data: elements <div id=\"weight\" class=\"widget\">71.3 kg</div>\n"), 40)
	var before, after runtime.MemStats
	b.ReportAllocs()
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
		_, _ = zw.Write(event)
		_ = zw.Flush()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(zw)
	}
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc), "bytes/compressor")
}
