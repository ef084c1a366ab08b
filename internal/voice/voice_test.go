package voice

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// webm is the start of a real WebM file (EBML header) followed by filler.
var webm = append([]byte{0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01}, bytes.Repeat([]byte{0}, 64)...)

func fixture(t *testing.T) (*dashboard.Store, *live.Hub) {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	hub := live.NewHub()
	ds := dashboard.NewStore(db, hub, time.UTC)
	doc := dashboard.Document{GeneratedAt: time.Now().UTC(), Coach: dashboard.Coach{Briefing: "Morning.",
		Prompts: []dashboard.Prompt{{ID: "energy", Type: dashboard.PromptVoiceMemo, Question: "How is your energy?"}}}}
	err := db.Tx(context.Background(), func(tx *store.Tx) error {
		return ds.PutTx(context.Background(), tx, time.Now(), "ada", ds.Day(time.Now()), 0, doc, "test")
	})
	if err != nil {
		t.Fatal(err)
	}
	return ds, hub
}

// fakeTranscriptions serves /v1/audio/transcriptions like the OpenAI API.
func fakeTranscriptions(t *testing.T, status int, text string, calls *atomic.Int32) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/audio/transcriptions" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer test-key" {
			t.Errorf("Authorization = %q", got)
		}
		f, hdr, err := r.FormFile("file")
		if err != nil {
			t.Errorf("no file part: %v", err)
			return
		}
		b, _ := io.ReadAll(f)
		if !bytes.Equal(b, webm) || !strings.HasSuffix(hdr.Filename, ".webm") || r.FormValue("model") != "whisper-1" {
			t.Errorf("upload: %d bytes, name %q, model %q", len(b), hdr.Filename, r.FormValue("model"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status != http.StatusOK {
			_, _ = io.WriteString(w, `{"error":{"message":"boom","type":"server_error"}}`)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"text": text})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSaveTranscribesAndAnswers(t *testing.T) {
	ds, hub := fixture(t)
	fake := llmtest.New(t) // the agent's fake OpenAI server, /v1/audio/transcriptions included
	fake.SetTranscript("  Pretty tired, slept badly. ")
	sub := hub.Subscribe(live.MemberTopic("ada"))
	defer sub.Close()
	dir := t.TempDir()
	s := New(ds, Options{DataDir: dir, Publisher: hub, Transcriber: NewOpenAI(fake.URL(), "test-key", "", nil)})
	if !s.Transcribes() {
		t.Fatal("Transcribes() = false with a transcriber")
	}
	res, err := s.Save(context.Background(), "ada", "energy", "audio/webm;codecs=opus", bytes.NewReader(webm))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "transcribed" || !res.Answered || res.Transcript != "Pretty tired, slept badly." {
		t.Fatalf("result = %+v", res)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Form["model"] != DefaultModel || !strings.HasSuffix(reqs[0].FileName, ".webm") ||
		reqs[0].Header.Get("Authorization") != "Bearer test-key" {
		t.Fatalf("transcription request: %+v", reqs)
	}
	stored, err := os.ReadFile(filepath.Join(dir, res.Memo.Path))
	if err != nil || !bytes.Equal(stored, webm) {
		t.Fatalf("stored audio: %v", err)
	}
	if !strings.HasPrefix(res.Memo.Path, filepath.Join("voice", "ada")) {
		t.Errorf("path %q not under voice/ada", res.Memo.Path)
	}
	memos, err := ds.VoiceMemos(context.Background(), "ada", time.Time{})
	if err != nil || len(memos) != 1 || memos[0].Transcript != "Pretty tired, slept badly." || memos[0].Status != "transcribed" {
		t.Fatalf("memos = %+v, %v", memos, err)
	}
	answers, err := ds.Answers(context.Background(), "ada", ds.Day(time.Now()))
	if err != nil || answers["energy"].Kind != "voice" || answers["energy"].VoiceMemoID != res.Memo.ID {
		t.Fatalf("answers = %+v, %v", answers, err)
	}
	kinds := map[live.Kind]bool{}
	for len(sub.C()) > 0 {
		kinds[(<-sub.C()).Kind] = true
	}
	if !kinds["voice"] || !kinds["answer"] {
		t.Errorf("published kinds = %v, want voice and answer", kinds)
	}
}

func TestSaveWithoutModelKeepsAudio(t *testing.T) {
	ds, _ := fixture(t)
	s := New(ds, Options{DataDir: t.TempDir()})
	res, err := s.Save(context.Background(), "ada", "energy", "audio/webm", bytes.NewReader(webm))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "stored" || res.Answered || res.Message == "" {
		t.Fatalf("result = %+v", res)
	}
	answers, _ := ds.Answers(context.Background(), "ada", ds.Day(time.Now()))
	if len(answers) != 0 {
		t.Fatalf("answers recorded without a transcript: %+v", answers)
	}
}

func TestSaveTranscriptionFailureKeepsAudio(t *testing.T) {
	ds, _ := fixture(t)
	var calls atomic.Int32
	srv := fakeTranscriptions(t, http.StatusInternalServerError, "", &calls)
	s := New(ds, Options{DataDir: t.TempDir(), Transcriber: NewOpenAI(srv.URL+"/v1", "test-key", "", nil)})
	res, err := s.Save(context.Background(), "ada", "energy", "audio/webm", bytes.NewReader(webm))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "failed" || res.Answered {
		t.Fatalf("result = %+v", res)
	}
	memos, _ := ds.VoiceMemos(context.Background(), "ada", time.Time{})
	if len(memos) != 1 || memos[0].Status != "failed" {
		t.Fatalf("memos = %+v", memos)
	}
	if calls.Load() < 1 {
		t.Error("transcription endpoint never called")
	}
}

func TestSaveRejects(t *testing.T) {
	ds, _ := fixture(t)
	dir := t.TempDir()
	s := New(ds, Options{DataDir: dir})
	big := append(append([]byte{}, webm...), bytes.Repeat([]byte{1}, MaxSize)...)
	cases := map[string]struct {
		member, ct string
		body       []byte
		code       apperr.Code
	}{
		"image type":      {"ada", "image/png", webm, apperr.Invalid},
		"script as audio": {"ada", "audio/webm", []byte("<script>alert(1)</script>"), apperr.Invalid},
		"wrong family":    {"ada", "audio/ogg", webm, apperr.Invalid},
		"empty":           {"ada", "audio/webm", nil, apperr.Invalid},
		"too large":       {"ada", "audio/webm", big, apperr.TooLarge},
		"bad member":      {"../x", "audio/webm", webm, apperr.Invalid},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := s.Save(context.Background(), c.member, "energy", c.ct, bytes.NewReader(c.body))
			if got := apperr.CodeOf(err); got != c.code {
				t.Fatalf("code = %v (%v), want %v", got, err, c.code)
			}
		})
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "voice", "ada")); len(entries) != 0 {
		t.Errorf("rejected uploads left %d files", len(entries))
	}
	memos, _ := ds.VoiceMemos(context.Background(), "ada", time.Time{})
	if len(memos) != 0 {
		t.Errorf("rejected uploads stored %d memos", len(memos))
	}
}

