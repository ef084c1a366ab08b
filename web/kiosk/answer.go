package kiosk

import (
	"errors"
	"log/slog"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/voice"
	"hearth/views"
	"hearth/web/httpkit"
)

// answers take the member's answers to the coach's prompts (a tap, text or
// a voice memo) and the privacy toggle.
type answers struct {
	household  Household
	dashboards Dashboards // nil: no prompts
	voice      Voice      // nil: voice memos are refused
	privacy    Privacy    // nil: the toggle is refused
	log        *slog.Logger
	gate       modelGate // a transcribed memo calls the model
	listener   Listener  // nil: answers are not acknowledged
}

// kioskAnswer records a tap (one of the prompt's options) or a typed
// answer. The prompt turns into the answer through the live stream, on this
// screen as on every other one showing it; the answer itself carries the
// coach's short acknowledgement (a flash) of what it understood, and an
// answer that changes today re-plans the day (the new plan arrives over
// the stream too).
func (h *answers) kioskAnswer(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	if h.dashboards == nil {
		return apperr.NotFoundf("no prompts here")
	}
	kind := c.FormValue("kind")
	if kind != "tap" && kind != "text" {
		return apperr.FieldErrors(map[string]string{"kind": "must be tap or text"})
	}
	a, err := h.dashboards.RecordAnswer(ctx, id, c.FormValue("prompt"), c.FormValue("answer"), kind, 0)
	if err != nil && !apperr.Is(err, apperr.Conflict) { // answered elsewhere first: show that answer
		return err
	}
	ack := ""
	if err == nil && h.listener != nil {
		// The answer is stored: a failure to read it now only costs the
		// acknowledgement (the next run still applies it).
		if ack, err = h.listener.HeardAnswer(ctx, id, a); err != nil {
			h.log.Warn("kiosk: acknowledge an answer", "member", id, "err", err)
			ack = ""
		}
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	sse := httpkit.NewSSE(c) // the stream patches the coach column
	if ack != "" {
		_ = sse.PatchElementTempl(views.Flash(ack, false))
	}
	return nil
}

// voiceUploadLimit bounds the whole multipart body: the audio plus headroom
// for the form fields and part headers.
const voiceUploadLimit = voice.MaxSize + 64<<10

// kioskVoice accepts a recorded voice memo for a prompt (multipart field
// "audio", plus "prompt"). voice.js posts it with fetch and reads a JSON
// answer; a plain form post is redirected back to the dashboard.
func (h *answers) kioskVoice(c echo.Context) error {
	res, err := h.saveVoice(c)
	wantJSON := strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
	if err != nil {
		if wantJSON {
			code, body := httpkit.Classify(err)
			if code >= 500 {
				h.log.Error("voice memo", "err", err)
			}
			return c.JSON(code, body)
		}
		return err
	}
	if wantJSON {
		return c.JSON(http.StatusCreated, map[string]any{"status": res.Status, "answered": res.Answered,
			"transcript": res.Transcript, "message": res.Message})
	}
	return c.Redirect(http.StatusSeeOther, "/m/"+c.Param("member"))
}

func (h *answers) saveVoice(c echo.Context) (voice.Result, error) {
	if h.voice == nil {
		return voice.Result{}, apperr.Invalidf("voice memos are not available on this server")
	}
	ctx := c.Request().Context()
	id := c.Param("member")
	if _, err := h.household.Member(ctx, id); err != nil {
		return voice.Result{}, err
	}
	ct, f, err := audioPart(c)
	if err != nil {
		return voice.Result{}, err
	}
	defer f.Close()
	prompt := c.FormValue("prompt")
	if !views.SafeID(prompt) {
		return voice.Result{}, apperr.FieldErrors(map[string]string{"prompt": "is not a prompt of today's dashboard"})
	}
	if h.voice.Transcribes() {
		if err := h.gate.take(c, id); err != nil {
			return voice.Result{}, err
		}
	}
	return h.voice.Save(ctx, id, prompt, ct, f)
}

// audioPart reads a multipart upload (bounded) and opens its "audio" file,
// returning the file's content type; the parsed form's temporary files go
// when the request ends.
func audioPart(c echo.Context) (string, multipart.File, error) {
	r := c.Request()
	if r.MultipartForm == nil { // not parsed yet (the CSRF header was used)
		r.Body = http.MaxBytesReader(c.Response(), r.Body, voiceUploadLimit)
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return "", nil, apperr.New(apperr.TooLarge, "the recording is too large (limit %d MiB)", voice.MaxSize>>20)
			}
			return "", nil, apperr.Invalidf("send the recording as multipart/form-data with a file field \"audio\"")
		}
	}
	form := r.MultipartForm
	c.Response().After(func() { _ = form.RemoveAll() })
	fh, err := c.FormFile("audio")
	if err != nil {
		return "", nil, apperr.FieldErrors(map[string]string{"audio": "is required"})
	}
	if fh.Size > voice.MaxSize {
		return "", nil, apperr.New(apperr.TooLarge, "the recording is too large (limit %d MiB)", voice.MaxSize>>20)
	}
	f, err := fh.Open()
	if err != nil {
		return "", nil, apperr.Invalidf("the recording could not be read")
	}
	return fh.Header.Get(echo.HeaderContentType), f, nil
}

// kioskChatVoice transcribes a spoken chat message (hold-to-talk in the
// chat sheet) and answers {"transcript"}: hearth.js puts it in the
// message field and sends it as if typed.
func (h *chatSheets) kioskChatVoice(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	transcript, err := func() (string, error) {
		if h.voice == nil {
			return "", apperr.Invalidf("voice is not available on this server")
		}
		if _, err := h.household.Member(ctx, id); err != nil {
			return "", err
		}
		ct, f, err := audioPart(c)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if h.voice.Transcribes() { // else Transcribe refuses it
			if err := h.gate.take(c, id); err != nil {
				return "", err
			}
		}
		return h.voice.Transcribe(ctx, id, ct, f)
	}()
	if err != nil {
		code, body := httpkit.Classify(err)
		if code >= 500 {
			h.log.Error("chat voice", "err", err)
		}
		return c.JSON(code, body)
	}
	return c.JSON(http.StatusOK, map[string]string{"transcript": transcript})
}

// kioskPrivacy keeps a member's figures off shared screens until unlocked
// (or shows them again: the route's guard asks for the unlock first).
func (h *answers) kioskPrivacy(c echo.Context) error {
	id := c.Param("member")
	if h.privacy == nil {
		return apperr.Invalidf("privacy settings are not available")
	}
	var on bool
	switch c.FormValue("private") {
	case "on":
		on = true
	case "off":
	default:
		return apperr.FieldErrors(map[string]string{"private": "must be on or off"})
	}
	if err := h.privacy.SetPrivateFigures(c.Request().Context(), id, on); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	// The page is rendered again for the new state: turned on, this
	// screen has not unlocked the member, and their figures leave it.
	return httpkit.Navigate(httpkit.NewSSE(c), "/m/"+id)
}
