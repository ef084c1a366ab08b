// Package voice stores members' recorded voice replies under the data
// directory and, when a model is configured, transcribes them so the coach's
// get_voice_memos tool and the prompt's answer carry the words.
package voice

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/live"
)

// MaxSize is the largest accepted recording (10 MiB, several minutes of opus).
const MaxSize = 10 << 20

// exts maps the accepted audio types to file extensions.
var exts = map[string]string{
	"audio/webm":  ".webm",
	"audio/ogg":   ".ogg",
	"audio/mp4":   ".m4a",
	"audio/mpeg":  ".mp3",
	"audio/wav":   ".wav",
	"audio/x-wav": ".wav",
	"audio/wave":  ".wav",
}

var memberID = regexp.MustCompile(`^[a-z0-9]{1,40}$`)

// Transcriber turns audio into text (an OpenAI-compatible endpoint in production).
type Transcriber interface {
	Transcribe(ctx context.Context, audio io.Reader, filename, mime string) (string, error)
}

// Memos is the part of the dashboard store the service writes to.
type Memos interface {
	AddVoiceMemo(ctx context.Context, m dashboard.VoiceMemo) (dashboard.VoiceMemo, error)
	SetTranscript(ctx context.Context, id int64, transcript string, failed bool) error
	RecordAnswer(ctx context.Context, member, promptID, answer, kind string, voiceMemoID int64) (dashboard.Answer, error)
}

// Options configure a Service.
type Options struct {
	// DataDir is the data directory; recordings go to DataDir/voice/<member>/.
	DataDir string
	// Transcriber is nil when no model is configured: audio is kept untranscribed.
	Transcriber Transcriber
	Publisher   live.Publisher
	Logger      *slog.Logger
	// Timeout bounds one transcription (default 60 s).
	Timeout time.Duration
}

// Service saves and transcribes voice memos.
type Service struct {
	opt   Options
	memos Memos
	log   *slog.Logger
	now   func() time.Time
}

// New returns a Service writing memo rows through memos.
func New(memos Memos, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 60 * time.Second
	}
	return &Service{opt: opt, memos: memos, log: opt.Logger, now: time.Now}
}

// Transcribes reports whether recordings are transcribed (a model is configured).
func (s *Service) Transcribes() bool { return s.opt.Transcriber != nil }

// Result says what became of a recording.
type Result struct {
	Memo dashboard.VoiceMemo `json:"memo"`
	// Status is stored (no model), transcribed or failed.
	Status     string `json:"status"`
	Transcript string `json:"transcript,omitempty"`
	// Answered is true when the transcript was recorded as the prompt's answer.
	Answered bool `json:"answered"`
	// Message tells the member what happened, in words fit for the screen.
	Message string `json:"message"`
}