func TestSniff(t *testing.T) {
	ok := map[string][]byte{
		"audio/webm": webm,
		"audio/ogg":  []byte("OggS\x00\x02rest-of-page"),
		"audio/mp4":  []byte("\x00\x00\x00\x20ftypM4A \x00\x00"),
		"audio/mpeg": []byte("ID3\x04\x00\x00"),
		"audio/wav":  []byte("RIFF\x24\x00\x00\x00WAVEfmt "),
	}
	for mime, b := range ok {
		if !Sniff(mime, b) {
			t.Errorf("Sniff(%s) = false for a valid header", mime)
		}
		if Sniff(mime, []byte("GIF89a-not-audio")) {
			t.Errorf("Sniff(%s) accepted a GIF", mime)
		}
	}
	if _, ok := MIMEType("Audio/WebM; codecs=opus"); !ok {
		t.Error("MIMEType did not normalise parameters and case")
	}
}

// A memo must answer a question the member was asked today, and a member's
// memos are capped per day; member ids with dashes work.
func TestSavePromptAndQuota(t *testing.T) {
	ds, hub := fixture(t)
	s := New(ds, Options{DataDir: t.TempDir(), Publisher: hub, DailyMemos: 2, DailyBytes: 1 << 20})
	ctx := context.Background()
	if _, err := s.Save(ctx, "ada", "made-up", "audio/webm", bytes.NewReader(webm)); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("unknown prompt: %v", err)
	}
	for i := range 2 {
		if _, err := s.Save(ctx, "ada", "energy", "audio/webm", bytes.NewReader(webm)); err != nil {
			t.Fatalf("memo %d: %v", i, err)
		}
	}
	if _, err := s.Save(ctx, "ada", "energy", "audio/webm", bytes.NewReader(webm)); !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("third memo of the day: %v, want TooMany", err)
	}
	big := New(ds, Options{DataDir: t.TempDir(), Publisher: hub, DailyBytes: 100})
	if _, err := big.Save(ctx, "ada", "energy", "audio/webm", bytes.NewReader(webm)); !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("over the daily bytes: %v", err)
	}

	// "mary-jane" is a valid member id everywhere.
	db := storetest.Open(t)
	storetest.Member(t, db, "mary-jane")
	mj := dashboard.NewStore(db, hub, time.UTC)
	doc := dashboard.Document{GeneratedAt: time.Now().UTC(), Coach: dashboard.Coach{
		Prompts: []dashboard.Prompt{{ID: "energy", Type: dashboard.PromptVoiceMemo, Question: "Energy?"}}}}
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		return mj.PutTx(ctx, tx, time.Now(), "mary-jane", mj.Day(time.Now()), 0, doc, "test")
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(mj, Options{DataDir: t.TempDir()}).Save(ctx, "mary-jane", "energy", "audio/webm", bytes.NewReader(webm)); err != nil {
		t.Fatalf("mary-jane: %v", err)
	}
}

