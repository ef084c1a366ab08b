package importer

import (
	"os"
	"runtime"
	"testing"
)

// TestPeakMemoryFlat imports a small and a ten times larger generated export
// and checks that neither the live heap nor the peak heap grows with the
// file. The default sizes keep `go test -race` fast; HEARTH_IMPORT_BIG=1 runs
// the 100k vs 1M comparison recorded in BENCHMARKS.md. Skipped with -short.
func TestPeakMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("imports generated exports; skipped with -short")
	}
	small, large := 4_000, 40_000
	if os.Getenv("HEARTH_IMPORT_BIG") == "1" {
		small, large = 100_000, 1_000_000
	}
	type result struct {
		peak       peakMem
		liveGrowth uint64
	}
	run := func(n int) result {
		path := bigExport(t, n)
		db := newDB(t)
		var first, maxLive uint64
		next := int64(n / 10)
		var r result
		r.peak = measurePeak(func() {
			s, err := ImportFile(t.Context(), db, Options{Member: "ada", Progress: func(p Progress) {
				if p.Records < next && !p.Done {
					return
				}
				next += int64(n / 10)
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if first == 0 {
					first = ms.HeapAlloc
				}
				maxLive = max(maxLive, ms.HeapAlloc)
			}}, path)
			if err != nil || s.Records != int64(n) {
				t.Fatalf("import %d: %v (%d records)", n, err, s.Records)
			}
		})
		r.liveGrowth = maxLive - first
		t.Logf("%d records: peak heap %.1f MB, peak RSS %.1f MB, live heap growth %.2f MB",
			n, mb(r.peak.heapInuse), mb(r.peak.rss), mb(r.liveGrowth))
		return r
	}
	s, l := run(small), run(large)
	if l.liveGrowth > 1<<20 { // 20 bytes kept per record would show
		t.Errorf("live heap grew %.1f MB while importing %d records: something is kept per record", mb(l.liveGrowth), large)
	}
	if l.peak.heapInuse > s.peak.heapInuse+8<<20 {
		t.Errorf("peak heap %.1f MB for %d records vs %.1f MB for %d: not flat",
			mb(l.peak.heapInuse), large, mb(s.peak.heapInuse), small)
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }
