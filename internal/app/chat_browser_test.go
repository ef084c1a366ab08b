package app_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/health"
	"hearth/internal/store"
)

// chatAsk opens the chat sheet on ada's dashboard and sends question.
func chatAsk(t *testing.T, ctx context.Context, url, question string) {
	t.Helper()
	open(t, ctx, url+"/m/ada")
	click(t, ctx, `.quick .ask-coach`)
	until(t, ctx, 3*time.Second, `getComputedStyle(document.getElementById('sheet-chat')).display !== 'none' &&
		document.querySelector('#chat-form input[name=message]')`)
	typeInto(t, ctx, `#chat-form input[name=message]`, question)
	click(t, ctx, `#chat-form button[type=submit]`)
}

// Ask the coach on the kiosk with a model that writes slowly: the tool
// chip shows, the answer shows part written before it is complete (over
// the page's Datastar stream), then whole; the conversation is listed and
// can be deleted.
func TestKioskChatStreamsInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	const answer = "Your trend is down 0.4 kg this week. Keep it up!"
	model := llmtest.New(t)
	model.Otherwise(func(r llmtest.Request) llmtest.Reply {
		switch {
		case !r.Contains("How is my weight going"):
			return llmtest.Error(503) // no other model work in this test
		case !r.HasToolResults():
			return llmtest.Tool("get_weight_trend", map[string]any{})
		}
		return llmtest.Reply{Content: answer, Chunks: []string{"Your trend ", "is down 0.4 kg ", "this week. ", "Keep it up!"},
			ChunkDelay: 400 * time.Millisecond}
	})
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: model.URL(), OpenAIKey: "test-key", Model: "fake"})
	seed(t, srv.app)
	ctx := newTab(t, browser, 90*time.Second)

	chatAsk(t, ctx, srv.url, "How is my weight going?")
	// The member's message and the tool chip, while the answer is written.
	until(t, ctx, 10*time.Second, `document.querySelector('#chat-log .chat-msg.mine')?.textContent.includes('How is my weight going?') &&
		document.querySelector('#chat-log .chat-turn .tool-chip')?.textContent === 'checked your weight trend'`)
	// Part of the answer, before it is complete.
	until(t, ctx, 10*time.Second, `(() => { const e = document.querySelector('#chat-log .chat-turn.writing .chat-text');
		return e && e.textContent.length > 0 && e.textContent.length < `+jsString(answer)+`.length })()`)
	var partial string
	if err := eval(ctx, `document.querySelector('#chat-log .chat-turn .chat-text').textContent`, &partial); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(answer, partial) || partial == answer {
		t.Fatalf("partial answer %q is not a beginning of %q", partial, answer)
	}
	until(t, ctx, 10*time.Second, `document.querySelector('#chat-log .chat-turn:not(.writing) .chat-text')?.textContent === `+jsString(answer))

	// The conversation is listed; reopened, it shows the stored answer with
	// its chip; deleting it leaves a new conversation.
	open(t, ctx, srv.url+"/m/ada")
	click(t, ctx, `.quick .ask-coach`)
	until(t, ctx, 3*time.Second, `document.querySelector('#chat-body .chat-thread.current')?.textContent.includes('How is my weight going?') &&
		[...document.querySelectorAll('#chat-log .chat-msg.from-coach')].some(m => m.querySelector('.chat-text').textContent === `+jsString(answer)+
		` && m.querySelector('.tool-chip')?.textContent === 'checked your weight trend')`)
	click(t, ctx, `#chat-body .chat-delete button`)
	until(t, ctx, 3*time.Second, `!document.querySelector('#chat-body .chat-thread') && document.querySelector('#chat-log .chat-empty')`)
	threads, err := srv.app.Agents.Threads().Threads(context.Background(), "health-coach", "ada", 10)
	if err != nil || len(threads) != 0 {
		t.Fatalf("threads after delete: %v %v", threads, err)
	}
}

