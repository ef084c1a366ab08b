package kiosk

import (
	"context"
	"log/slog"
	"time"

	"hearth/views"
	"hearth/web/programs"
)

// nightSource is what a screen's night mode is made of: the household's
// schedule (Admin → Household) and, on a member's page, their next
// program session.
type nightSource struct {
	settings Settings           // nil: no night mode
	programs *programs.Controls // nil: no next session
	loc      *time.Location
	log      *slog.Logger
}

// fill sets p's night schedule and what the morning holds for a page of
// member ("" = the household view: the clock and date only). It is the one
// place a screen's night is decided: the screen's layout's own schedule
// (screen, non-nil) overrides the household's. A failure to read the
// settings is logged and leaves the page without a night.
func (n nightSource) fill(ctx context.Context, p *views.Page, member string, now time.Time, screen *views.Night) {
	var night views.Night
	switch {
	case screen != nil: // the screen's layout has its own schedule
		night = *screen
	case n.settings == nil:
		return
	default:
		st, err := n.settings.Settings(ctx)
		if err != nil {
			n.log.Error("kiosk: read the night schedule", "err", err)
			return
		}
		night = views.Night{From: st.Night.From, To: st.Night.To, Mode: st.Night.Mode}
	}
	if !night.On() {
		return
	}
	p.Night = night
	if member == "" {
		return
	}
	// The morning the night leads to: today's before the night ends
	// (a page opened at 02:00), tomorrow's after it. Named by its weekday,
	// which stays true on a page still open after midnight.
	local := now.In(n.loc)
	morning := local
	if local.Format("15:04") >= night.To {
		morning = local.AddDate(0, 0, 1)
	}
	if s := n.programs.Session(ctx, member, morning); s != "" {
		p.NightNext = morning.Format("Monday") + ": " + s
	}
}
