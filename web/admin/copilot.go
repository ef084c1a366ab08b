package admin

import (
	"context"
	"encoding/json"
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

// copilotPages are the panels' actions (/admin/copilot/<form>[/<action>]).
// A form's state lives in the browser (its signal, copilot.SignalRoot); each action reads it, checks it (copilot.Clean),
// and answers with one signal patch of the new state and the panel's
// notes appended as text. Nothing here writes storage: the form's own
// Save does.
type copilotPages struct {
	*core
	copilot Copilot
}

// copilotPanel is one panel's signal (copilot.SignalRoot of its form).
type copilotPanel struct {
	copilot.State
	Ask string `json:"ask"`
}

// readCopilot reads and cleans the state of the panel of the form in the
// URL; a refused one is answered before the stream starts.
func (p *copilotPages) readCopilot(c echo.Context) (copilotPanel, copilot.Form, error) {
	f, ok := copilot.FormByID(c.Param("form"))
	if !ok {
		return copilotPanel{}, f, echo.NewHTTPError(http.StatusNotFound, "the copilot has no such form")
	}
	var all map[string]json.RawMessage
	if err := datastar.ReadSignals(c.Request(), &all); err != nil {
		return copilotPanel{}, f, echo.NewHTTPError(http.StatusBadRequest, "the copilot's state is not valid JSON")
	}
	var panel copilotPanel
	if raw, ok := all[copilot.SignalRoot(f.ID)]; !ok || json.Unmarshal(raw, &panel) != nil {
		return copilotPanel{}, f, echo.NewHTTPError(http.StatusBadRequest, "the copilot panel's state is missing or malformed")
	}
	panel.Form = f.ID // the URL names the form, not the browser's state
	st, _, err := copilot.Clean(panel.State)
	if err != nil {
		return copilotPanel{}, f, echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	panel.State = st
	return panel, f, nil
}

// patchCopilot sends the new state of form's panel (the ask box emptied
// when clearAsk) and appends the notes to its log.
func patchCopilot(c echo.Context, f copilot.Form, st copilot.State, clearAsk bool, notes []copilot.Note) error {
	sse := httpkit.NewSSE(c)
	cp := map[string]any{"f": st.Values, "undo": nonNil(st.Undo), "redo": nonNil(st.Redo), "pending": nonNilCmds(st.Pending),
		"confirm": st.Confirm, "hl": st.Highlight, "nav": st.Nav, "navTitle": st.NavTitle}
	if clearAsk {
		cp["ask"] = ""
	}
	// Signals carry the model's values as JSON data only (never markup,
	// never an expression); notes are element text rendered by templ.
	if err := sse.MarshalAndPatchSignals(map[string]any{copilot.SignalRoot(f.ID): cp}); err != nil {
		return nil
	}
	if len(notes) > 0 {
		_ = sse.PatchElementTempl(adminview.CopilotNotes(copilotNotes(notes)), datastar.WithSelectorID("cp-log-"+f.ID), datastar.WithModeAppend())
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
	panel, f, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	ask := strings.TrimSpace(panel.Ask)
	if ask == "" {
		return patchCopilot(c, f, panel.State, false, nil)
	}
	if utf8.RuneCountInString(ask) > agent.MaxChatMessageLen {
		return patchCopilot(c, f, panel.State, false, []copilot.Note{{Kind: copilot.NoteProblem, Text: "That request is too long."}})
	}
	notes := []copilot.Note{{Kind: "admin", Text: ask}}
	ans, err := p.copilot.AskCopilot(c.Request().Context(), f, panel.Values, ask)
	if err != nil {
		p.log.Warn("copilot", slog.String("form", f.ID), slog.Any("err", err))
		return patchCopilot(c, f, panel.State, false, append(notes, copilot.Note{Kind: copilot.NoteProblem,
			Text: "The copilot could not answer: " + definitionErrText(err)}))
	}
	st, more := copilot.Apply(panel.State, f, ans.Reply)
	switch {
	case ans.Fallback != "":
		more = append(more, copilot.Note{Kind: copilot.NoteProblem, Text: "The language model failed (" + ans.Fallback +
			"); the built-in heuristic answered."})
	case ans.Heuristic:
		more = append(more, copilot.Note{Kind: copilot.NoteInfo, Text: "Answered by the built-in heuristic (no language model)."})
	}
	return patchCopilot(c, f, st, true, append(notes, more...))
}

// undo and redo move through the stacks; confirm and decline answer a
// request_confirmation.
func (p *copilotPages) undo(c echo.Context) error    { return p.step(c, copilot.Undo, "Nothing to undo.") }
func (p *copilotPages) redo(c echo.Context) error    { return p.step(c, copilot.Redo, "Nothing to redo.") }
func (p *copilotPages) confirm(c echo.Context) error { return p.answer(c, true) }
func (p *copilotPages) decline(c echo.Context) error { return p.answer(c, false) }

func (p *copilotPages) step(c echo.Context, move func(copilot.State) (copilot.State, bool), none string) error {
	panel, f, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	st, ok := move(panel.State)
	var notes []copilot.Note
	if !ok {
		notes = []copilot.Note{{Kind: copilot.NoteInfo, Text: none}}
	}
	return patchCopilot(c, f, st, false, notes)
}

func (p *copilotPages) answer(c echo.Context, yes bool) error {
	panel, f, err := p.readCopilot(c)
	if err != nil {
		return err
	}
	st, notes := copilot.Resume(panel.State, f, yes)
	return patchCopilot(c, f, st, false, notes)
}
