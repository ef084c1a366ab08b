package app

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"hearth/internal/agent/llm/llmtest"
)

// chatVoice posts a recording to the chat sheet's hold-to-talk endpoint as
// hearth.js does (multipart, CSRF header, request id).
func chatVoice(t *testing.T, a *App, key string, audio []byte) (int, map[string]string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="audio"; filename="message.webm"`)
	h.Set("Content-Type", "audio/webm")
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(audio)
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/m/maya/chat/voice", &body)
	req.RemoteAddr = "127.0.0.1:40000"
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	tok := strings.Repeat("ab", 16)
	req.Header.Set("X-CSRF-Token", tok)
	req.Header.Set("Idempotency-Key", "chat-voice-"+key+"-0123456789")
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: tok})
	rec := httptest.NewRecorder()
	a.Echo.ServeHTTP(rec, req)
	out := map[string]string{}
	_ = json.NewDecoder(rec.Body).Decode(&out)
	return rec.Code, out
}

// Hold-to-talk in the chat sheet: the recording goes to the speech-to-text
// endpoint and comes back as one line of text for the message field; the
// audio is not kept as a voice memo. Without a model it is refused plainly.
func TestChatVoiceTranscribes(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetTranscript("How is my\nweight going?\n")
	cfg := testConfig(t)
	cfg.OpenAIBaseURL, cfg.OpenAIKey, cfg.Model = srv.URL(), "test-key", "fake"
	a, err := New(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	memos := func() (n int) {
		_ = a.DB.Read.QueryRow(`SELECT COUNT(*) FROM voice_memos`).Scan(&n)
		return n
	}
	before := memos()
	code, out := chatVoice(t, a, "1", webmHeader)
	if code != http.StatusOK || out["transcript"] != "How is my weight going?" {
		t.Fatalf("chat voice: %d %v", code, out)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].FileName != "message.webm" {
		t.Errorf("transcription requests: %+v", reqs)
	}
	if memos() != before {
		t.Error("a spoken chat message was kept as a voice memo")
	}
	if code, out := chatVoice(t, a, "2", []byte("not audio")); code != http.StatusBadRequest {
		t.Errorf("not audio: %d %v", code, out)
	}

	plain, err := New(context.Background(), testConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = plain.Close() })
	if code, out := chatVoice(t, plain, "3", webmHeader); code != http.StatusBadRequest || !strings.Contains(out["error"], "type your message") {
		t.Errorf("without a model: %d %v", code, out)
	}
}
