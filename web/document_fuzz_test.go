package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/store"
)

// FuzzDashboardDocument stores an arbitrary dashboard document (model
// output is outside input) for today and renders the member's page and live
// stream from it: never a 5xx, never the model's markup verbatim, never
// model text inside a Datastar expression.
//
//	go test -run '^$' -fuzz FuzzDashboardDocument -fuzztime 30s ./web/
func FuzzDashboardDocument(f *testing.F) {
	good := `{"generated_at":"2026-02-14T04:12:00Z","curated":{"up_next":{"primary":{"content_id":"local:ember-core-01",` +
		`"title":"Core Ignite","duration":15,"program_context":"Week 1, Day 1","reason":""},"alternates":[{"content_id":` +
		`"local:ember-core-02","title":"Plank Ladder","duration":18,"program_context":"","reason":"lighter"}]},` +
		`"playlist_suggestion":[{"content_id":"local:ember-core-01","title":"Core Ignite","duration":15,"program_context":"","reason":""}]},` +
		`"coach":{"briefing":"Morning.","cta":[{"type":"data_gap","message":"No meals logged yesterday.","action":"open_nutrition"}],` +
		`"prompts":[{"id":"p1","type":"multiple_choice","question":"Ready?","options":["Yes","No"]},` +
		`{"id":"p2","type":"voice_memo","question":"How was it?","options":[]}],"feedback":["Nice."]}}`
	f.Add([]byte(good))
	for _, inj := range []string{`<script>sweep(1)</script>`, `'); sweep(2); ('`, `"><img src=x onerror=sweep(2)>`, `$x = 1; @post('/x')`} {
		f.Add([]byte(strings.ReplaceAll(good, "Morning.", strings.ReplaceAll(inj, `"`, `\"`))))
		f.Add([]byte(strings.ReplaceAll(good, `"p1"`, `"`+strings.ReplaceAll(inj, `"`, `\"`)+`"`)))
		f.Add([]byte(strings.ReplaceAll(good, `"open_nutrition"`, `"`+strings.ReplaceAll(inj, `"`, `\"`)+`"`)))
		f.Add([]byte(strings.ReplaceAll(good, `"local:ember-core-01"`, `"`+strings.ReplaceAll(inj, `"`, `\"`)+`"`)))
	}
	f.Add([]byte(`{"curated":{"up_next":{"primary":null}},"coach":{"prompts":[{"type":"multiple_choice","options":[]}]}}`))
	f.Add([]byte(`{}`))
	s := newSweepServer(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw []byte) {
		var doc dashboard.Document
		if json.Unmarshal(raw, &doc) != nil {
			return
		}
		day := s.app.Dashboards.Day(time.Now())
		err := s.app.DB.Tx(ctx, func(tx *store.Tx) error {
			return s.app.Dashboards.PutTx(ctx, tx, time.Now(), "maya", day, 0, doc, "fuzz")
		})
		if err != nil {
			t.Fatalf("store: %v", err)
		}
		for _, p := range []string{"/m/maya", "/live/m/maya", "/api/v1/health-dashboard/maya/today"} {
			rec := s.do(swReq{method: http.MethodGet, path: p})
			if rec.Code >= 500 {
				t.Fatalf("GET %s: %d: %.300s", p, rec.Code, rec.Body.String())
			}
			body := rec.Body.String()
			swCheckEscaped(t, "GET "+p, body)
			if strings.Contains(body, "sweep(2)") && !strings.HasPrefix(p, "/api/") {
				// Model text may appear as escaped element text, never inside data-* expressions.
				for _, attr := range []string{`data-on:`, `data-init`, `data-show=`, `data-text=`, `data-effect=`, `data-signals=`} {
					for _, frag := range strings.Split(body, attr)[1:] {
						if end := strings.IndexAny(frag, ">"); end >= 0 && strings.Contains(frag[:end], "sweep(2)") {
							t.Fatalf("GET %s: model text inside a Datastar expression: %s%.200s", p, attr, frag)
						}
					}
				}
			}
		}
	})
}

// FuzzVoiceUpload sends arbitrary audio bytes with arbitrary content types
// to the voice-memo route, as the recorder's multipart upload.
//
//	go test -run '^$' -fuzz FuzzVoiceUpload -fuzztime 30s ./web/
func FuzzVoiceUpload(f *testing.F) {
	f.Add("audio/webm", []byte{0x1A, 0x45, 0xDF, 0xA3, 1, 2, 3}, "p2")
	f.Add("audio/ogg", []byte("OggS\x00\x02"), "p2")
	f.Add("audio/mp4", []byte("\x00\x00\x00\x18ftypM4A "), "p1")
	f.Add("audio/webm;codecs=opus", []byte("<script>sweep(1)</script>"), "<script>sweep(1)</script>")
	f.Add("image/png", []byte("\x89PNG\r\n\x1a\n"), "p2")
	f.Add("", []byte{}, "")
	s := newSweepServer(f)
	f.Fuzz(func(t *testing.T, ctype string, data []byte, prompt string) {
		if strings.ContainsAny(ctype, "\r\n\x00") {
			return // not a header value a client can send
		}
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		_ = w.WriteField("prompt", prompt)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="audio"; filename="memo"`)
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		part, _ := w.CreatePart(h)
		_, _ = part.Write(data)
		_ = w.Close()
		fuzzCheck(t, s, swReq{method: http.MethodPost, path: "/m/maya/voice", ctype: w.FormDataContentType(), body: body.Bytes()})
	})
}
