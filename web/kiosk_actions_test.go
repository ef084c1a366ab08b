package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/dashboard"
	"hearth/internal/voice"
	"hearth/web"
)

func formOf(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func TestStateChangesNeedCSRFToken(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	routes := map[string]url.Values{
		"/m/ada/weight":   formOf("weight", "70"),
		"/m/ada/meal":     formOf("name", "Oats", "calories", "300"),
		"/m/ada/workout":  formOf("type", "run", "duration_min", "30"),
		"/m/ada/answer":   formOf("prompt", "p1", "kind", "tap", "answer", "Rest day"),
		"/m/ada/voice":    formOf("prompt", "p2"),
		"/m/ada/privacy":  formOf("private", "on"),
		"/m/ada/playlist": formOf("op", "add", "id", "local:ember-core-01"),
		"/content/done":   formOf("id", "local:ember-core-01", "m", "ada"),
	}
	for path, form := range routes {
		for name, tok := range map[string]string{"missing": "-", "wrong": strings.Repeat("0", 32)} {
			// A plain form post is refused with 403 ...
			if resp, _ := k.send(path, form, tok, false); resp.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s with %s token: %d, want 403", path, name, resp.StatusCode)
			}
			// ... a Datastar action (which drops non-200 answers) gets the refusal in the flash area.
			if _, body := k.send(path, form, tok, true); !strings.Contains(body, `id="flash"`) || !strings.Contains(body, "CSRF token") {
				t.Errorf("Datastar POST %s with %s token: refusal not shown: %s", path, name, body)
			}
		}
	}
	if n := countRows(t, k.db, "weight_readings") + countRows(t, k.db, "meals") + countRows(t, k.db, "workouts") +
		countRows(t, k.db, "prompt_answers") + countRows(t, k.db, "playlist_items") + countRows(t, k.db, "content_consumed"); n != 0 {
		t.Fatalf("refused requests changed %d rows", n)
	}
	// The same request with the page's token goes through.
	if resp, _ := k.post("/m/ada/answer", routes["/m/ada/answer"], ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("answer with token: %d", resp.StatusCode)
	}
}

// A tap records the answer and answers with nothing to patch: the open
// stream of every screen (this one too) replaces the prompt by the answer.
func TestTapAnswerReachesTheStream(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, stream := k.openStream(ctx, "/live/m/ada")
	defer stream.Body.Close()
	s.until(t, 2*time.Second, `id="w-prompts"`, "p1")
	resp, body := k.post("/m/ada/answer", formOf("prompt", "p1", "kind", "tap", "answer", "Something lighter"), "")
	// The reply carries only the coach's acknowledgement (the flash); the
	// coach column changes through the stream, on every screen alike.
	if resp.StatusCode != http.StatusOK || strings.Contains(body, `id="w-prompts"`) || !strings.Contains(body, `id="flash"`) {
		t.Fatalf("tap answer: %d, want 200, an acknowledgement and no re-rendered view\n%s", resp.StatusCode, body)
	}
	s.until(t, time.Second, `id="w-prompts"`, `<span class="answer-text">Something lighter</span>`)
	// A second screen answering too keeps the first answer, not an error.
	if resp, _ = k.post("/m/ada/answer", formOf("prompt", "p1", "kind", "tap", "answer", "Rest day"), ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("second answer: %d", resp.StatusCode)
	}
	if answers, _ := k.ds.Today(ctx, "ada", time.Now()); answers.Prompts[0].Answer.Answer != "Something lighter" {
		t.Fatalf("p1 answered %q", answers.Prompts[0].Answer.Answer)
	}
	// A tap must be one of the options; typed text is the fallback.
	_, body = k.post("/m/ada/answer", formOf("prompt", "p2", "kind", "tap", "answer", "made up"), "")
	if !strings.Contains(body, `id="flash"`) || !strings.Contains(body, "options") {
		t.Errorf("invalid tap not reported in the flash area: %s", body)
	}
	k.post("/m/ada/answer", formOf("prompt", "p2", "kind", "text", "answer", "Tired but OK"), "")
	s.until(t, time.Second, `id="w-prompts"`, "Tired but OK")
}

// heardAnswers is a kiosk.Listener that acknowledges every answer it is
// given with a line naming it.
type heardAnswers struct {
	mu    sync.Mutex
	heard []string
}

func (h *heardAnswers) HeardAnswer(_ context.Context, member string, a dashboard.Answer) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.heard = append(h.heard, member+" "+a.PromptID+" "+a.Answer)
	return "Noted — " + strings.ToLower(a.Answer) + ".", nil
}

