package app

import (
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
