package debugvars

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHandlerServesLoopbackOnly(t *testing.T) {
	h := Handler()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/debug/vars", nil)
	req.RemoteAddr = "127.0.0.1:5000"
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("loopback: status %d", rec.Code)
	}
	var v Vars
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Goroutines < 1 || v.HeapAlloc == 0 || v.GoTotal == 0 {
		t.Fatalf("implausible snapshot %+v", v)
	}
	if v.RSS == 0 || v.OpenFiles < 3 {
		t.Fatalf("no /proc figures in %+v", v)
	}

	gcs := v.NumGC
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/debug/vars?gc=1", nil).WithContext(req.Context()))
	if rec.Code == 200 {
		t.Fatal("httptest's default remote address is not loopback; expected 404")
	}
	req2 := httptest.NewRequest(http.MethodGet, "/debug/vars?gc=1", nil)
	req2.RemoteAddr = "[::1]:5000"
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req2)
	var v2 Vars
	if err := json.Unmarshal(rec.Body.Bytes(), &v2); err != nil || v2.NumGC <= gcs {
		t.Fatalf("?gc=1 did not collect: %d -> %d (%v)", gcs, v2.NumGC, err)
	}

	rec = httptest.NewRecorder()
	req.RemoteAddr = "192.168.1.20:5000"
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("remote client: status %d, want 404", rec.Code)
	}
}

func TestReadCountsGoroutines(t *testing.T) {
	before := Read(time.Now()).Goroutines
	stop := make(chan struct{})
	for range 10 {
		go func() { <-stop }()
	}
	after := Read(time.Now()).Goroutines
	close(stop)
	if after < before+10 {
		t.Fatalf("goroutines %d -> %d, want +10", before, after)
	}
}
