package app

import (
	"context"

	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/voice"
)

// dataDir is where voice memos and local media live: HEARTH_DATA, or the
// database's directory when no data directory is configured (tests).
func (a *App) dataDir() string { return a.cfg.dataDirectory() }

// voiceService stores voice memos under the data directory and transcribes
// them through the configured OpenAI-compatible endpoint when there is one.
func (a *App) voiceService() *voice.Service {
	opt := voice.Options{DataDir: a.dataDir(), Publisher: a.Hub, Logger: a.log}
	if a.cfg.Transcribes() {
		opt.Transcriber = voice.NewOpenAI(a.cfg.OpenAIBaseURL, a.cfg.OpenAIKey, a.cfg.TranscribeModel, nil)
	}
	return voice.New(a.Dashboards, opt)
}

// privacy flips a member's private-figures flag and tells every screen.
type privacy struct {
	db  *store.DB
	hub *live.Hub
}

// SetPrivateFigures stores the flag, then publishes to the member's screens
// and the household view.
func (p privacy) SetPrivateFigures(ctx context.Context, member string, on bool) error {
	if err := p.db.SetPrivateFigures(ctx, member, on); err != nil {
		return err
	}
	p.hub.Publish(live.MemberTopic(member), "privacy", member)
	p.hub.Publish(live.TopicHousehold, "privacy", member)
	return nil
}
