package voice

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// DefaultModel is the transcription model used when none is named.
const DefaultModel = "whisper-1"

// OpenAI transcribes through an OpenAI-compatible /audio/transcriptions
// endpoint (OpenAI, or a local server that offers it).
type OpenAI struct {
	client openai.Client
	model  string
}

// NewOpenAI returns a transcriber for baseURL ("" = OpenAI's) with apiKey;
// hc may be nil. Retries once; each attempt is bounded to 60 s.
func NewOpenAI(baseURL, apiKey, model string, hc *http.Client) *OpenAI {
	if model == "" {
		model = DefaultModel
	}
	if apiKey == "" {
		apiKey = "unused" // local servers ignore it, the client insists on one
	}
	opts := []option.RequestOption{option.WithAPIKey(apiKey), option.WithMaxRetries(1),
		option.WithRequestTimeout(60 * time.Second)}
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL))
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	return &OpenAI{client: openai.NewClient(opts...), model: model}
}

// Transcribe sends the audio (filename and type let the server detect the format).
func (o *OpenAI) Transcribe(ctx context.Context, audio io.Reader, filename, mime string) (string, error) {
	tr, err := o.client.Audio.Transcriptions.New(ctx, openai.AudioTranscriptionNewParams{
		File:  openai.File(audio, filename, mime),
		Model: openai.AudioModel(o.model),
	})
	if err != nil {
		return "", fmt.Errorf("voice: transcribe: %w", err)
	}
	return strings.TrimSpace(tr.Text), nil
}
