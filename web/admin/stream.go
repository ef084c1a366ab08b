package admin

import (
	"context"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/web/httpkit"
)

// adminDebounce batches bursts of events (a run publishes one per phase)
// into one re-render.
const adminDebounce = 100 * time.Millisecond

// adminParts renders the live parts of an admin page from current state.
type adminParts func(ctx context.Context) ([]templ.Component, error)

// adminStream is an admin page's one live stream: it patches the page's
// live parts from current state at once (a reconnect shows the truth), then
// again shortly after each admin event that concerns them, and sends
// keep-alives in between. It ends when the client goes or the subscription
// ends (hub shutdown).
func (s *core) adminStream(c echo.Context, concerns func(live.Event) bool, parts adminParts) error {
	if s.live == nil {
		return apperr.New(apperr.Internal, "live updates are not configured")
	}
	ctx := c.Request().Context()
	sub := s.live.Subscribe(live.TopicAdmin)
	defer sub.Close()
	sse := httpkit.StartStream(c)
	send := func() error {
		comps, err := parts(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A failed read is logged and skipped; the stream stays up.
			s.log.Error("admin live: render", "path", c.Request().URL.Path, "err", err)
			return httpkit.KeepAlive(sse)
		}
		for _, cmp := range comps {
			if err := sse.PatchElementTempl(cmp); err != nil {
				return err
			}
		}
		return httpkit.KeepAlive(sse)
	}
	if send() != nil {
		return nil
	}
	tick := time.NewTicker(s.opt.KeepAlive)
	defer tick.Stop()
	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	defer debounce.Stop()
	armed := false
	arm := func() {
		if !armed {
			armed = true
			debounce.Reset(adminDebounce)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			return nil
		case <-tick.C:
			if httpkit.KeepAlive(sse) != nil {
				return nil
			}
		case <-sub.Resync():
			arm()
		case ev := <-sub.C():
			if concerns(ev) {
				arm()
			}
		case <-debounce.C:
			armed = false
			if send() != nil {
				return nil
			}
		}
	}
}

// runEvent returns the run event carried by ev, if it is one.
func runEvent(ev live.Event) (agent.RunEvent, bool) {
	if ev.Kind != live.KindRun {
		return agent.RunEvent{}, false
	}
	re, ok := ev.Data.(agent.RunEvent)
	return re, ok
}

func isKind(kinds ...live.Kind) func(live.Event) bool {
	return func(ev live.Event) bool {
		for _, k := range kinds {
			if ev.Kind == k {
				return true
			}
		}
		return false
	}
}