// MIMEType normalises a Content-Type ("audio/webm;codecs=opus" → "audio/webm")
// and reports whether it is an accepted audio type.
func MIMEType(ct string) (string, bool) {
	t, _, _ := strings.Cut(ct, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	_, ok := exts[t]
	return t, ok
}

// Save checks and stores one recording for a member's prompt, then
// transcribes it when a model is configured and records the transcript as
// the prompt's answer. Bad input is apperr.Invalid or apperr.TooLarge and
// stores nothing.
func (s *Service) Save(ctx context.Context, member, promptID, contentType string, r io.Reader) (Result, error) {
	if !memberID.MatchString(member) {
		return Result{}, apperr.Invalidf("unknown member")
	}
	mime, ok := MIMEType(contentType)
	if !ok {
		return Result{}, apperr.Invalidf("a voice memo must be audio/webm, audio/ogg, audio/mp4, audio/mpeg or audio/wav, not %q", contentType)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return Result{}, tooLarge(err)
	}
	switch {
	case len(data) > MaxSize:
		return Result{}, apperr.New(apperr.TooLarge, "the recording is too large (limit %d MiB)", MaxSize>>20)
	case len(data) == 0:
		return Result{}, apperr.Invalidf("the recording is empty")
	case !Sniff(mime, data):
		return Result{}, apperr.Invalidf("the file is not %s audio", mime)
	}
	rel, err := s.write(member, mime, data)
	if err != nil {
		return Result{}, err
	}
	memo, err := s.memos.AddVoiceMemo(ctx, dashboard.VoiceMemo{MemberID: member, PromptID: promptID, Path: rel,
		MIME: mime, Size: int64(len(data)), Status: "stored"})
	if err != nil {
		_ = os.Remove(filepath.Join(s.opt.DataDir, rel))
		return Result{}, err
	}
	res := Result{Memo: memo, Status: "stored", Message: "Voice memo saved. Your coach will hear it; type a short answer too if you like."}
	if s.opt.Transcriber != nil {
		s.transcribe(ctx, &res, member, promptID, data)
	}
	s.publish(member)
	return res, nil
}

// tooLarge maps a read error: a body cut by http.MaxBytesReader is TooLarge.
func tooLarge(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apperr.New(apperr.TooLarge, "the recording is too large (limit %d MiB)", MaxSize>>20)
	}
	return apperr.Invalidf("the recording could not be read")
}

func (s *Service) transcribe(ctx context.Context, res *Result, member, promptID string, data []byte) {
	tctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	name := fmt.Sprintf("memo-%d%s", res.Memo.ID, exts[res.Memo.MIME])
	text, err := s.opt.Transcriber.Transcribe(tctx, bytes.NewReader(data), name, res.Memo.MIME)
	text = strings.TrimSpace(text)
	if err != nil || text == "" {
		if err == nil {
			err = errors.New("empty transcript")
		}
		s.log.Warn("voice: transcription failed; audio kept", "member", member, "memo", res.Memo.ID, "err", err)
		if err := s.memos.SetTranscript(ctx, res.Memo.ID, "", true); err != nil {
			s.log.Error("voice: mark memo failed", "memo", res.Memo.ID, "err", err)
		}
		res.Status, res.Memo.Status = "failed", "failed"
		res.Message = "Voice memo saved, but it could not be transcribed. Please type your answer."
		return
	}
	if err := s.memos.SetTranscript(ctx, res.Memo.ID, text, false); err != nil {
		s.log.Error("voice: store transcript", "memo", res.Memo.ID, "err", err)
		res.Message = "Voice memo saved, but its transcript could not be stored. Please type your answer."
		return
	}
	res.Status, res.Memo.Status, res.Memo.Transcript, res.Transcript = "transcribed", "transcribed", text, text
	res.Message = "Got it: your voice memo was transcribed."
	if promptID == "" {
		return
	}
	answer := []rune(text)
	if len(answer) > dashboard.MaxAnswerLen {
		answer = answer[:dashboard.MaxAnswerLen]
	}
	if _, err := s.memos.RecordAnswer(ctx, member, promptID, string(answer), "voice", res.Memo.ID); err != nil {
		s.log.Info("voice: transcript not recorded as answer", "member", member, "prompt", promptID, "err", err)
		return
	}
	res.Answered = true
}

// write stores the audio as DataDir/voice/<member>/<time>-<random><ext> and
// returns the path relative to DataDir.
func (s *Service) write(member, mime string, data []byte) (string, error) {
	dir := filepath.Join(s.opt.DataDir, "voice", member)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("voice: create %s: %w", dir, err)
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	name := s.now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(rnd[:]) + exts[mime]
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("voice: create memo file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return "", fmt.Errorf("voice: write memo file: %w", err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("voice: close memo file: %w", err)
	}
	return filepath.Join("voice", member, name), nil
}

func (s *Service) publish(member string) {
	if s.opt.Publisher != nil {
		s.opt.Publisher.Publish(live.MemberTopic(member), live.KindVoice, nil)
	}
}
