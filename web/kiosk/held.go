package kiosk

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/talos"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// Held are the actions Talos holds for an adult's confirmation on the
// screen (internal/talos): the member's waiting ones, the adults who may
// confirm, and the answer.
type Held interface {
	Waiting(ctx context.Context, member string) ([]talos.Record, error)
	Adults(ctx context.Context) ([]health.Member, error)
	Answer(ctx context.Context, id int64, answer, by string) (talos.Record, error)
}

// heldCards fills the sheet's actions waiting for an adult.
func (h *chatSheets) heldCards(ctx context.Context, cs *kioskview.ChatSheet) error {
	if h.held == nil {
		return nil
	}
	ws, err := h.held.Waiting(ctx, cs.MemberID)
	if err != nil || len(ws) == 0 {
		return err
	}
	adults, err := h.held.Adults(ctx)
	if err != nil {
		return err
	}
	asker, err := h.household.Member(ctx, cs.MemberID)
	if err != nil {
		return err
	}
	for _, w := range ws {
		c, _ := talos.Describe(w.Tool, w.Args)
		card := kioskview.HeldCard{ID: w.ID, Question: c.Question(), AskedBy: asker.Name}
		if w.ExpiresAt != nil {
			card.Until = w.ExpiresAt.In(h.loc).Format("15:04")
		}
		for _, a := range adults {
			card.Approvers = append(card.Approvers, kioskview.Approver{ID: a.ID, Name: a.Name, PIN: a.HasPIN})
		}
		cs.Held = append(cs.Held, card)
	}
	return nil
}

// kioskHeld answers an action waiting for an adult: confirm (as one of
// the adults, with their PIN when they have one: tries are limited as an
// unlock's are) or refuse (anyone at the screen may). Only a waiting
// action of the URL's member can be answered.
func (h *chatSheets) kioskHeld(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	if _, err := h.household.Member(ctx, member); err != nil {
		return err
	}
	if h.held == nil {
		return apperr.NotFoundf("nothing waits for confirmation on this server")
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("request not found")
	}
	ws, err := h.held.Waiting(ctx, member)
	if err != nil {
		return err
	}
	found := false
	for _, w := range ws {
		found = found || w.ID == id
	}
	sheet := h.empty(member, httpkit.CSRFToken(c), 0)
	if !found {
		return h.heldAnswer(c, sheet, "", "This request was already answered, or it is not this member's.")
	}
	answer, by := c.FormValue("answer"), ""
	switch answer {
	case talos.AnswerRefuse:
	case talos.AnswerConfirm:
		by = strings.TrimSpace(c.FormValue("approver"))
		if msg := h.checkApprover(c, by); msg != "" {
			return h.heldAnswer(c, sheet, "", msg)
		}
	default:
		return apperr.FieldErrors(map[string]string{"answer": "must be confirm or refuse"})
	}
	rec, err := h.held.Answer(ctx, id, answer, by)
	if ae := apperr.As(err); ae != nil && (ae.Code == apperr.Conflict || ae.Code == apperr.Invalid) {
		return h.heldAnswer(c, sheet, "", capitalize(ae.Message)+".")
	} else if err != nil {
		return err
	}
	return h.heldAnswer(c, sheet, heldNote(rec), "")
}

// kioskHeldList shows the member's held actions again (the sheet asks
// every 15 s while some wait).
func (h *chatSheets) kioskHeldList(c echo.Context) error {
	member := c.Param("member")
	if _, err := h.household.Member(c.Request().Context(), member); err != nil {
		return err
	}
	if h.held == nil {
		return apperr.NotFoundf("nothing waits for confirmation on this server")
	}
	return h.heldAnswer(c, h.empty(member, httpkit.CSRFToken(c), 0), "", "")
}

// checkApprover says why by may not confirm now ("" when they may): an
// adult of the household, with their PIN when they set one.
func (h *chatSheets) checkApprover(c echo.Context, by string) string {
	ctx := c.Request().Context()
	adults, err := h.held.Adults(ctx)
	if err != nil {
		return "The household's adults could not be read."
	}
	var adult *health.Member
	for i := range adults {
		if adults[i].ID == by {
			adult = &adults[i]
		}
	}
	if adult == nil {
		return "Choose which adult is confirming."
	}
	if !adult.HasPIN || h.locks == nil || h.locks.pins == nil {
		return ""
	}
	sid := ensureScreen(c)
	if ok, wait := h.locks.unlocks.Allowed(sid, by); !ok {
		return "Too many wrong PINs for " + adult.Name + ": try again in " + wait.Round(time.Minute).String() + "."
	}
	ok, err := h.locks.pins.CheckPIN(ctx, by, c.FormValue("pin"))
	if err != nil || !ok {
		h.locks.unlocks.Failed(sid, by)
		return "That is not " + adult.Name + "'s PIN."
	}
	return ""
}

// heldNote says what became of an answered action.
func heldNote(r talos.Record) string {
	c, _ := talos.Describe(r.Tool, r.Args)
	q := strings.TrimSuffix(c.Question(), "?")
	switch {
	case r.Outcome == talos.Confirmed && strings.HasPrefix(r.Result, "failed"):
		return q + ": confirmed, but it " + r.Result + "."
	case r.Outcome == talos.Confirmed:
		return q + ": done."
	case r.Outcome == talos.TimedOut:
		return q + ": not done, nobody confirmed within 2 minutes."
	}
	return q + ": refused, nothing was done."
}

// heldAnswer shows the sheet's waiting actions again with what became of
// the answer (note) or why it was refused (problem).
func (h *chatSheets) heldAnswer(c echo.Context, sheet kioskview.ChatSheet, note, problem string) error {
	if !httpkit.IsDatastar(c) {
		if problem != "" {
			return apperr.Invalidf("%s", problem)
		}
		return c.Redirect(http.StatusSeeOther, "/m/"+sheet.MemberID)
	}
	if err := h.heldCards(c.Request().Context(), &sheet); err != nil {
		return err
	}
	sheet.HeldNote, sheet.HeldError = note, problem
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.HeldList(sheet))
}
