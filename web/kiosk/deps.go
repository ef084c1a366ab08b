package kiosk

import (
	"context"
	"io"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/dashboard/board"
	"hearth/internal/history"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/voice"
)

// Dashboards is what the kiosk needs from the dashboard store: today's
// dashboard with its staleness rules applied, the stored documents for the
// second tap of "prepare", answers, consumed marks and playlists.
type Dashboards interface {
	Board(ctx context.Context, member string, now time.Time) (board.Board, error)
	TodayOf(ctx context.Context, b board.Board) (dashboard.Today, error)
	Get(ctx context.Context, member, day string) (dashboard.Stored, error)
	RecordAnswer(ctx context.Context, member, promptID, answer, kind string, voiceMemoID int64) (dashboard.Answer, error)
	MarkConsumed(ctx context.Context, member, contentID, source string) error
	Playlist(ctx context.Context, member string) ([]string, error)
	Records(ctx context.Context, member string, span history.Span, now time.Time) (history.Series, error)
	EditPlaylist(ctx context.Context, member string, edit dashboard.PlaylistEdit) error
}

// Catalog is the content catalog the kiosk shows and plays from.
type Catalog interface {
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
	Get(ctx context.Context, id string) (content.Item, error)
	Lookup(ctx context.Context, ids []string) (map[string]content.Item, error)
}

// Thumbs are the Plex thumbnails Hearth serves (*content.PlexThumbs):
// fetched from Plex server-side and cached; the browser never sees Plex.
type Thumbs interface {
	Open(ctx context.Context, ratingKey string) (content.ThumbFile, error)
}

// Live hands out subscriptions to change notifications (internal/live.Hub).
type Live interface {
	Subscribe(topics ...string) *live.Sub
}

// Voice stores (and, with a model, transcribes) voice memos.
type Voice interface {
	Save(ctx context.Context, member, promptID, contentType string, r io.Reader) (voice.Result, error)
	// Transcribe turns a spoken chat message into text (not kept as a memo).
	Transcribe(ctx context.Context, member, contentType string, r io.Reader) (string, error)
	Transcribes() bool
}

// DayPreparer runs the coach's daily-dashboard assignment for one member now
// (joining a run already under way) and waits for it until ctx ends.
type DayPreparer interface {
	PrepareDay(ctx context.Context, member string) (agent.Run, error)
}

// Listener is what the coach makes of an answer the moment it is given:
// the acknowledgement to show ("" for none); an answer that changes what
// today should be also asks for a re-plan of the member's day.
type Listener interface {
	HeardAnswer(ctx context.Context, member string, a dashboard.Answer) (string, error)
}

// Privacy switches a member's "private figures" flag and tells screens.
type Privacy interface {
	SetPrivateFigures(ctx context.Context, member string, on bool) error
}

// Settings are the household settings the kiosk reads: the screens' night
// schedule (*household.Service).
type Settings interface {
	Settings(ctx context.Context) (household.Settings, error)
}
