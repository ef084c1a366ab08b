package importer

import (
	"archive/zip"
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/importer/importertest"
)

// BenchmarkAppleImport imports a generated export of 100k and 1M records
// (importertest.Mix) into a fresh database per iteration, as export.xml and
// as export.zip, and reports records/s, the CPU time used (user + system, all
// goroutines; steadier than wall time on a shared machine), the peak Go heap
// in use, the peak process RSS and the database size (file + WAL) afterwards.
//
//	go test -run '^$' -bench BenchmarkAppleImport -benchtime 1x ./internal/importer/
func BenchmarkAppleImport(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		xmlPath, _ := importertest.AppleExportFile(b, n)
		for _, format := range []string{"xml", "zip"} {
			b.Run(format+"/records="+strconv.Itoa(n), func(b *testing.B) {
				path := xmlPath
				if format == "zip" {
					path = zipExport(b, xmlPath)
				}
				st, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(st.Size())
				var peak peakMem
				var dbBytes int64
				var cpu time.Duration
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					db := newDB(b)
					b.StartTimer()
					cpu0 := cpuTime()
					peak = measurePeak(func() {
						s, err := ImportFile(context.Background(), db, Options{Member: "ada"}, path)
						if err != nil {
							b.Fatal(err)
						}
						if s.Records != int64(n) {
							b.Fatalf("saw %d records, want %d", s.Records, n)
						}
					})
					b.StopTimer()
					cpu += cpuTime() - cpu0
					dbBytes = fileSize(db.Path) + fileSize(db.Path+"-wal")
					b.StartTimer()
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
				b.ReportMetric(mb(peak.heapInuse), "peak-heap-MB")
				b.ReportMetric(mb(peak.rss), "peak-rss-MB")
				b.ReportMetric(float64(dbBytes)/(1<<20), "db-MB")
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// BenchmarkCSVImport imports a generated meals CSV of 100k rows.
//
//	go test -run '^$' -bench BenchmarkCSVImport -benchtime 1x ./internal/importer/
func BenchmarkCSVImport(b *testing.B) {
	const n = 100_000
	path := filepath.Join(b.TempDir(), "meals.csv")
	var sb strings.Builder
	sb.WriteString("datetime,name,calories,protein,carbs,fat\n")
	start := time.Date(2020, 1, 1, 7, 0, 0, 0, time.UTC)
	for i := range n {
		at := start.Add(time.Duration(i) * 37 * time.Minute).Format("2006-01-02 15:04")
		fmt.Fprintf(&sb, "%s,\"Meal %d, with sides\",%d,%d,%d,%d\n", at, i%50, 200+i%700, i%60, i%120, i%40)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		db := newDB(b)
		b.StartTimer()
		s, err := ImportFile(context.Background(), db, Options{Member: "ada", Location: time.UTC}, path)
		if err != nil || s.Added != n {
			b.Fatalf("added %d: %v", s.Added, err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// zipExport packs an export.xml into export.zip as the Health app does.
func zipExport(b *testing.B, xmlPath string) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "export.zip")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	in, err := os.Open(xmlPath)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	zw := zip.NewWriter(out)
	w, err := zw.Create("apple_health_export/export.xml")
	if err == nil {
		_, err = io.Copy(w, in)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	return path
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// peakMem is the high-water mark of the Go heap in use and of the process
// resident set (which includes SQLite's C allocations) while a func ran.
type peakMem struct{ heapInuse, rss uint64 }

// measurePeak runs f while sampling memory every 5 ms. The heap is read
// through runtime/metrics, which does not stop the world; two GCs first
// empty sync.Pool victim caches (goose keeps a 16 MB parse buffer in one).
func measurePeak(f func()) peakMem {
	runtime.GC()
	runtime.GC()
	var (
		mu      sync.Mutex
		peak    peakMem
		stop    = make(chan struct{})
		done    = make(chan struct{})
		samples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	)
	sample := func() {
		metrics.Read(samples)
		inuse := samples[0].Value.Uint64() + samples[1].Value.Uint64()
		rss := readRSS()
		mu.Lock()
		peak.heapInuse = max(peak.heapInuse, inuse)
		peak.rss = max(peak.rss, rss)
		mu.Unlock()
	}
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	f()
	close(stop)
	<-done
	sample()
	return peak
}

// readRSS returns the process's resident set size from /proc, 0 elsewhere.
func readRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
