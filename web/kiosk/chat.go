package kiosk

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/text"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// chatSheets are a chat sheet: "Ask the coach" (conversations with the
// coach) or "Home & TV" (with Talos, which acts on the house and the TV
// through the household's policy).
type chatSheets struct {
	household Household
	agents    Agents // nil: nobody to chat with
	voice     Voice  // nil: no hold-to-talk
	loc       *time.Location
	log       *slog.Logger
	gate      modelGate // each turn calls the model; one at a time per member
	// agent is who the sheet talks to; base its path under the member.
	agent, base string
	// held are the actions waiting for an adult (the house sheet; nil
	// on the coach's), confirmed with the adult's PIN checked by locks.
	held  Held
	locks *screenLocks
	// plan is the life plan behind the "Talk it through" sheet (its tap
	// prompts, and the page a finished turn refreshes); nil on the others.
	plan *planPages
}

// kioskChatAgent is the agent a member talks to in "Ask the coach";
// houseAgent the one in "Home & TV".
const (
	kioskChatAgent = "health-coach"
	houseAgent     = "talos"
)

// hasAgent reports whether a has the agent id.
func hasAgent(a Agents, id string) bool {
	if a == nil {
		return false
	}
	_, err := a.Agent(id)
	return err == nil
}

// definedAgent reports whether a has the agent id, registered or made
// from a definition (the life-plan coach is a seeded definition).
func definedAgent(ctx context.Context, a Agents, id string) bool {
	if a == nil {
		return false
	}
	_, err := a.Resolve(ctx, id)
	return err == nil
}

// chatCoalesce gathers the model's small deltas into one patch: the answer
// still grows as it is written, without a patch per token.
const chatCoalesce = 40 * time.Millisecond

// chatAgents is the orchestrator, when the kiosk has one to talk to, for
// member, one of the household.
func (h *chatSheets) chatAgents(ctx context.Context, member string) (Agents, error) {
	if _, err := h.household.Member(ctx, member); err != nil {
		return nil, err
	}
	if h.plan != nil && !definedAgent(ctx, h.agents, h.agent) || h.plan == nil && !hasAgent(h.agents, h.agent) {
		return nil, apperr.NotFoundf("%s cannot chat on this server", h.who())
	}
	return h.agents, nil
}

// who names the sheet's agent in an error.
func (h *chatSheets) who() string {
	if h.agent == houseAgent {
		return "the home assistant"
	}
	if h.agent == planAgent {
		return "the life-plan coach"
	}
	return "the coach"
}

// chatThread is chat thread id of the member with the sheet's agent,
// started on the kiosk; any other is not found (member scope is the URL's
// member, checked here; a conversation an admin had as the member is the
// admin's).
func (h *chatSheets) chatThread(ctx context.Context, a Agents, member string, id int64) (agent.Thread, error) {
	t, err := a.Threads().Thread(ctx, id)
	if err != nil {
		return agent.Thread{}, err
	}
	if t.Member != member || t.Agent != h.agent || !t.Chat || t.Origin != agent.SurfaceKiosk {
		return agent.Thread{}, apperr.NotFoundf("conversation %d not found", id)
	}
	return t, nil
}

// chatSheet builds the sheet for thread (0: a new conversation).
func (h *chatSheets) chatSheet(ctx context.Context, a Agents, member string, thread int64, csrf string) (kioskview.ChatSheet, error) {
	cs := h.empty(member, csrf, thread)
	if err := h.heldCards(ctx, &cs); err != nil {
		return cs, err
	}
	if err := h.taps(ctx, &cs); err != nil {
		return cs, err
	}
	ts, err := a.Threads().Chats(ctx, h.agent, member, agent.SurfaceKiosk, 30)
	if err != nil {
		return cs, err
	}
	for _, t := range ts {
		cs.Threads = append(cs.Threads, kioskview.ChatThreadItem{ID: t.ID, Title: t.Title,
			When: health.DayText(t.UpdatedAt, time.Now(), h.loc) + " " + t.UpdatedAt.In(h.loc).Format("15:04")})
	}
	if thread == 0 {
		return cs, nil
	}
	if _, err := h.chatThread(ctx, a, member, thread); err != nil {
		return cs, err
	}
	msgs, err := a.Threads().Messages(ctx, thread, 0, 200)
	if err != nil {
		return cs, err
	}
	var chips []string
	for _, m := range msgs {
		switch {
		case m.Type == agent.MessageToolCall:
			chips = append(chips, a.ToolLabel(h.agent, m.ToolName))
		case m.Type != agent.MessageText:
		case m.Role == agent.RoleUser:
			cs.Messages = append(cs.Messages, kioskview.ChatMessage{Mine: true, Text: m.Content})
			chips = nil
		default:
			cs.Messages = append(cs.Messages, kioskview.ChatMessage{Text: strings.TrimSpace(m.Content), Chips: chips})
			chips = nil
		}
	}
	for _, turn := range a.ActiveChats(member) {
		if turn.ThreadID == thread {
			t := chatTurn(turn)
			cs.Turn = &t
		}
	}
	return cs, nil
}