// The coach's acknowledgement of an answer comes back in the flash area
// of the screen that answered; an answer given elsewhere first is not
// heard again.
func TestAnswerIsAcknowledged(t *testing.T) {
	h := &heardAnswers{}
	k := newKioskWith(t, withOptions(func(o *app.Options) { o.Deps = func(d *web.Deps) { d.Listener = h } }))
	k.putDoc("ada", today(), sampleDoc("Morning."))
	resp, body := k.post("/m/ada/answer", formOf("prompt", "p1", "kind", "tap", "answer", "Something lighter"), "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="flash"`) || !strings.Contains(body, "Noted — something lighter.") {
		t.Fatalf("tap answer: %d, want the acknowledgement in the flash area\n%s", resp.StatusCode, body)
	}
	if _, body = k.post("/m/ada/answer", formOf("prompt", "p1", "kind", "tap", "answer", "Rest day"), ""); strings.Contains(body, "Noted") {
		t.Errorf("an answer already given was acknowledged again: %s", body)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.heard) != 1 || h.heard[0] != "ada p1 Something lighter" {
		t.Fatalf("heard %v", h.heard)
	}
}

func TestSheetValidationKeepsInput(t *testing.T) {
	k := newKiosk(t)
	_, body := k.post("/m/ada/weight", formOf("weight", "seventy"), "")
	if !strings.Contains(body, `id="form-weight"`) || !strings.Contains(body, "must be a number") || !strings.Contains(body, `value="seventy"`) {
		t.Fatalf("invalid weight: no inline error with the typed value kept:\n%s", body)
	}
	_, body = k.post("/m/ada/meal", formOf("name", "Soup", "calories", "-5"), "")
	if !strings.Contains(body, "between 0 and 10000") || !strings.Contains(body, `value="Soup"`) {
		t.Fatalf("invalid meal: %s", body)
	}
	if countRows(t, k.db, "weight_readings")+countRows(t, k.db, "meals") != 0 {
		t.Fatal("invalid sheets stored something")
	}
	_, body = k.post("/m/ada/weight", formOf("weight", "70,5"), "")
	if !strings.Contains(body, "Weight saved.") || !strings.Contains(body, `"_sheet":""`) {
		t.Fatalf("valid weight: sheet not closed with a message:\n%s", body)
	}
	ws, _ := k.hh.Weights(context.Background(), "ada", 1)
	if len(ws) != 1 || ws[0].WeightKg != 70.5 {
		t.Fatalf("weights = %+v", ws)
	}
	// bo weighs in pounds: the sheet takes his unit.
	k.post("/m/bo/weight", formOf("weight", "180"), "")
	ws, _ = k.hh.Weights(context.Background(), "bo", 1)
	if len(ws) != 1 || ws[0].WeightKg < 81.6 || ws[0].WeightKg > 81.7 {
		t.Fatalf("bo's 180 lb stored as %+v", ws)
	}
}

func TestPlaylistBuilder(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	k.putDoc("ada", today(), sampleDoc("Morning."))
	for _, id := range []string{"local:ember-core-01", "local:ember-core-02", "local:ember-core-03"} {
		if resp, body := k.post("/m/ada/playlist", formOf("op", "add", "id", id), ""); resp.StatusCode != 200 || strings.Contains(body, "datastar-patch-elements") {
			t.Fatalf("add %s: %d, want 200 and nothing to patch (the stream shows the playlist): %s", id, resp.StatusCode, body)
		}
	}
	step := func(op, pos, id string, want ...string) {
		t.Helper()
		k.post("/m/ada/playlist", formOf("op", op, "pos", pos, "id", id), "")
		got, err := k.ds.Playlist(ctx, "ada")
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("after %s %s: %v, want %v", op, id, got, want)
		}
	}
	step("down", "0", "local:ember-core-01", "local:ember-core-02", "local:ember-core-01", "local:ember-core-03")
	step("up", "2", "local:ember-core-03", "local:ember-core-02", "local:ember-core-03", "local:ember-core-01")
	step("remove", "0", "local:ember-core-02", "local:ember-core-03", "local:ember-core-01")
	// A stale position (another screen changed the list) still finds the id.
	step("remove", "5", "local:ember-core-01", "local:ember-core-03")
	step("clear", "", "")
	step("suggest", "", "", "local:ember-core-01", "local:ember-core-03")
	if resp, _ := k.post("/m/ada/playlist", formOf("op", "add", "id", "local:not-in-catalog"), ""); resp.StatusCode != 200 {
		t.Fatalf("unknown item: %d", resp.StatusCode)
	}
	if got, _ := k.ds.Playlist(ctx, "ada"); len(got) != 2 {
		t.Fatalf("an unknown content id was added: %v", got)
	}
	if code, body := k.get("/m/ada/play"); code != 200 || !strings.Contains(body, "Core Ignite") || !strings.Contains(body, "1 of 2") {
		t.Fatalf("player: %d", code)
	}
	resp, _ := k.post("/content/done", formOf("id", "local:ember-core-01", "m", "ada", "i", "0"), "")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/m/ada/play?i=1" {
		t.Fatalf("done in playlist: %d → %q", resp.StatusCode, loc)
	}
}

