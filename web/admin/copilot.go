package admin

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/agent"
	"hearth/internal/copilot"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Copilot answers the configuration copilot's panel (issue 41): the
// config-copilot agent's reply to a request about the open form (the app:
// the definition on the engine, or its heuristic without a model).
type Copilot interface {
	AskCopilot(ctx context.Context, f copilot.Form, values map[string]string, ask string) (copilot.Answer, error)
}

// copilotPages are the panel's actions. The form's state lives in the
// browser (the cp signal); each action reads it, checks it (copilot.Clean),
// and answers with one signal patch of the new state and the panel's
// notes appended as text. Nothing here writes storage: the form's own
// Save does.
type copilotPages struct {
	*core
	copilot Copilot
}

// copilotSignals are the signals the panel's actions send.
type copilotSignals struct {
	CP struct {
		copilot.State
		Ask string `json:"ask"`
	} `json:"cp"`
}

// readCopilot reads and cleans the panel's state; a refused one is a
// 400 answered before the stream starts.
func (p *copilotPages) readCopilot(c echo.Context) (copilotSignals, copilot.Form, error) {
	var sig copilotSignals
	if err := datastar.ReadSignals(c.Request(), &sig); err != nil {
		return sig, copilot.Form{}, echo.NewHTTPError(http.StatusBadRequest, "the copilot's state is not valid JSON")
	}
	st, f, err := copilot.Clean(sig.CP.State)
	if err != nil {
		return sig, f, echo.NewHTTPError(http.StatusBadRequest, "the copilot panel names no known form")
	}
	sig.CP.State = st
	return sig, f, nil
}

// patchCopilot sends the new state (the ask box emptied when clear) and
// appends the notes to the panel's log.
func patchCopilot(c echo.Context, st copilot.State, clearAsk bool, notes []copilot.Note) error {
	sse := httpkit.NewSSE(c)
	cp := map[string]any{"f": st.Values, "undo": nonNil(st.Undo), "redo": nonNil(st.Redo), "pending": nonNilCmds(st.Pending),
		"confirm": st.Confirm, "hl": st.Highlight, "nav": st.Nav, "navTitle": st.NavTitle}
	if clearAsk {
		cp["ask"] = ""
	}
	// Signals carry the model's values as JSON data only (never markup,
	// never an expression); notes are element text rendered by templ.
	if err := sse.MarshalAndPatchSignals(map[string]any{"cp": cp}); err != nil {
		return nil
	}
	if len(notes) > 0 {
		_ = sse.PatchElementTempl(adminview.CopilotNotes(copilotNotes(notes)), datastar.WithSelectorID("cp-log"), datastar.WithModeAppend())
	}
	return nil
}

func copilotNotes(ns []copilot.Note) []adminview.CopilotNote {
	out := make([]adminview.CopilotNote, len(ns))
	for i, n := range ns {
		out[i] = adminview.CopilotNote{Kind: n.Kind, Text: n.Text}
	}
	return out
}

func nonNil(st []map[string]string) []map[string]string {
	if st == nil {
		return []map[string]string{} // null would delete the signal
	}
	return st
}

func nonNilCmds(cs []copilot.Command) []copilot.Command {
	if cs == nil {
		return []copilot.Command{}
	}
	return cs
}

// ask sends the admin's request with the form's values to the copilot and
// applies its reply.
func (p *copilotPages) ask(c echo.Context) error {
	sig, f, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	ask := strings.TrimSpace(sig.CP.Ask)
	if ask == "" {
		return patchCopilot(c, sig.CP.State, false, nil)
	}
	if utf8.RuneCountInString(ask) > agent.MaxChatMessageLen {
		return patchCopilot(c, sig.CP.State, false, []copilot.Note{{Kind: copilot.NoteProblem, Text: "That request is too long."}})
	}
	notes := []copilot.Note{{Kind: "admin", Text: ask}}
	ans, err := p.copilot.AskCopilot(c.Request().Context(), f, sig.CP.Values, ask)
	if err != nil {
		p.log.Warn("copilot", slog.String("form", f.ID), slog.Any("err", err))
		return patchCopilot(c, sig.CP.State, false, append(notes, copilot.Note{Kind: copilot.NoteProblem,
			Text: "The copilot could not answer: " + definitionErrText(err)}))
	}
	st, more := copilot.Apply(sig.CP.State, f, ans.Reply)
	switch {
	case ans.Fallback != "":
		more = append(more, copilot.Note{Kind: copilot.NoteProblem, Text: "The language model failed (" + ans.Fallback +
			"); the built-in heuristic answered."})
	case ans.Heuristic:
		more = append(more, copilot.Note{Kind: copilot.NoteInfo, Text: "Answered by the built-in heuristic (no language model)."})
	}
	return patchCopilot(c, st, true, append(notes, more...))
}

// undo and redo move through the stacks; confirm and decline answer a
// request_confirmation.
func (p *copilotPages) undo(c echo.Context) error    { return p.step(c, copilot.Undo, "Nothing to undo.") }
func (p *copilotPages) redo(c echo.Context) error    { return p.step(c, copilot.Redo, "Nothing to redo.") }
func (p *copilotPages) confirm(c echo.Context) error { return p.answer(c, true) }
func (p *copilotPages) decline(c echo.Context) error { return p.answer(c, false) }

func (p *copilotPages) step(c echo.Context, move func(copilot.State) (copilot.State, bool), none string) error {
	sig, _, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	st, ok := move(sig.CP.State)
	var notes []copilot.Note
	if !ok {
		notes = []copilot.Note{{Kind: copilot.NoteInfo, Text: none}}
	}
	return patchCopilot(c, st, false, notes)
}

func (p *copilotPages) answer(c echo.Context, yes bool) error {
	sig, f, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	st, notes := copilot.Resume(sig.CP.State, f, yes)
	return patchCopilot(c, st, false, notes)
}
