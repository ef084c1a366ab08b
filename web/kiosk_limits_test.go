package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/web/ratelimit"
)

// limitedApp is the real app (demo household) with its model at srv and
// the kiosk's model-call limits lim.
func limitedApp(t *testing.T, srv *llmtest.Server, lim ratelimit.Options) *app.App {
	t.Helper()
	return newTestApp(t, withDemo(), withModel(srv.URL(), "fake"), withEnv("OPENAI_API_KEY", "sk-test"),
		withConfig(func(c *app.Config) { c.KioskModelCalls = lim })).app
}

// 20 chat messages posted at once for one member make one model call:
// the member has one turn under way at a time, and the other 19 are
// answered 429 with Retry-After and a plain reason. On the sheet (a
// Datastar post) the refusal is the form's error line, the message kept.
func TestKioskChatParallelPostsMakeOneModelCall(t *testing.T) {
	srv := llmtest.New(t)
	arrived := make(chan struct{}, 1)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { // the model thinks until the test ends
		select {
		case arrived <- struct{}{}:
		default:
		}
		return llmtest.Reply{Hang: true}
	})
	a := limitedApp(t, srv, ratelimit.Options{})
	const posts = 20
	codes := make([]int, posts)
	bodies := make([]*httptest.ResponseRecorder, posts)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range posts {
		wg.Go(func() {
			<-start
			bodies[i] = kioskForm(a, "/m/theo/chat", url.Values{"message": {"How is my weight going?"}, "thread": {"0"}}, "192.168.1.20:5000")
			codes[i] = bodies[i].Code
		})
	}
	close(start)
	wg.Wait()
	started, limited := 0, 0
	for i, code := range codes {
		switch code {
		case http.StatusSeeOther:
			started++
		case http.StatusTooManyRequests:
			limited++
			if bodies[i].Header().Get("Retry-After") == "" || !strings.Contains(bodies[i].Body.String(), "still answering your last message") {
				t.Errorf("refusal %d: %v %s", i, bodies[i].Header(), bodies[i].Body.String())
			}
		default:
			t.Errorf("post %d: %d %s", i, code, bodies[i].Body.String())
		}
	}
	if started != 1 || limited != posts-1 {
		t.Fatalf("%d turns started, %d refused of %d parallel posts; want 1 and %d", started, limited, posts, posts-1)
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the turn never reached the model")
	}
	if n := len(srv.ChatRequests()); n != 1 {
		t.Fatalf("%d model calls for %d parallel posts", n, posts)
	}

	// The sheet's form while the turn runs: the reason on its error line,
	// the message as typed, Retry-After (Datastar shows only a 200).
	rec := kioskDatastar(a, "/m/theo/chat", url.Values{"message": {"And my sleep?"}, "thread": {"0"}}, "192.168.1.20:5000")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || rec.Header().Get("Retry-After") == "" || !strings.Contains(body, `id="chat-form"`) ||
		!strings.Contains(body, `role="alert">Your coach is still answering your last message`) || !strings.Contains(body, `value="And my sleep?"`) {
		t.Fatalf("Datastar refusal: %d %v %s", rec.Code, rec.Header(), body)
	}
	dsCheck(t, "refused chat form", body)
	if n := len(srv.ChatRequests()); n != 1 {
		t.Fatalf("%d model calls after a refused post", n)
	}
}

// The buckets: a member's burst, then the member waits (whichever screen
// asks); a screen's burst across members, then it waits (an IPv6 screen
// with all the addresses of its /64); time refills both. Spoken chat
// messages (transcriptions) are charged like turns.
func TestKioskModelCallsRateLimited(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("Noted.", 1, 1) })
	clock := clockwork.NewFakeClock()
	a := limitedApp(t, srv, ratelimit.Options{Clock: clock,
		Client: ratelimit.Rule{Burst: 3, Every: 20 * time.Second}, Member: ratelimit.Rule{Burst: 2, Every: 30 * time.Second}})
	const screen, sameNet, other = "[2001:db8:1:2::10]:5000", "[2001:db8:1:2::99]:5000", "192.168.1.30:5000"
	chat := func(member, from string, want int, reason string) {
		t.Helper()
		rec := kioskForm(a, "/m/"+member+"/chat", url.Values{"message": {"How am I doing?"}, "thread": {"0"}}, from)
		if rec.Code != want || want == http.StatusTooManyRequests && (!strings.Contains(rec.Body.String(), reason) ||
			rec.Header().Get("Retry-After") != reason[:2]) {
			t.Fatalf("%s from %s: %d %v %s; want %d (%s)", member, from, rec.Code, rec.Header(), rec.Body.String(), want, reason)
		}
		waitIdle(t, a, member)
	}
	chat("theo", screen, http.StatusSeeOther, "")
	chat("theo", screen, http.StatusSeeOther, "")
	chat("theo", screen, http.StatusTooManyRequests, "30 seconds")  // theo's burst is spent
	chat("maya", screen, http.StatusSeeOther, "")                   // the screen's third
	chat("maya", sameNet, http.StatusTooManyRequests, "20 seconds") // the screen's /64 has spent its burst
	chat("theo", other, http.StatusTooManyRequests, "30 seconds")   // another screen, but theo waits
	calls := len(srv.ChatRequests())
	if calls != 3 {
		t.Fatalf("%d model calls for 3 turns", calls)
	}
	clock.Advance(30 * time.Second)
	chat("theo", other, http.StatusSeeOther, "")

	// Hold-to-talk: each transcription is a model call too.
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests} {
		rec := kioskVoice(a, "/m/maya/chat/voice", other)
		if rec.Code != want || want == http.StatusTooManyRequests && rec.Header().Get("Retry-After") == "" {
			t.Fatalf("transcription %d: %d %v %s", i+1, rec.Code, rec.Header(), rec.Body.String())
		}
	}
	if n := len(srv.Requests()) - len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d transcriptions made, want 2", n)
	}
}

// kioskDatastar is kioskForm as the sheet's Datastar post.
func kioskDatastar(a *app.App, path string, form url.Values, remote string) *httptest.ResponseRecorder {
	const token = "abababababababababababababababab"
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+path, strings.NewReader(form.Encode()))
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Datastar-Request", "true")
	req.Header.Set("X-CSRF-Token", token)
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: token})
	rec := httptest.NewRecorder()
	a.Echo.ServeHTTP(rec, req)
	return rec
}

// kioskVoice posts a short WebM recording as hearth.js does.
func kioskVoice(a *app.App, path, remote string) *httptest.ResponseRecorder {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="audio"; filename="message.webm"`)
	h.Set("Content-Type", "audio/webm")
	part, _ := w.CreatePart(h)
	_, _ = part.Write(append([]byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01}, make([]byte, 64)...))
	_ = w.Close()
	const token = "abababababababababababababababab"
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+path, &body)
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-CSRF-Token", token)
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: token})
	rec := httptest.NewRecorder()
	a.Echo.ServeHTTP(rec, req)
	return rec
}
