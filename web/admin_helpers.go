package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// Helpers the admin's handlers still here share with the kiosk's, which
// moved to web/kiosk (the kiosk keeps its own copies): they go with the
// admin's handlers when those move.

// formValues keeps what the user typed for re-display.
func formValues(c echo.Context, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		out[n] = c.FormValue(n)
	}
	return out
}

// when renders a past time relative to now: "today 07:12", "yesterday
// 18:30", "Mon 9 Feb".
func when(t, now time.Time, loc *time.Location) string {
	switch health.DaysAgo(t, now, loc) {
	case 0:
		return "today " + t.In(loc).Format("15:04")
	case 1:
		return "yesterday " + t.In(loc).Format("15:04")
	}
	return t.In(loc).Format("Mon 2 Jan")
}

// startStream lifts the server's write deadline for this long response and
// commits the SSE headers.
func startStream(c echo.Context) *datastar.ServerSentEventGenerator {
	_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Time{})
	return httpkit.NewSSE(c)
}

// keepAlive is a signal patch the page can observe (an SSE comment is
// invisible to it): hearth.js counts it as proof the stream is alive.
func keepAlive(sse *datastar.ServerSentEventGenerator) error {
	return sse.MarshalAndPatchSignals(map[string]any{"_ka": time.Now().UnixMilli()})
}

// chatTurn is a turn's answer as far as it has got.
func chatTurn(cs *agent.ChatStream) kioskview.ChatTurn {
	evs, _, done := cs.Next(0)
	t := kioskview.ChatTurn{RunID: cs.RunID, Done: done}
	var b strings.Builder
	for _, ev := range evs {
		switch ev.Type {
		case agent.ChatDelta:
			b.WriteString(ev.Text)
		case agent.ChatReset:
			b.Reset()
		case agent.ChatTool:
			t.Chips = append(t.Chips, ev.Label)
		case agent.ChatMessage:
			if ev.Message != nil {
				b.Reset()
				b.WriteString(ev.Message.Content)
			}
		case agent.ChatError:
			t.Error = ev.Text
		}
	}
	t.Text = strings.TrimSpace(b.String())
	return t
}
