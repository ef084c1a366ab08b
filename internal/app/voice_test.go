package app

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/store"
)

// webmHeader is the EBML magic a WebM recording starts with, enough for the
// voice service's content sniffing.
var webmHeader = append([]byte{0x1A, 0x45, 0xDF, 0xA3}, bytes.Repeat([]byte{0}, 60)...)

// The transcription model comes from HEARTH_TRANSCRIBE_MODEL (a local
// speech-to-text server rarely calls its model whisper-1), and "off" keeps
// the audio without a request.
func TestVoiceUsesConfiguredTranscriptionModel(t *testing.T) {
	for _, c := range []struct {
		env      string
		wantReqs int
		status   string
	}{
		{"", 1, "transcribed"},
		{"Systran/faster-whisper-small", 1, "transcribed"},
		{"off", 0, "stored"},
	} {
		t.Run("model="+c.env, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.SetTranscript("Legs are sore")
			env := map[string]string{"OPENAI_BASE_URL": srv.URL(), "HEARTH_TRANSCRIBE_MODEL": c.env,
				"HEARTH_DATA": t.TempDir(), "HEARTH_DEMO": "1", "HEARTH_TZ": "UTC"}
			cfg, err := LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			a, err := New(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = a.Close() })
			// A memo answers a question of today's dashboard.
			ctx := context.Background()
			doc := dashboard.Document{GeneratedAt: time.Now().UTC(), Coach: dashboard.Coach{
				Prompts: []dashboard.Prompt{{ID: "legs", Type: dashboard.PromptVoiceMemo, Question: "How are your legs?"}}}}
			if err := a.DB.Tx(ctx, func(tx *store.Tx) error {
				return a.Dashboards.PutTx(ctx, tx, time.Now(), "maya", a.Dashboards.Day(time.Now()), 0, doc, "test")
			}); err != nil {
				t.Fatal(err)
			}
			res, err := a.voiceService().Save(ctx, "maya", "legs", "audio/webm", bytes.NewReader(webmHeader))
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != c.wantReqs || res.Status != c.status {
				t.Fatalf("%d transcription requests, status %q; want %d, %q", len(reqs), res.Status, c.wantReqs, c.status)
			}
			if c.wantReqs == 0 {
				return
			}
			want := c.env
			if want == "" {
				want = "whisper-1"
			}
			if got := reqs[0].Form["model"]; got != want {
				t.Fatalf("model sent = %q, want %q", got, want)
			}
		})
	}
}
