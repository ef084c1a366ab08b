package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/web/httpkit"
)

// threads are the chat threads API: an agent's conversations with a
// member, and the chat turns in them.
type threads struct {
	agents    agents // the agents one can talk to
	members   memberCheck
	keepAlive time.Duration
}

// threadMember checks ?member or a body's member: required, and one of
// the household.
func (h threads) threadMember(c echo.Context, member string) (string, error) {
	member = strings.TrimSpace(member)
	if member == "" {
		return "", apperr.FieldErrors(map[string]string{"member": "is required"})
	}
	if err := h.members.exists(c.Request().Context(), member); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return "", apperr.FieldErrors(map[string]string{"member": "is not a member of the household"})
		}
		return "", err
	}
	return member, nil
}

// list lists an agent's threads with a member, most recent first.
func (h threads) list(c echo.Context) error {
	agents := h.agents.agents
	if _, err := agents.Resolve(c.Request().Context(), c.Param("agent")); err != nil {
		return err
	}
	member, err := h.threadMember(c, c.QueryParam("member"))
	if err != nil {
		return err
	}
	ts, err := agents.Threads().Threads(c.Request().Context(), c.Param("agent"), member, 100)
	if err != nil {
		return err
	}
	if ts == nil {
		ts = []agent.Thread{}
	}
	return c.JSON(http.StatusOK, map[string]any{"threads": ts})
}

// threadBody starts a thread.
type threadBody struct {
	Member string `json:"member"`
	Title  string `json:"title"`
}

// create starts an empty thread (201).
func (h threads) create(c echo.Context) error {
	agents := h.agents.agents
	if _, err := agents.Resolve(c.Request().Context(), c.Param("agent")); err != nil {
		return err
	}
	var b threadBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	member, err := h.threadMember(c, b.Member)
	if err != nil {
		return err
	}
	httpkit.Owner(c, member)
	t, err := agents.CreateThread(c.Request().Context(), c.Param("agent"), member, b.Title)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/threads/%d", t.ID))
	return c.JSON(http.StatusCreated, t)
}

func threadID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("thread %q not found", c.Param("id"))
	}
	return id, nil
}

// threadView is a thread with its messages.
type threadView struct {
	agent.Thread
	Messages []agent.ThreadMessage `json:"messages"`
}

// get returns a thread with its messages, oldest first: texts, tool
// calls (name and arguments) and tool results.
func (h threads) get(c echo.Context) error {
	id, err := threadID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ts := h.agents.agents.Threads()
	t, err := ts.Thread(ctx, id)
	if err != nil {
		return err
	}
	msgs, err := ts.Messages(ctx, id, 0, 500)
	if err != nil {
		return err
	}
	if msgs == nil {
		msgs = []agent.ThreadMessage{}
	}
	return c.JSON(http.StatusOK, threadView{Thread: t, Messages: msgs})
}

// messageBody is a member's chat message.
type messageBody struct {
	Content string `json:"content"`
}

// message sends the thread's member's message to its agent. The
// answer is generated on the engine's own context: it is stored even if
// the client goes away. With Accept: text/event-stream the answer streams:
// "delta" events ({"text"}), "tool" events ({"tool", "label", "args"}) as
// tools are called, "reset" when a failed model's partial text is
// replaced, then one "message" event with the stored answer (or "error").
// Otherwise the answer comes as JSON once it is complete.
func (h threads) message(c echo.Context) error {
	id, err := threadID(c)
	if err != nil {
		return err
	}
	var b messageBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	if strings.TrimSpace(b.Content) == "" {
		return apperr.FieldErrors(map[string]string{"content": "is required"})
	}
	ctx := c.Request().Context()
	agents := h.agents.agents
	t, err := agents.Threads().Thread(ctx, id)
	if err != nil {
		return err
	}
	httpkit.Owner(c, t.Member)
	run, err := agents.Start(ctx, agent.Request{Agent: t.Agent, Member: t.Member, Message: b.Content,
		Thread: t.ID, Trigger: agent.TriggerAPI, FromMember: true})
	if err != nil {
		return err
	}
	cs, ok := agents.ChatStream(run.ID)
	if !ok {
		return apperr.New(apperr.Internal, "the chat turn has no stream")
	}
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/event-stream") {
		return h.streamChat(c, cs)
	}
	done, err := agents.Wait(ctx, run.ID)
	if err != nil {
		return err
	}
	evs, _, _ := cs.Next(0)
	last := agent.ChatEvent{}
	if len(evs) > 0 {
		last = evs[len(evs)-1]
	}
	if last.Type != agent.ChatMessage || last.Message == nil {
		return apperr.New(apperr.Internal, "the coach could not answer: %s", done.Error)
	}
	return c.JSON(http.StatusOK, map[string]any{"run": done, "message": last.Message, "tools": toolEvents(cs.Tools())})
}

// chatTool is a tool call as the API shows it.
type chatTool struct {
	Tool  string          `json:"tool"`
	Label string          `json:"label"`
	Args  json.RawMessage `json:"args,omitempty"`
}

func toolEvents(evs []agent.ChatEvent) []chatTool {
	out := []chatTool{}
	for _, ev := range evs {
		out = append(out, chatTool{Tool: ev.Tool, Label: ev.Label, Args: ev.Args})
	}
	return out
}

// streamChat writes a chat turn's events as Server-Sent Events until the
// turn is over or the client goes (the turn carries on and is stored).
func (h threads) streamChat(c echo.Context, cs *agent.ChatStream) error {
	ev := httpkit.StartJSONEvents(c)
	ctx := c.Request().Context()
	tick := time.NewTicker(h.keepAlive)
	defer tick.Stop()
	sent := 0
	for {
		evs, changed, done := cs.Next(sent)
		for _, e := range evs {
			var data any
			switch e.Type {
			case agent.ChatDelta, agent.ChatError:
				data = map[string]string{"text": e.Text}
			case agent.ChatTool:
				data = chatTool{Tool: e.Tool, Label: e.Label, Args: e.Args}
			case agent.ChatReset:
				data = map[string]string{}
			case agent.ChatMessage:
				data = e.Message
			}
			if ev.Send(string(e.Type), data) != nil {
				return nil
			}
		}
		sent += len(evs)
		ev.Flush()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		case <-tick.C:
			if ev.KeepAlive() != nil {
				return nil
			}
		}
	}
}

// delete removes a thread, its messages and its own memory (204).
func (h threads) delete(c echo.Context) error {
	id, err := threadID(c)
	if err != nil {
		return err
	}
	if err := h.agents.agents.DeleteThread(c.Request().Context(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
