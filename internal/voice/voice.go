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
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/text"
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

// Transcriber turns audio into text (an OpenAI-compatible endpoint in production).
type Transcriber interface {
	Transcribe(ctx context.Context, audio io.Reader, filename, mime string) (string, error)
}

// Memos is the part of the dashboard store the service writes to.
type Memos interface {
	// AddVoiceMemoWithin records a memo unless it would take the member
	// past the quota on its day (ok false), checking and inserting in one
	// write transaction.
	AddVoiceMemoWithin(ctx context.Context, m dashboard.VoiceMemo, q dashboard.VoiceQuota) (dashboard.VoiceMemo, bool, error)
	SetTranscript(ctx context.Context, id int64, transcript string, failed bool) error
	RecordAnswer(ctx context.Context, member, promptID, answer, kind string, voiceMemoID int64) (dashboard.Answer, error)
	// HasPrompt reports whether the member was asked promptID (today's document).
	HasPrompt(ctx context.Context, member, promptID string) (bool, error)
	// VoiceUsage counts the member's memos and bytes on now's household day.
	VoiceUsage(ctx context.Context, member string, now time.Time) (int, int64, error)
}

// Default daily quota per member: a few answers a day are a handful of
// memos; this bounds what one screen can make the server store.
const (
	DefaultDailyMemos = 20
	DefaultDailyBytes = 50 << 20
)

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
	// DailyMemos and DailyBytes cap one member's memos a day (defaults
	// DefaultDailyMemos, DefaultDailyBytes).
	DailyMemos int
	DailyBytes int64
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
	if opt.DailyMemos <= 0 {
		opt.DailyMemos = DefaultDailyMemos
	}
	if opt.DailyBytes <= 0 {
		opt.DailyBytes = DefaultDailyBytes
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
	if !health.ValidMemberID(member) {
		return Result{}, apperr.Invalidf("unknown member")
	}
	switch asked, err := s.memos.HasPrompt(ctx, member, promptID); {
	case err != nil:
		return Result{}, err
	case !asked:
		return Result{}, apperr.FieldErrors(map[string]string{"prompt": "is not a question on today's dashboard"})
	}
	mime, data, err := readAudio(contentType, r)
	if err != nil {
		return Result{}, err
	}
	// An early answer for a day already full, before a file is written;
	// the insert below is the check that holds under parallel uploads.
	n, used, err := s.memos.VoiceUsage(ctx, member, s.now())
	if err != nil {
		return Result{}, err
	}
	if n >= s.opt.DailyMemos || used+int64(len(data)) > s.opt.DailyBytes {
		return Result{}, s.quotaFull()
	}
	rel, err := s.write(member, mime, data)
	if err != nil {
		return Result{}, err
	}
	memo, ok, err := s.memos.AddVoiceMemoWithin(ctx, dashboard.VoiceMemo{MemberID: member, PromptID: promptID, Path: rel,
		MIME: mime, Size: int64(len(data)), Status: "stored"}, dashboard.VoiceQuota{Memos: s.opt.DailyMemos, Bytes: s.opt.DailyBytes})
	if err != nil || !ok {
		_ = os.Remove(filepath.Join(s.opt.DataDir, rel))
		if err == nil {
			err = s.quotaFull()
		}
		return Result{}, err
	}
	res := Result{Memo: memo, Status: "stored", Message: "Voice memo saved. Your coach will hear it; type a short answer too if you like."}
	if s.opt.Transcriber != nil {
		s.transcribe(ctx, &res, member, promptID, data)
	}
	s.publish(member)
	return res, nil
}

// quotaFull is the refusal of a memo past the member's daily quota.
func (s *Service) quotaFull() error {
	return apperr.New(apperr.TooMany, "today's voice memos are full (%d memos or %d MB a day); type your answer instead",
		s.opt.DailyMemos, s.opt.DailyBytes>>20)
}

// readAudio reads and checks one recording: an accepted type, within
// MaxSize, not empty, and audio of that type.
func readAudio(contentType string, r io.Reader) (string, []byte, error) {
	mime, ok := MIMEType(contentType)
	if !ok {
		return "", nil, apperr.Invalidf("a voice memo must be audio/webm, audio/ogg, audio/mp4, audio/mpeg or audio/wav, not %q", contentType)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return "", nil, tooLarge(err)
	}
	switch {
	case len(data) > MaxSize:
		return "", nil, apperr.New(apperr.TooLarge, "the recording is too large (limit %d MiB)", MaxSize>>20)
	case len(data) == 0:
		return "", nil, apperr.Invalidf("the recording is empty")
	case !Sniff(mime, data):
		return "", nil, apperr.Invalidf("the file is not %s audio", mime)
	}
	return mime, data, nil
}

// Transcribe turns a spoken chat message into text (hold-to-talk in the
// chat sheet). The audio is not kept: the message's text is what the
// conversation stores. Without a model it is refused.
func (s *Service) Transcribe(ctx context.Context, member, contentType string, r io.Reader) (string, error) {
	if s.opt.Transcriber == nil {
		return "", apperr.Invalidf("speaking to the coach needs a speech-to-text model; type your message instead")
	}
	if !health.ValidMemberID(member) {
		return "", apperr.Invalidf("unknown member")
	}
	mime, data, err := readAudio(contentType, r)
	if err != nil {
		return "", err
	}
	tctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	transcript, err := s.opt.Transcriber.Transcribe(tctx, bytes.NewReader(data), "message"+exts[mime], mime)
	if err != nil {
		s.log.Warn("voice: chat transcription failed", "member", member, "err", err)
		return "", apperr.New(apperr.Unavailable, "your message could not be transcribed; please type it")
	}
	transcript, _ = text.Clean(text.Multi, transcript)
	// One line, as typed into the chat's field.
	if transcript = strings.Join(strings.Fields(transcript), " "); transcript == "" {
		return "", apperr.Invalidf("nothing was heard; hold the button while you speak")
	}
	return transcript, nil
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
	transcript, err := s.opt.Transcriber.Transcribe(tctx, bytes.NewReader(data), name, res.Memo.MIME)
	// A transcript is outside text: drop what a screen cannot use (package text).
	transcript, _ = text.Clean(text.Multi, transcript)
	transcript = strings.TrimSpace(transcript)
	if err != nil || transcript == "" {
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
	if err := s.memos.SetTranscript(ctx, res.Memo.ID, transcript, false); err != nil {
		s.log.Error("voice: store transcript", "memo", res.Memo.ID, "err", err)
		res.Message = "Voice memo saved, but its transcript could not be stored. Please type your answer."
		return
	}
	res.Status, res.Memo.Status, res.Memo.Transcript, res.Transcript = "transcribed", "transcribed", transcript, transcript
	res.Message = "Got it: your voice memo was transcribed."
	if promptID == "" {
		return
	}
	answer := []rune(transcript)
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
