package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store/storetest"
)

// checkBrain answers the check's three questions.
func checkBrain(r llmtest.Request) llmtest.Reply {
	q := r.Messages()[len(r.Messages())-1].Content
	for _, m := range r.Messages() {
		if m.Role == "user" && !strings.HasPrefix(m.Content, "Tool result:") {
			q = m.Content
		}
	}
	switch {
	case strings.Contains(q, "2 + 3"):
		if r.ResponseFormat() == nil {
			return llmtest.Text("The answer:\n```json\n{\"sum\": 5, \"word\": \"five\"}\n```", 9, 9)
		}
		return llmtest.Text(`{"sum":5,"word":"five"}`, 9, 9)
	case strings.Contains(q, "add tool"):
		if len(r.ToolNames()) > 0 && !r.HasToolResults() {
			return llmtest.Tool("add", map[string]int{"a": 2, "b": 3})
		}
		return llmtest.Text("The result is 5.", 9, 4)
	}
	return llmtest.Text("Hello there, dear household friends!", 9, 7)
}

// The connection check reports what works on each family and which
// settings Hearth chose, and saves them.
func TestCheckAcrossFamilies(t *testing.T) {
	for _, tc := range []struct {
		fam                               llmtest.Family
		models, structured, tools, stream string
		family                            llm.Family
		output                            llm.OutputMode
	}{
		{llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-test"}), "degraded", "ok", "ok", "ok", llm.FamilyOpenAI, llm.OutputJSONSchema},
		{llmtest.Ollama(llmtest.OllamaOptions{NoTools: true}), "degraded", "ok", "degraded", "ok", llm.FamilyOllama, llm.OutputJSONSchema},
		{llmtest.VLLM(llmtest.VLLMOptions{Served: "m"}), "ok", "ok", "degraded", "ok", llm.FamilyVLLM, llm.OutputJSONSchema},
		{llmtest.LMStudio(llmtest.LMStudioOptions{DefaultToolFormat: true}), "degraded", "ok", "degraded", "ok", llm.FamilyLMStudio, llm.OutputJSONSchema},
		{llmtest.Minimal(llmtest.MinimalOptions{}), "unknown", "degraded", "degraded", "ok", llm.FamilyGeneric, llm.OutputText},
	} {
		t.Run(tc.fam.Name, func(t *testing.T) {
			srv := llmtest.NewFamily(t, tc.fam)
			srv.Otherwise(checkBrain)
			c, store := runtimeFor(t, srv, nil)
			var seen int
			rep := c.Check(context.Background(), func(llm.CheckReport) { seen++ })
			if !rep.Done || len(rep.Steps) != 4 || seen < 8 {
				t.Fatalf("report %+v after %d progress calls", rep, seen)
			}
			got := []string{rep.Steps[0].State, rep.Steps[1].State, rep.Steps[2].State, rep.Steps[3].State}
			want := []string{tc.models, tc.structured, tc.tools, tc.stream}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				for _, s := range rep.Steps {
					t.Logf("%s: %s: %s", s.Name, s.State, s.Detail)
				}
				t.Fatalf("states %v, want %v", got, want)
			}
			if !rep.Usable() || rep.Profile.Family != tc.family || rep.Profile.Output != tc.output || rep.Profile.CheckedAt.IsZero() {
				t.Fatalf("profile %+v", rep.Profile)
			}
			if p, ok, _ := store.Load(context.Background(), srv.URL(), "m"); !ok || !p.CheckedAt.Equal(rep.Profile.CheckedAt) {
				t.Fatalf("stored %+v", p)
			}
		})
	}
}

func TestCheckOfAnUnreachableServer(t *testing.T) {
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: "http://127.0.0.1:1/v1", Model: "m", ConnectTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rep := c.Check(context.Background(), nil)
	if rep.Usable() || rep.Steps[0].State != llm.CheckFailed || !strings.Contains(rep.Steps[1].Detail, "connection refused") {
		t.Fatalf("%+v", rep.Steps)
	}
}

type events struct{ n int }

func (e *events) Publish(topic string, kind live.Kind, _ any) {
	if topic == live.TopicAdmin && kind == live.KindModel {
		e.n++
	}
}

// Admin → Model over a real database: a check in the background with
// progress events, one at a time; the endpoint remembered and reset.
func TestModelAdmin(t *testing.T) {
	db := storetest.Open(t)
	ends := llm.NewEndpoints(db)
	srv := llmtest.NewFamily(t, llmtest.Minimal(llmtest.MinimalOptions{}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		time.Sleep(20 * time.Millisecond)
		return checkBrain(r)
	})
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL() + "/", Model: "m", Profiles: ends})
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	slots, taken := 0, 0
	adm := llm.NewModelAdmin(context.Background(), c, ends, ev, llm.AdminOptions{Slot: func(context.Context) (func(), error) {
		slots++
		taken++
		return func() { slots-- }, nil
	}})
	if _, _, ok := adm.LastCheck(); ok {
		t.Fatal("a check before any ran")
	}
	if err := adm.StartCheck(); err != nil {
		t.Fatal(err)
	}
	if err := adm.StartCheck(); apperr.CodeOf(err) != apperr.Conflict {
		t.Fatalf("second check: %v", err)
	}
	adm.Wait()
	if taken != 1 || slots != 0 {
		t.Fatalf("model slot taken %d times, %d not given back; want 1 and 0", taken, slots)
	}
	rep, running, ok := adm.LastCheck()
	if !ok || running || !rep.Done || !rep.Usable() || ev.n < 8 {
		t.Fatalf("check %+v running %v, %d events", rep, running, ev.n)
	}
	list, err := adm.Endpoints(context.Background())
	if err != nil || len(list) != 1 || list[0].BaseURL != srv.URL() || list[0].Output != llm.OutputText || len(list[0].Learned) == 0 {
		t.Fatalf("endpoints %+v, %v", list, err)
	}
	if err := adm.Reset(context.Background(), srv.URL(), "m"); err != nil {
		t.Fatal(err)
	}
	if list, _ := adm.Endpoints(context.Background()); len(list) != 0 {
		t.Fatalf("after reset: %+v", list)
	}
	if err := adm.Reset(context.Background(), srv.URL(), "m"); apperr.CodeOf(err) != apperr.NotFound {
		t.Fatalf("reset of nothing: %v", err)
	}
	none := llm.NewModelAdmin(context.Background(), nil, ends, nil, llm.AdminOptions{})
	if _, ok := none.Configured(); ok {
		t.Fatal("configured without a runtime")
	}
	if err := none.StartCheck(); apperr.CodeOf(err) != apperr.Invalid {
		t.Fatalf("check without a model: %v", err)
	}
}
