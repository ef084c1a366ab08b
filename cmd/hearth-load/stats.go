package main

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// dist summarises a set of durations.
type dist struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

// summarize sorts ds in place and returns its percentiles (nearest rank).
func summarize(ds []time.Duration) dist {
	if len(ds) == 0 {
		return dist{}
	}
	slices.Sort(ds)
	return dist{N: len(ds), P50: rank(ds, 50), P90: rank(ds, 90), P99: rank(ds, 99), Max: ds[len(ds)-1]}
}

// rank is the nearest-rank percentile of sorted ds.
func rank(ds []time.Duration, p int) time.Duration {
	i := (p*len(ds)+99)/100 - 1
	return ds[max(0, min(i, len(ds)-1))]
}

func (d dist) String() string {
	if d.N == 0 {
		return "n=0"
	}
	return fmt.Sprintf("n=%d p50=%s p90=%s p99=%s max=%s", d.N, ms(d.P50), ms(d.P90), ms(d.P99), ms(d.Max))
}

// ms prints a duration in milliseconds with a sensible precision.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	switch {
	case f >= 100:
		return fmt.Sprintf("%.0fms", f)
	case f >= 10:
		return fmt.Sprintf("%.1fms", f)
	}
	return fmt.Sprintf("%.2fms", f)
}

// mib prints bytes in MiB.
func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// median of a few integers (sorted copy).
func medianU(xs []uint64) uint64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
