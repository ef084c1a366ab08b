package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"time"

	"hearth/internal/health"
)

// nextWrite reserves the member's next unique weight: a display value (in
// the member's unit, one decimal) whose markup has not been used in this
// run. The server stores kilograms rounded to 0.01 and the widget prints
// the unit value with one decimal, so the needle is computed the same way.
//
// Markers alternate around the member's weight (center+0.1, center-0.1,
// center+0.2, …) and stay within markerBand of it: the server questions a
// weigh-in far from the member's trend and never shows it as current (the
// widget would not change), and the alternation keeps the day's average,
// which the trend follows, at the center.
func (m *member) nextWrite(format string) (*write, error) {
	u := health.Unit(m.unit).Normalize()
	m.mu.Lock()
	defer m.mu.Unlock()
	for ; ; m.step++ {
		off := float64(m.step/2+1) / 10
		if m.step%2 == 1 {
			off = -off
		}
		if math.Abs(off) > m.center*markerBand {
			break
		}
		v := math.Round((m.center+off)*10) / 10
		kg := math.Round(u.ToKg(v)*100) / 100
		shown := health.Fixed1(u.FromKg(kg))
		needle := fmt.Sprintf(format, shown)
		if m.seen[needle] {
			continue
		}
		m.seen[needle] = true
		m.step++
		return &write{seq: len(m.writes), member: m, kg: kg, needle: []byte(needle)}, nil
	}
	return nil, fmt.Errorf("member %s: no unique weight values left within %.0f %% of their weight (shorten the run or lower the rate)",
		m.id, markerBand*100)
}

// markerBand is how far (a share of the member's weight) markers may lie
// from it: inside the server's plausibility rule (15 % from the trend).
const markerBand = 0.14

// post records w as pending (so streams can match it even before the
// response arrives), then posts it through the JSON API.
func post(ctx context.Context, c *http.Client, base string, w *write) {
	m := w.member
	// Confirmed, as a client that means them does: a marker near the band's
	// edge may still be asked about (422) when the day's readings swing.
	body, _ := json.Marshal(map[string]any{"weight_kg": w.kg, "confirm": true})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/members/"+m.id+"/weight", bytes.NewReader(body))
	if err != nil {
		w.err = err
		return
	}
	req.Header.Set("Content-Type", "application/json")
	m.mu.Lock()
	w.sent = time.Now()
	m.writes = append(m.writes, w)
	m.mu.Unlock()
	resp, err := c.Do(req)
	w.rtt = time.Since(w.sent)
	if err != nil {
		w.err = err
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	w.status = resp.StatusCode
	if resp.StatusCode != http.StatusCreated {
		w.err = fmt.Errorf("status %d", resp.StatusCode)
	}
}

// driveWrites posts weigh-ins at rate per second for d, round-robin over
// members; writes to one member are serialised. It returns every write and
// how many ticks were skipped because too many writes were outstanding.
func driveWrites(ctx context.Context, c *http.Client, base string, members []*member, rate float64, d time.Duration, format string) ([]*write, int, error) {
	interval := time.Duration(float64(time.Second) / rate)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	end := time.After(d)
	sem := make(chan struct{}, 64)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		all     []*write
		skipped int
	)
	finish := func(err error) ([]*write, int, error) {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return all, skipped, err
	}
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return finish(ctx.Err())
		case <-end:
			return finish(nil)
		case <-tick.C:
		}
		m := members[i%len(members)]
		select {
		case sem <- struct{}{}:
		default:
			mu.Lock()
			skipped++
			mu.Unlock()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			m.wmu.Lock()
			defer m.wmu.Unlock()
			w, err := m.nextWrite(format)
			if err != nil {
				mu.Lock()
				skipped++
				mu.Unlock()
				return
			}
			post(ctx, c, base, w)
			mu.Lock()
			all = append(all, w)
			mu.Unlock()
		}()
	}
}
