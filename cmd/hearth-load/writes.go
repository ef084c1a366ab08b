package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"hearth/internal/health"
)

// nextWrite reserves the member's next unique weight: a display value (in
// the member's unit, one decimal) whose markup has not been used in this
// run. The server stores kilograms rounded to 0.01 and the widget prints
// the unit value with one decimal, so the needle is computed the same way.
func (m *member) nextWrite(format string) (*write, error) {
	u := health.Unit(m.unit).Normalize()
	m.mu.Lock()
	defer m.mu.Unlock()
	for tries := 0; tries < 10000; tries++ {
		v := m.next
		m.next = math.Round((m.next+0.1)*10) / 10
		kg := math.Round(u.ToKg(v)*100) / 100
		if kg > 399 {
			break
		}
		shown := strconv.FormatFloat(u.FromKg(kg), 'f', 1, 64)
		needle := fmt.Sprintf(format, shown)
		if m.seen[needle] {
			continue
		}
		m.seen[needle] = true
		return &write{seq: len(m.writes), member: m, kg: kg, needle: []byte(needle)}, nil
	}
	return nil, fmt.Errorf("member %s: no unique weight values left (shorten the run or lower the rate)", m.id)
}

// post records w as pending (so streams can match it even before the
// response arrives), then posts it through the JSON API.
func post(ctx context.Context, c *http.Client, base string, w *write) {
	m := w.member
	// The marker weights are far from any trend: confirmed, as a client that
	// means them does (the API would otherwise ask with a 422).
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