// The daily quota holds under parallel uploads: 30 recordings sent at
// once store exactly the quota's worth, by count and by bytes, and no
// refused recording is left on disk.
func TestQuotaHoldsUnderParallelUploads(t *testing.T) {
	memo := append(append([]byte(nil), webm...), bytes.Repeat([]byte{0}, 3000)...)
	for _, tc := range []struct {
		name string
		opt  Options
		want int
	}{
		{"count", Options{DailyMemos: 20, DailyBytes: 1 << 30}, 20},
		{"bytes", Options{DailyMemos: 1000, DailyBytes: int64(12*len(memo) + len(memo)/2)}, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, hub := fixture(t)
			tc.opt.DataDir, tc.opt.Publisher = t.TempDir(), hub
			s := New(ds, tc.opt)
			ctx := context.Background()
			const senders = 30
			start := make(chan struct{})
			errs := make(chan error, senders)
			for range senders {
				go func() {
					<-start
					_, err := s.Save(ctx, "ada", "energy", "audio/webm", bytes.NewReader(memo))
					errs <- err
				}()
			}
			close(start)
			stored := 0
			for range senders {
				switch err := <-errs; {
				case err == nil:
					stored++
				case !apperr.Is(err, apperr.TooMany):
					t.Errorf("unexpected refusal: %v", err)
				}
			}
			n, size, err := ds.VoiceUsage(ctx, "ada", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if stored != tc.want || n != tc.want || size > tc.opt.DailyBytes {
				t.Fatalf("%d uploads accepted, %d memos (%d bytes) stored; want %d within %d memos / %d bytes",
					stored, n, size, tc.want, tc.opt.DailyMemos, tc.opt.DailyBytes)
			}
			files, _ := filepath.Glob(filepath.Join(tc.opt.DataDir, "voice", "ada", "*"))
			if len(files) != tc.want {
				t.Fatalf("%d files on disk for %d memos", len(files), tc.want)
			}
		})
	}
}