func TestContentDoneHidesUpNext(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	code, body := k.get("/content/local:ember-core-01?m=ada")
	if code != 200 || !strings.Contains(body, `id="done"`) || !strings.Contains(body, "Core Ignite") {
		t.Fatalf("content page: %d", code)
	}
	resp, _ := k.post("/content/done", formOf("id", "local:ember-core-01", "m", "ada"), "")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/m/ada" {
		t.Fatalf("done: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, body = k.get("/m/ada")
	if strings.Contains(body, `id="upnext"`) {
		t.Fatal("Up Next still shown after Done")
	}
	wos, _ := k.hh.Workouts(context.Background(), "ada", 5)
	if len(wos) != 1 || wos[0].ContentID != "local:ember-core-01" || wos[0].DurationMin != 15 {
		t.Fatalf("Done did not log the workout: %+v", wos)
	}
	if n := countRows(t, k.db, "content_consumed"); n != 1 {
		t.Fatalf("consumed marks = %d", n)
	}
	if code, _ := k.get("/content/local:nope"); code != http.StatusNotFound {
		t.Errorf("unknown content: %d", code)
	}
}

func TestLocalVideo(t *testing.T) {
	k := newKiosk(t)
	if code, body := k.get("/content/local:ember-core-02?m=ada"); code != 200 || strings.Contains(body, "<video") {
		t.Fatalf("no file yet: %d, video element shown", code)
	}
	if err := os.WriteFile(filepath.Join(k.dir, "ember-core-02.mp4"), []byte("\x00\x00\x00\x18ftypmp42 fake"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, body := k.get("/content/local:ember-core-02?m=ada")
	if code != 200 || !strings.Contains(body, `<video id="player" src="/content/local:ember-core-02/video"`) {
		t.Fatalf("content page with a local file: %d\n%s", code, body)
	}
	if code, body := k.get("/content/local:ember-core-02/video"); code != 200 || !strings.Contains(body, "ftypmp42") {
		t.Fatalf("video: %d", code)
	}
	for _, path := range []string{"/content/local:..%2Fhearth.db/video", "/content/plex:1/video", "/content/local:ember-core-03/video"} {
		if code, _ := k.get(path); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
	}
}

// webmHeader is the EBML magic of a WebM file plus filler.
var webmHeader = append([]byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81}, bytes.Repeat([]byte{0}, 100)...)

func (k *kiosk) upload(prompt, contentType string, audio []byte) (int, map[string]any) {
	k.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("prompt", prompt)
	if audio != nil {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="audio"; filename="memo.webm"`)
		h.Set("Content-Type", contentType)
		w, _ := mw.CreatePart(h)
		_, _ = w.Write(audio)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, k.srv.URL+"/m/ada/voice", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-CSRF-Token", k.csrf)
	req.Header.Set("Accept", "application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		k.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func TestVoiceUploadLimits(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	cases := []struct {
		name, ct string
		audio    []byte
		want     int
	}{
		{"png type", "image/png", webmHeader, http.StatusBadRequest},
		{"html as audio", "audio/webm", []byte("<html><script>alert(1)</script>"), http.StatusBadRequest},
		{"no file", "", nil, http.StatusBadRequest},
		{"too large", "audio/webm", append(append([]byte{}, webmHeader...), make([]byte, voice.MaxSize)...), http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, body := k.upload("p2", c.ct, c.audio)
			if code != c.want || body["error"] == nil {
				t.Fatalf("%d %v, want %d with an error message", code, body, c.want)
			}
		})
	}
	if n := countRows(t, k.db, "voice_memos"); n != 0 {
		t.Fatalf("refused uploads stored %d memos", n)
	}
	code, body := k.upload("p2", "audio/webm;codecs=opus", webmHeader)
	if code != http.StatusCreated || body["status"] != "stored" {
		t.Fatalf("good upload: %d %v", code, body)
	}
	// Without a model the memo is kept and the prompt offers a typed answer.
	_, page := k.get("/m/ada")
	if !strings.Contains(page, "Voice memo saved.") || !strings.Contains(page, "please also type a short answer") {
		t.Error("stored memo not reflected in the prompt")
	}
}