// chatTurn is a turn's answer as far as it has got.
func chatTurn(cs *agent.ChatStream) kioskview.ChatTurn {
	t := kioskview.ChatTurn{RunID: cs.RunID, Done: cs.Done()}
	t.Text, t.Error = cs.Answer()
	for _, ev := range cs.Tools() {
		t.Chips = append(t.Chips, ev.Label)
	}
	return t
}

// kioskChat shows the chat sheet's content: a conversation (/chat/:thread),
// the latest one (/chat/latest) or a new one (/chat).
func (h *chatSheets) kioskChat(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	a, err := h.chatAgents(ctx, member)
	if err != nil {
		return err
	}
	var thread int64
	switch p := c.Param("thread"); p {
	case "":
	case "latest":
		ts, err := a.Threads().Chats(ctx, h.agent, member, agent.SurfaceKiosk, 1)
		if err != nil {
			return err
		}
		if len(ts) > 0 {
			thread = ts[0].ID
		}
	default:
		if thread, err = strconv.ParseInt(p, 10, 64); err != nil || thread < 1 {
			return apperr.NotFoundf("conversation %q not found", p)
		}
		if _, err := h.chatThread(ctx, a, member, thread); err != nil {
			return err
		}
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	sheet, err := h.chatSheet(ctx, a, member, thread, httpkit.CSRFToken(c))
	if err != nil {
		return err
	}
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.ChatBody(sheet))
}

