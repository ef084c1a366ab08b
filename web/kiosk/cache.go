package kiosk

import (
	"context"
	"sync"
	"time"

	"hearth/internal/live"
	"hearth/views/kioskview"
)

// modelMaxAge bounds how long a shared model is reused without any change:
// the date and relative times ("weighed in 07:00 today") age with the clock.
const modelMaxAge = 20 * time.Second

// modelCache shares one dashboard model per member between every open
// stream and page render. A write used to make each of N open screens reload
// the member's records and rebuild the model (N× the database work); now the
// first reader after a change rebuilds it and the others wait for and reuse
// it. Keys are the hub generations of the member's and the household's
// topics, which Publish raises before delivering, so a reader woken by an
// event never gets a model built before that event's write.
type modelCache struct {
	mu      sync.Mutex
	entries map[string]*modelEntry
}

type modelEntry struct {
	member, household uint64 // hub generations the build started after
	built             time.Time
	done              chan struct{}
	d                 kioskview.Dashboard
	err               error
	pmu               sync.Mutex
	pages             map[string]*renderedPage   // the full page per screen layout and lock state, rendered once (page_cache.go)
	sets              map[patchKey]*renderedPage // stream patches by widget set and lock state
}

func (e *modelEntry) fresh(member, household uint64) bool {
	return e.member >= member && e.household >= household && time.Since(e.built) < modelMaxAge
}

// sharedModel returns the member's dashboard model with this client's CSRF
// token applied (the only per-client part).
func (s *dashboardModels) sharedModel(ctx context.Context, id, csrf string) (kioskview.Dashboard, error) {
	e, err := s.sharedEntry(ctx, id)
	if err != nil {
		return kioskview.Dashboard{}, err
	}
	if e == nil {
		d, err := s.dashboardModel(ctx, id, "")
		return withCSRF(d, csrf), err
	}
	return withCSRF(e.d, csrf), nil
}

// sharedEntry returns the member's current cache entry, built by this call
// or by the reader that got there first; nil (and no error) when the hub
// keeps no generations, so nothing can be shared.
func (s *dashboardModels) sharedEntry(ctx context.Context, id string) (*modelEntry, error) {
	gens, ok := s.deps.Live.(interface{ Gen(topic string) uint64 })
	if !ok {
		return nil, nil
	}
	mg, hg := gens.Gen(live.MemberTopic(id)), gens.Gen(live.TopicHousehold)
	c := &s.models
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*modelEntry{}
	}
	e := c.entries[id]
	if e != nil && e.fresh(mg, hg) {
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else {
		e = &modelEntry{member: mg, household: hg, built: time.Now(), done: make(chan struct{})}
		c.entries[id] = e
		c.mu.Unlock()
		// Detached from this request: a client leaving mid-build must not
		// fail the others waiting on the same build.
		e.d, e.err = s.dashboardModel(context.WithoutCancel(ctx), id, "")
		close(e.done)
		if e.err != nil {
			c.mu.Lock()
			if c.entries[id] == e {
				delete(c.entries, id)
			}
			c.mu.Unlock()
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	return e, nil
}

// withCSRF returns a copy of d carrying the client's token in its forms; the
// shared slices inside are only read by the views.
func withCSRF(d kioskview.Dashboard, csrf string) kioskview.Dashboard {
	d.Sheets.CSRF = csrf
	d.Coach.CSRF = csrf
	d.Playlist.CSRF = csrf
	d.Catalog.CSRF = csrf
	if d.Curated.Program != nil {
		p := *d.Curated.Program // shared between clients: copy before setting this one's token
		p.CSRF = csrf
		d.Curated.Program = &p
	}
	return d
}
