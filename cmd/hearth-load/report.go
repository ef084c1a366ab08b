package main

import (
	"fmt"
	"io"
)

// printReport writes the human-readable report.
func printReport(w io.Writer, r report) {
	m := r.Machine
	fmt.Fprintf(w, "hearth-load %v\n", r.Args)
	fmt.Fprintf(w, "machine: %d CPU (%s), %s, load %s, %s\n", m.CPUs, m.Model, m.Go, m.Load, m.Date)
	fmt.Fprintf(w, "server: %s\n", r.Server)
	if r.ReadyMS > 0 {
		fmt.Fprintf(w, "start: exec → /healthz 200 %.1f ms; → first page %.1f ms\n", r.ReadyMS, r.FirstMS)
	}
	if len(r.RestartsMS) > 0 {
		fmt.Fprintf(w, "restart on the existing database: exec → /healthz %v ms\n", r.RestartsMS)
	}
	fmt.Fprintf(w, "idle: %s\n", r.Idle)
	if x := r.Render; x != nil {
		fmt.Fprintf(w, "render: /m/%s (%d bytes), %d clients, %d rounds\n", x.Member, x.PageBytes, x.Concurrency, x.Rounds)
		fmt.Fprintf(w, "  page   req/s %v\n  static req/s %v\n  page/static median ratio %.2f (errors %d)\n",
			roundAll(x.PageRPS), roundAll(x.StaticRPS), x.Ratio, x.Errors)
		fmt.Fprintf(w, "  bare net/http, same bytes, req/s %v; this tool used %.2f cores\n", roundAll(x.BareRPS), x.ToolCPU)
		if x.ToolBound {
			fmt.Fprintln(w, "  TOOL-BOUND: the page rate is within 15% of what this tool reaches against the bare server; measure with `hearth-load http` (wrk)")
		}
	}
	if f := r.Fanout; f != nil {
		fmt.Fprintf(w, "streams: %d requested, %d failed to open; first event %s\n", f.Streams, f.OpenFailed, f.Open)
		fmt.Fprintf(w, "  with streams open: %s\n", f.Opened)
		if r.PerStream != nil {
			fmt.Fprintf(w, "  per stream: rss %v B", r.PerStream["rss_bytes"])
			if g, ok := r.PerStream["goroutines"]; ok {
				fmt.Fprintf(w, ", goroutines %.2f, heap %v B, stacks %v B, Go total %v B", g, r.PerStream["heap_bytes"],
					r.PerStream["stack_bytes"], r.PerStream["go_total_bytes"])
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "writes: %d sent, %d failed, %d ticks skipped; round trip %s\n", f.Writes, f.WriteErrors, f.SkippedTicks, f.WriteRTT)
		fmt.Fprintf(w, "delivery (write sent → patch on each stream): %s\n", f.Delivery)
		fmt.Fprintf(w, "  expected %d, missing %d, streams ended early %d, events %d, %.1f MiB received\n",
			f.Expected, f.Missing, f.StreamsEnded, f.Events, float64(f.BytesIn)/(1<<20))
		fmt.Fprintf(w, "  during writes: peak %s; median %s; server CPU %.2f cores, this tool %.2f cores of %d\n", f.DuringPeak, f.DuringMedian, f.ServerCPU, f.ToolCPU, r.Machine.CPUs)
		if f.ToolCPU+f.ServerCPU > 0.9*float64(r.Machine.CPUs) {
			fmt.Fprintln(w, "  CAUTION: the tool and the server together used the machine: delivery times include waiting for a core")
		}
		fmt.Fprintf(w, "  after closing streams (+%s): %s\n", f.AfterWait.Round(1e6), f.After)
	}
	if c := r.Cycles; c != nil {
		fmt.Fprintf(w, "cycles: %d connect/disconnect in %s, %d errors\n  before %s\n  after  %s\n", c.Cycles, c.Took, c.Errors, c.Before, c.After)
		if l := c.leaked(); l != "" {
			fmt.Fprintf(w, "  GROWTH: %s\n", l)
		} else {
			fmt.Fprintln(w, "  no goroutine or open-file growth")
		}
	}
	if r.ShutdownMS > 0 {
		fmt.Fprintf(w, "shutdown: SIGINT → exit %.1f ms\n", r.ShutdownMS)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