// kioskChatSend sends the member's message to the coach and streams the
// answer into the sheet as it is written. The answer is generated on the
// engine's own context: it is stored (and shows when the sheet is opened
// again) even if this screen goes away.
func (h *chatSheets) kioskChatSend(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	a, err := h.chatAgents(ctx, member)
	if err != nil {
		return err
	}
	var thread int64
	if v := strings.TrimSpace(c.FormValue("thread")); v != "" && v != "0" {
		if thread, err = strconv.ParseInt(v, 10, 64); err != nil || thread < 1 {
			return apperr.FieldErrors(map[string]string{"thread": "is not a conversation"})
		}
		if _, err := h.chatThread(ctx, a, member, thread); err != nil {
			return err
		}
	}
	errs := map[string]string{}
	raw := c.FormValue("message")
	if h.plan != nil && strings.TrimSpace(raw) == "" { // "Keep these" under the value chips
		raw = tappedValues(c)
	}
	msg := text.Required(errs, "message", text.Line, raw, agent.MaxChatMessageLen)
	if len(errs) > 0 {
		return h.chatFormError(c, member, thread, "Your message "+errs["message"]+".", apperr.FieldErrors(errs))
	}
	slot, err := h.gate.turn(c, member)
	if ae := apperr.As(err); ae != nil {
		return h.chatFormError(c, member, thread, ae.Message+".", err)
	} else if err != nil {
		return err
	}
	run, err := a.Start(ctx, agent.Request{Agent: h.agent, Member: member, Message: msg,
		Thread: thread, Trigger: agent.TriggerManual, FromMember: true, Surface: agent.SurfaceKiosk})
	if err != nil {
		slot.Release()
		return err
	}
	cs, ok := a.ChatStream(run.ID)
	if !ok {
		slot.Release()
		return apperr.New(apperr.Internal, "the chat turn has no stream")
	}
	slot.Bind(cs.Done) // the member's next turn waits for this one's answer
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	sheet, err := h.chatSheet(ctx, a, member, cs.ThreadID, httpkit.CSRFToken(c))
	if err != nil {
		return err
	}
	if sheet.Turn == nil { // already over: show the answer as the turn
		if n := len(sheet.Messages); n > 0 && !sheet.Messages[n-1].Mine {
			sheet.Messages = sheet.Messages[:n-1]
		}
		t := chatTurn(cs)
		sheet.Turn = &t
	}
	sse := httpkit.StartStream(c)
	if err := sse.PatchElementTempl(kioskview.ChatBody(sheet)); err != nil {
		return nil
	}
	// A morph keeps what the field holds; the sent message must go.
	if err := sse.PatchElementTempl(kioskview.ChatForm(sheet), datastar.WithModeReplace()); err != nil {
		return nil
	}
	sent := 0
	for {
		evs, changed, done := cs.Next(sent)
		if len(evs) > 0 {
			sent += len(evs)
			if err := sse.PatchElementTempl(kioskview.ChatTurnView(chatTurn(cs))); err != nil {
				return nil // gone; the turn carries on and is stored
			}
		}
		if done {
			if h.plan != nil { // the plan moved on: its page, and the prompts for the next step
				h.planTurnDone(ctx, sse, member, cs.ThreadID, httpkit.CSRFToken(c))
			}
			if h.held != nil { // an action the turn held shows for an adult
				sheet := h.empty(member, httpkit.CSRFToken(c), cs.ThreadID)
				if err := h.heldCards(ctx, &sheet); err == nil {
					_ = sse.PatchElementTempl(kioskview.HeldList(sheet))
				}
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
		select { // let a few more deltas arrive: one patch for them all
		case <-ctx.Done():
			return nil
		case <-time.After(chatCoalesce):
		}
	}
}

// chatFormError answers a message the kiosk did not send on: the form
// again with the reason as its error line and the message as typed (a
// Datastar answer must be 200 to be shown; a Retry-After set stays), or
// err for a plain form post.
func (h *chatSheets) chatFormError(c echo.Context, member string, thread int64, line string, err error) error {
	if !httpkit.IsDatastar(c) {
		return err
	}
	cs := h.empty(member, httpkit.CSRFToken(c), thread)
	cs.Error, cs.Typed = capitalize(line), c.FormValue("message")
	if err := h.taps(c.Request().Context(), &cs); err != nil {
		return err
	}
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.ChatForm(cs))
}

// empty is the sheet with nothing loaded: who it talks to and its form.
func (h *chatSheets) empty(member, csrf string, thread int64) kioskview.ChatSheet {
	return kioskview.ChatSheet{MemberID: member, CSRF: csrf, ThreadID: thread, Base: h.base,
		Talk: h.voice != nil && h.voice.Transcribes() && h.agent == kioskChatAgent}
}

// taps fill the sheet's tap prompts (the life-plan sheet only).
func (h *chatSheets) taps(ctx context.Context, cs *kioskview.ChatSheet) error {
	if h.plan == nil {
		return nil
	}
	return h.plan.taps(ctx, cs)
}

// planTurnDone shows what a finished turn of the life-plan coach changed:
// the plan on the page, and the form with the prompts for the next step
// (a morph would keep the old prompt in the field: replaced).
func (h *chatSheets) planTurnDone(ctx context.Context, sse *datastar.ServerSentEventGenerator, member string, thread int64, csrf string) {
	if body, err := h.plan.body(ctx, member, csrf); err == nil {
		_ = sse.PatchElementTempl(kioskview.PlanBodyView(body))
	}
	cs := h.empty(member, csrf, thread)
	if err := h.taps(ctx, &cs); err == nil {
		_ = sse.PatchElementTempl(kioskview.ChatForm(cs), datastar.WithModeReplace())
	}
}

// capitalize upper-cases a message's first letter for a line of its own.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// kioskChatDelete deletes one of the member's conversations and shows a
// new one.
func (h *chatSheets) kioskChatDelete(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	a, err := h.chatAgents(ctx, member)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("thread"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("conversation %q not found", c.Param("thread"))
	}
	if _, err := h.chatThread(ctx, a, member, id); err != nil {
		return err
	}
	if err := a.DeleteThread(ctx, id); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	sheet, err := h.chatSheet(ctx, a, member, 0, httpkit.CSRFToken(c))
	if err != nil {
		return err
	}
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.ChatBody(sheet))
}
