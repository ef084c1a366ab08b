package llm

import (
	"context"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// ModelList is what GET {base}/models said.
type ModelList struct {
	// Status is the HTTP status (0 when the server could not be reached).
	Status int
	Models []ModelInfo
	// Err is why the list is missing: many servers have no /models (a 404
	// is "unknown", not a failure).
	Err error
}

// ModelInfo is one listed model with the fields servers add.
type ModelInfo struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by"`
	// MaxModelLen is vLLM's context size for the model.
	MaxModelLen int `json:"max_model_len"`
}

// Has reports whether model is listed.
func (l ModelList) Has(model string) bool {
	for _, m := range l.Models {
		if m.ID == model {
			return true
		}
	}
	return false
}

// family infers the server from owned_by: llama.cpp's "llamacpp" and
// vLLM's "vllm" (their model cards), LM Studio's "organization_owner",
// Ollama's model namespace ("library" for its own models).
func (l ModelList) family() Family {
	for _, m := range l.Models {
		switch m.OwnedBy {
		case "llamacpp":
			return FamilyLlamaCpp
		case "vllm":
			return FamilyVLLM
		case "organization_owner":
			return FamilyLMStudio
		case "library":
			return FamilyOllama
		case "openai", "system", "openai-internal":
			return FamilyOpenAI
		}
	}
	return ""
}

// contextFor is the listed context size of model (vLLM), 0 if unknown.
func (l ModelList) contextFor(model string) int {
	for _, m := range l.Models {
		if m.ID == model {
			return m.MaxModelLen
		}
	}
	return 0
}

// modelsTimeout bounds the model listing, which is only a hint.
const modelsTimeout = 10 * time.Second

// ListModels asks the server for its models, once and without retries.
func (c *OpenAI) ListModels(ctx context.Context) ModelList {
	var resp *http.Response
	var out struct {
		Data []ModelInfo `json:"data"`
	}
	cp := &capture{}
	err := c.client.Get(ctx, "models", nil, &out, option.WithRequestTimeout(modelsTimeout), option.WithMaxRetries(0),
		option.WithMiddleware(cp.middleware()), option.WithResponseInto(&resp))
	l := ModelList{Models: out.Data}
	if resp != nil {
		l.Status = resp.StatusCode
	}
	if err != nil {
		l.Err = cp.explain(err, c.cfg.APIKey)
	}
	return l
}
