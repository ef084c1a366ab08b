package llm

import (
	"context"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3"
)

// DefaultTranscriptionModel is used when Transcribe is given no model.
const DefaultTranscriptionModel = "whisper-1"

// Transcribe turns recorded speech into text through the server's
// /audio/transcriptions endpoint. filename and contentType (e.g.
// "memo.webm", "audio/webm") let the server detect the format.
func (c *OpenAI) Transcribe(ctx context.Context, audio io.Reader, filename, contentType, model string) (string, error) {
	if model == "" {
		model = DefaultTranscriptionModel
	}
	res, err := c.client.Audio.Transcriptions.New(ctx, openai.AudioTranscriptionNewParams{
		File:  openai.File(audio, filename, contentType),
		Model: openai.AudioModel(model),
	})
	if err != nil {
		return "", fmt.Errorf("llm: transcribe: %w", err)
	}
	return res.Text, nil
}
