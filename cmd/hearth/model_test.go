package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/store"
)

// `hearth model check` against an Ollama whose model has no tool
// support: every step is reported, tools are found missing, and the
// settings are remembered in the database for the server.
func TestModelCheckSubcommand(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.Ollama(llmtest.OllamaOptions{NoTools: true}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Messages()[0].Content, "2 + 3") {
			return llmtest.Text(`{"sum":5,"word":"five"}`, 5, 5)
		}
		return llmtest.Text("Hello, dear household, good day!", 5, 5)
	})
	dir := t.TempDir()
	vars := map[string]string{"HEARTH_DATA": dir, "OPENAI_BASE_URL": srv.URL()}
	env := func(k string) string { return vars[k] }
	var out, errb bytes.Buffer
	if code := runModel([]string{"check", "-model", "qwen2.5:7b"}, env, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"Checking qwen2.5:7b at " + srv.URL() + " (no API key)", "Model list", "Structured output  ok",
		"Tool call          degraded tools do not work here", "does not support tools", "Streamed reply     ok",
		"Server family: ollama (recognised by model list)", "tool-less", "Remembered for the server", "The coach can use this model."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	db, err := store.Open(context.Background(), filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := llm.NewEndpoints(db).List(context.Background())
	if err != nil || len(list) != 1 || list[0].Tools != llm.ToolsNone || list[0].CheckedAt.IsZero() {
		t.Fatalf("remembered %+v, %v", list, err)
	}

	if code := runModel([]string{"check"}, func(k string) string { return map[string]string{"HEARTH_DATA": dir}[k] }, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "no model is configured") {
		t.Fatalf("unconfigured: exit %d, %s", code, errb.String())
	}
	if code := runModel(nil, env, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: hearth model check") {
		t.Fatalf("no subcommand: exit %d", code)
	}
	vars["OPENAI_BASE_URL"] = "http://127.0.0.1:1/v1"
	out.Reset()
	if code := runModel([]string{"check"}, env, &out, &errb); code != 1 || !strings.Contains(out.String(), "cannot use this model") {
		t.Fatalf("unreachable server: exit %d\n%s", code, out.String())
	}
}
