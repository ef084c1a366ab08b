package importer

import (
	"os"
	"runtime"
	"slices"
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
		samples    int
	}
	run := func(n int) result {
		path := bigExport(t, n)
		db := newDB(t)
		var live []uint64 // live heap after a GC, every 5 % of the records
		step := int64(n / 20)
		next := step
		var r result
		r.peak = measurePeak(func() {
			s, err := ImportFile(t.Context(), db, Options{Member: "ada", Progress: func(p Progress) {
				if p.Records < next || p.Done {
					return
				}
				next += step
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				live = append(live, ms.HeapAlloc)
			}}, path)
			if err != nil || s.Records != int64(n) {
				t.Fatalf("import %d: %v (%d records)", n, err, s.Records)
			}
		})
		// The batches in flight between the parser and the writer come and
		// go (a slower writer keeps more of them full): the lowest reading of
		// a stretch is what stays. Compare the second half with the first.
		// Progress comes about ten times a second, so a fast import gives
		// few samples (the larger file is checked, and needs three).
		r.samples = len(live)
		if h := len(live) / 2; h > 0 {
			if first, last := slices.Min(live[:h]), slices.Min(live[h:]); last > first {
				r.liveGrowth = last - first
			}
		}
		t.Logf("%d records: peak heap %.1f MB, peak RSS %.1f MB, live heap growth %.2f MB (%d samples)",
			n, mb(r.peak.heapInuse), mb(r.peak.rss), mb(r.liveGrowth), len(live))
		return r
	}
	s, l := run(small), run(large)
	if l.samples < 3 {
		t.Fatalf("only %d heap samples while importing %d records: cannot tell", l.samples, large)
	}
	if l.liveGrowth > 512<<10 { // 20 bytes kept per record (half the file apart: 400 KB) would show
		t.Errorf("live heap grew %.1f MB while importing %d records: something is kept per record", mb(l.liveGrowth), large)
	}
	if l.peak.heapInuse > s.peak.heapInuse+8<<20 {
		t.Errorf("peak heap %.1f MB for %d records vs %.1f MB for %d: not flat",
			mb(l.peak.heapInuse), large, mb(s.peak.heapInuse), small)
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }
