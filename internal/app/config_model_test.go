package app_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/llm"
	"hearth/internal/app"
)

// The model server settings: family, context window and phase timeouts
// reach the runtime's configuration; bad values are refused by name.
func TestModelServerConfig(t *testing.T) {
	load := func(env map[string]string) (app.Config, error) {
		return app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	}
	cfg, err := load(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ModelServer != "" || cfg.ModelContext != 0 || cfg.ModelTimeout != 3*time.Minute || cfg.ModelConnectTimeout != 10*time.Second ||
		cfg.ModelFirstTokenTimeout != 0 || cfg.RunTimeout != 10*time.Minute {
		t.Fatalf("defaults: %+v", cfg)
	}
	cfg, err = load(map[string]string{"HEARTH_MODEL_SERVER": "llama.cpp", "HEARTH_MODEL_CONTEXT": "4096", "HEARTH_MODEL_TIMEOUT": "15m",
		"HEARTH_MODEL_CONNECT_TIMEOUT": "3s", "HEARTH_MODEL_FIRST_TOKEN_TIMEOUT": "5m", "HEARTH_RUN_TIMEOUT": "45m",
		"OPENAI_BASE_URL": "http://pi.lan:8080/v1"})
	if err != nil {
		t.Fatal(err)
	}
	mc := cfg.ModelConfig(nil)
	if mc.Server != llm.FamilyLlamaCpp || mc.ContextTokens != 4096 || mc.RequestTimeout != 15*time.Minute || mc.ConnectTimeout != 3*time.Second ||
		mc.FirstTokenTimeout != 5*time.Minute || cfg.RunTimeout != 45*time.Minute || mc.BaseURL != "http://pi.lan:8080/v1" {
		t.Fatalf("model config: %+v", mc)
	}
	for env, want := range map[string]string{
		"HEARTH_MODEL_SERVER=koboldcpp":        "HEARTH_MODEL_SERVER",
		"HEARTH_MODEL_CONTEXT=100":             "HEARTH_MODEL_CONTEXT",
		"HEARTH_MODEL_TIMEOUT=0":               "HEARTH_MODEL_TIMEOUT",
		"HEARTH_MODEL_CONNECT_TIMEOUT=fast":    "HEARTH_MODEL_CONNECT_TIMEOUT",
		"HEARTH_MODEL_FIRST_TOKEN_TIMEOUT=1ms": "HEARTH_MODEL_FIRST_TOKEN_TIMEOUT",
		"HEARTH_RUN_TIMEOUT=1m":                "shorter than HEARTH_MODEL_TIMEOUT",
	} {
		k, v, _ := strings.Cut(env, "=")
		if _, err := load(map[string]string{k: v}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", env, err)
		}
	}
	for _, v := range []string{"model_server", "model_timeout", "run_timeout", "model_context"} {
		found := false
		for _, s := range cfg.Summary() {
			if s == v {
				found = true
			}
		}
		if !found {
			t.Errorf("the start log lacks %s", v)
		}
	}
}

// The household's run budget reaches the config; bad values are refused.
func TestRunBudgetConfig(t *testing.T) {
	load := func(env map[string]string) (app.Config, error) {
		return app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	}
	cfg, err := load(map[string]string{"HEARTH_RUN_BUDGET_PROMPT_TOKENS": "4000", "HEARTH_RUN_BUDGET_COMPLETION_TOKENS": "1500"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RunBudget.PromptTokens != 4000 || cfg.RunBudget.CompletionTokens != 1500 {
		t.Fatalf("run budget = %+v", cfg.RunBudget)
	}
	for _, k := range []string{"HEARTH_RUN_BUDGET_PROMPT_TOKENS", "HEARTH_RUN_BUDGET_COMPLETION_TOKENS"} {
		if _, err := load(map[string]string{k: "-1"}); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=-1: %v", k, err)
		}
	}
}