// Without a model the coach answers "how is my weight going?" from its
// weight-trend tool: the figure is the member's real trend.
func TestKioskChatHeuristicWeightInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := seededApp(t)
	ctx := newTab(t, browser, 60*time.Second)
	bg := context.Background()
	m, err := srv.app.DB.Member(bg, "ada")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := srv.app.DB.Weights(bg, "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	tr := health.WeightTrend(ws, m, time.Now(), time.UTC)
	if tr.TrendKg == nil {
		t.Fatal("ada has no trend")
	}
	want := m.Unit.Normalize().Format(*tr.TrendKg)

	chatAsk(t, ctx, srv.url, "how is my weight going?")
	until(t, ctx, 10*time.Second, `document.querySelector('#chat-log .chat-turn:not(.writing) .chat-text')?.textContent.length > 0`)
	var got struct{ Text, Chip string }
	if err := eval(ctx, `({text: document.querySelector('#chat-log .chat-turn .chat-text').textContent,
		chip: document.querySelector('#chat-log .chat-turn .tool-chip')?.textContent || ''})`, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Text, want) || got.Chip != "checked your weight trend" {
		t.Fatalf("answer %q (chip %q), want the trend %s and the chip", got.Text, got.Chip, want)
	}
}

// Hold-to-talk in the chat sheet, with Chromium's fake microphone: the
// recording is transcribed by the model server's speech-to-text endpoint
// and sent as the message; the coach answers it.
func TestKioskChatHoldToTalkInBrowser(t *testing.T) {
	browser := newBrowserWith(t, 1280, 800,
		chromedp.Flag("use-fake-ui-for-media-stream", true), chromedp.Flag("use-fake-device-for-media-stream", true))
	model := llmtest.New(t)
	model.SetTranscript("How is my weight going?")
	model.Otherwise(func(r llmtest.Request) llmtest.Reply {
		switch {
		case !r.Contains("How is my weight going"):
			return llmtest.Error(503)
		case !r.HasToolResults():
			return llmtest.Tool("get_weight_trend", map[string]any{})
		}
		return llmtest.Text("Steady this week.", 10, 4)
	})
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: model.URL(), OpenAIKey: "test-key", Model: "fake", TranscribeModel: "whisper-1"})
	seed(t, srv.app)
	ctx := newTab(t, browser, 60*time.Second)
	open(t, ctx, srv.url+"/m/ada")
	click(t, ctx, `.quick .ask-coach`)
	until(t, ctx, 3*time.Second, `document.querySelector('#chat-voice .chat-talk')`)
	// Count the audio the fake microphone delivers (the recorder hands it
	// over every 100 ms instead of only at the end; hearth.js keeps every
	// piece either way), so the button is let go once there is speech to
	// send rather than after a guessed time.
	js(t, ctx, `(() => { const start = MediaRecorder.prototype.start; window.testAudio = 0;
		MediaRecorder.prototype.start = function () {
			this.addEventListener('dataavailable', (e) => { if (e.data.size > 0) window.testAudio++; });
			return start.call(this, 100);
		}; })()`)
	js(t, ctx, `document.querySelector('#chat-voice .chat-talk').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))`)
	until(t, ctx, 5*time.Second, `document.querySelector('#chat-voice.recording')`)
	until(t, ctx, 10*time.Second, `window.testAudio >= 3`)
	js(t, ctx, `document.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}))`)
	until(t, ctx, 15*time.Second, `document.querySelector('#chat-log .chat-msg.mine')?.textContent.includes('How is my weight going?') &&
		document.querySelector('#chat-log .chat-turn:not(.writing) .chat-text')?.textContent === 'Steady this week.'`)
	var audio int
	for _, r := range model.Requests() {
		if r.FileName != "" {
			audio++
		}
	}
	if audio != 1 {
		t.Fatalf("%d transcription requests, want 1", audio)
	}
}
