package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// renderResult compares serving a member's dashboard page (rendered per
// request) with serving the same bytes as a static file from the same server.
type renderResult struct {
	Member      string    `json:"member"`
	PageBytes   int       `json:"page_bytes"`
	Concurrency int       `json:"concurrency"`
	Rounds      int       `json:"rounds"`
	PageRPS     []float64 `json:"page_rps"`
	StaticRPS   []float64 `json:"static_rps"`
	Ratio       float64   `json:"ratio_median"` // median over rounds of page/static
	Errors      int       `json:"errors"`
	// BareRPS is this tool against a bare net/http server serving the same
	// bytes, in the same rounds: the most this tool can measure here. A page
	// rate close to it says the tool, not Hearth, was the limit (the figure
	// then does not count: use `hearth-load http`, which drives wrk).
	BareRPS   []float64 `json:"bare_rps"`
	ToolCPU   float64   `json:"tool_cpu_cores"`
	ToolBound bool      `json:"tool_bound"`
}

// compareRender alternates page and static phases of slice each, rounds
// times, with conc keep-alive clients. It needs the tool's own server child
// (/_load/static).
func compareRender(ctx context.Context, t *target, memberID string, conc, rounds int, slice time.Duration) (renderResult, error) {
	res := renderResult{Member: memberID, Concurrency: conc, Rounds: rounds}
	if !t.self {
		return res, fmt.Errorf("-render needs -server self (the static copy is served from /_load/static)")
	}
	c := streamClient(conc)
	defer c.CloseIdleConnections()
	page := t.base + "/m/" + memberID
	body, err := get(ctx, c, page)
	if err != nil {
		return res, err
	}
	res.PageBytes = len(body)
	dir := filepath.Join(t.dataDir, "loadstatic")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), body, 0o644); err != nil {
		return res, err
	}
	static := t.base + "/_load/static/page.html"
	if b, err := get(ctx, c, static); err != nil || len(b) != len(body) {
		return res, fmt.Errorf("static copy: %d bytes, %v", len(b), err)
	}
	bareBase, _, stopBare, err := startBare(ctx, dir, nil)
	if err != nil {
		return res, err
	}
	defer stopBare()
	bare := bareBase + "/page.html"
	var ratios []float64
	self0, wall0 := cpuTicks(os.Getpid()), time.Now()
	for r := 0; r < rounds; r++ {
		order := []string{page, static, bare}
		if r%2 == 1 {
			order = []string{bare, static, page}
		}
		rps := map[string]float64{}
		for _, u := range order {
			n, errs := hammer(ctx, c, u, conc, slice)
			res.Errors += errs
			rps[u] = float64(n) / slice.Seconds()
		}
		res.PageRPS = append(res.PageRPS, rps[page])
		res.StaticRPS = append(res.StaticRPS, rps[static])
		res.BareRPS = append(res.BareRPS, rps[bare])
		if rps[static] > 0 {
			ratios = append(ratios, rps[page]/rps[static])
		}
	}
	res.Ratio = medianF(ratios)
	if self1 := cpuTicks(os.Getpid()); self0 >= 0 && self1 >= self0 {
		res.ToolCPU = float64(self1-self0) / clockTicks / time.Since(wall0).Seconds()
	}
	res.ToolBound = medianF(res.PageRPS) > 0.85*medianF(res.BareRPS)
	return res, ctx.Err()
}

func get(ctx context.Context, c *http.Client, u string) ([]byte, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	return b, err
}

// hammer fetches u with conc workers for d and counts full responses.
func hammer(ctx context.Context, c *http.Client, u string, conc int, d time.Duration) (ok, errs int) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, e := 0, 0
			for ctx.Err() == nil {
				if _, err := get(ctx, c, u); err != nil {
					if ctx.Err() == nil {
						e++
					}
					continue
				}
				n++
			}
			mu.Lock()
			ok, errs = ok+n, errs+e
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ok, errs
}

func medianF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
