// Package debugvars serves a tiny JSON snapshot of the process's runtime
// figures (goroutines, heap, GC, resident memory, open files) for the load
// tool (cmd/hearth-load) and operators. It answers loopback clients only;
// anyone else gets 404, as if the route did not exist.
//
// Mount it with Echo:
//
//	e.GET("/debug/vars", echo.WrapHandler(debugvars.Handler()))
package debugvars

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// Vars is the snapshot the handler serves.
type Vars struct {
	Goroutines int    `json:"goroutines"`
	HeapAlloc  uint64 `json:"heap_alloc_bytes"`
	// GoTotal is all memory the Go runtime mapped (heap, stacks, metadata).
	GoTotal   uint64 `json:"go_total_bytes"`
	StackSys  uint64 `json:"stack_bytes"`
	NumGC     uint64 `json:"num_gc"`
	RSS       uint64 `json:"rss_bytes"`  // VmRSS from /proc; 0 where there is none
	OpenFiles int    `json:"open_files"` // entries of /proc/self/fd; -1 where there is none
	UptimeMS  int64  `json:"uptime_ms"`
}

var samples = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/gc/cycles/total:gc-cycles",
}

// Read takes a snapshot without stopping the world (runtime/metrics).
func Read(started time.Time) Vars {
	s := make([]metrics.Sample, len(samples))
	for i, n := range samples {
		s[i].Name = n
	}
	metrics.Read(s)
	u := func(i int) uint64 {
		if s[i].Value.Kind() == metrics.KindUint64 {
			return s[i].Value.Uint64()
		}
		return 0
	}
	return Vars{
		Goroutines: runtime.NumGoroutine(),
		HeapAlloc:  u(0),
		GoTotal:    u(1),
		StackSys:   u(2),
		NumGC:      u(3),
		RSS:        RSS(os.Getpid()),
		OpenFiles:  OpenFiles(os.Getpid()),
		UptimeMS:   time.Since(started).Milliseconds(),
	}
}

// Handler serves Read as JSON to loopback clients; ?gc=1 runs two garbage
// collections first (the second empties sync.Pool victim caches), so the
// heap figure is live data only.
func Handler() http.Handler {
	started := time.Now()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC()
			runtime.GC()
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(Read(started))
	})
}

// RSS returns a process's resident set size in bytes from /proc/<pid>/status
// (0 when it cannot be read).
func RSS(pid int) uint64 { return Status(pid)["VmRSS"] }

// Status returns the memory lines of /proc/<pid>/status in bytes (VmRSS,
// RssAnon, RssFile, RssShmem, VmHWM, …); empty when it cannot be read.
func Status(pid int) map[string]uint64 {
	out := map[string]uint64{}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		v = strings.TrimSpace(v)
		if !ok || !strings.HasSuffix(v, " kB") {
			continue
		}
		if kb, err := strconv.ParseUint(strings.TrimSuffix(v, " kB"), 10, 64); err == nil {
			out[k] = kb << 10
		}
	}
	return out
}

// OpenFiles counts a process's open file descriptors (-1 when /proc is not there).
func OpenFiles(pid int) int {
	es, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		return -1
	}
	return len(es)
}
