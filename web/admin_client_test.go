package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/schedule"
)

// page GETs a page as the browser; it returns the status and body.
func (env *adminEnv) page(path string) (int, string) {
	env.t.Helper()
	resp, err := env.client.Get(env.srv.URL + path)
	if err != nil {
		env.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// token is the browser's CSRF cookie (a GET first sets it).
func (env *adminEnv) token() string {
	env.t.Helper()
	u, _ := url.Parse(env.srv.URL)
	for _, ck := range env.client.Jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			return ck.Value
		}
	}
	if code, _ := env.page("/admin/login"); code != http.StatusOK {
		env.t.Fatalf("GET /admin/login: %d", code)
	}
	return env.token()
}

// form POSTs a form as the browser with its CSRF token; datastar makes it
// a Datastar request (header token instead of the form field).
func (env *adminEnv) form(path string, values url.Values, datastar bool) (*http.Response, string) {
	env.t.Helper()
	tok := env.token()
	if values == nil {
		values = url.Values{}
	}
	if !datastar {
		values.Set("_csrf", tok)
	}
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if datastar {
		req.Header.Set("Datastar-Request", "true")
		req.Header.Set("X-CSRF-Token", tok)
	}
	resp, err := env.client.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// upload POSTs a multipart form with one file as the browser.
func (env *adminEnv) upload(path string, fields map[string]string, fileField, fileName string, data []byte, datastar bool) (*http.Response, string) {
	env.t.Helper()
	tok := env.token()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if !datastar {
		_ = mw.WriteField("_csrf", tok)
	}
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if fileField != "" {
		fw, _ := mw.CreateFormFile(fileField, fileName)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if datastar {
		req.Header.Set("Datastar-Request", "true")
		req.Header.Set("X-CSRF-Token", tok)
	}
	resp, err := env.client.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// api calls a JSON API as a script (no cookies); hdr adds headers.
func (env *adminEnv) api(method, path, body string, hdr ...string) (int, map[string]any) {
	env.t.Helper()
	req, _ := http.NewRequest(method, env.srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		env.t.Fatalf("%s %s: %d non-JSON answer %q", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

// eventStream reads Datastar SSE events.
type eventStream struct {
	r    *bufio.Reader
	body io.ReadCloser
	ch   chan string
}

// openLive opens an admin live stream as the browser; cancel ctx to close it.
func (env *adminEnv) openLive(ctx context.Context, path string) *eventStream {
	env.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, env.srv.URL+path, nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := env.client.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		env.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &eventStream{r: bufio.NewReader(resp.Body), body: resp.Body, ch: make(chan string, 64)}
	go s.pump()
	env.t.Cleanup(func() { resp.Body.Close() })
	return s
}

func (s *eventStream) pump() {
	defer close(s.ch)
	var b strings.Builder
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return
		}
		if line == "\n" {
			if b.Len() > 0 {
				s.ch <- b.String()
				b.Reset()
			}
			continue
		}
		b.WriteString(line)
	}
}

// waitEvent returns the first event containing every want, failing after d.
func (s *eventStream) waitEvent(t *testing.T, d time.Duration, want ...string) string {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case ev, ok := <-s.ch:
			if !ok {
				t.Fatalf("stream ended waiting for %q", want)
			}
			all := true
			for _, w := range want {
				all = all && strings.Contains(ev, w)
			}
			if all {
				return ev
			}
		case <-deadline:
			t.Fatalf("no event with %q within %v", want, d)
		}
	}
}

// sseBody splits a complete SSE answer into its events.
func sseEvents(body string) []string {
	var out []string
	for _, ev := range strings.Split(body, "\n\n") {
		if strings.TrimSpace(ev) != "" {
			out = append(out, ev)
		}
	}
	return out
}

func mustContain(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Fatalf("%s: missing %q in:\n%s", what, w, body)
		}
	}
}

func mustNotContain(t *testing.T, what, body string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(body, w) {
			t.Fatalf("%s: unexpected %q in:\n%s", what, w, body)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func agentFilter() agent.RunFilter    { return agent.RunFilter{} }
func taskFilter() schedule.TaskFilter { return schedule.TaskFilter{} }
