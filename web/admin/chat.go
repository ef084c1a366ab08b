package admin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/text"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// chatPages are Admin → Chat: talk to any agent as any member.
type chatPages struct {
	*core
	agents Agents
	defs   DefinitionsAdmin // nil: only the code agents
}

// memberExists is nil when member is one of the household.
func (s *chatPages) memberExists(ctx context.Context, member string) error {
	if s.members == nil {
		return nil
	}
	_, err := s.members.Member(ctx, member)
	return err
}

// newRID is a fresh request id for a rendered form.
func newRID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// adminChatURL is the chat page of agent and member (thread 0: new).
func adminChatURL(agentID, member string, thread int64) string {
	q := url.Values{"agent": {agentID}, "member": {member}}
	if thread > 0 {
		q.Set("thread", strconv.FormatInt(thread, 10))
	}
	return "/admin/chat?" + q.Encode()
}

// adminChatPage builds Admin → Chat for agent, member and thread (the
// first agent and member when none is chosen).
func (s *chatPages) adminChatPage(c echo.Context, agentID, member string, thread int64, form views.FormState) (adminview.AdminChat, error) {
	ctx := c.Request().Context()
	a := s.agents
	p := adminview.AdminChat{AdminPage: s.adminPage(c, "Chat", "chat"), Form: form, RID: newRID()}
	for _, inf := range a.Agents() {
		p.Agents = append(p.Agents, views.Option{Value: inf.ID, Label: inf.ID})
	}
	made, err := definition.AdminMade(ctx, s.agents, s.defs)
	if err != nil {
		return p, err
	}
	for _, inf := range made {
		p.Agents = append(p.Agents, views.Option{Value: inf.ID, Label: inf.ID + " (made in admin)"})
	}
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	if agentID == "" && len(p.Agents) > 0 {
		agentID = p.Agents[0].Value
	}
	if member == "" && len(p.Members) > 0 {
		member = p.Members[0].Value
	}
	if agentID == "" || member == "" {
		return p, nil
	}
	if _, err := s.agents.Resolve(ctx, agentID); err != nil {
		return p, err
	}
	if err := s.memberExists(ctx, member); err != nil {
		return p, err
	}
	p.Agent, p.Member, p.ThreadID, p.NewHref = agentID, member, thread, adminChatURL(agentID, member, 0)
	ts, err := a.Threads().Threads(ctx, agentID, member, 50)
	if err != nil {
		return p, err
	}
	for _, t := range ts {
		p.Threads = append(p.Threads, adminview.AdminChatThread{ID: t.ID, Title: t.Title, When: s.fmtWhen(t.UpdatedAt),
			Href: adminChatURL(agentID, member, t.ID)})
	}
	if thread == 0 {
		return p, nil
	}
	t, err := a.Threads().Thread(ctx, thread)
	if err != nil {
		return p, err
	}
	if t.Agent != agentID || t.Member != member {
		return p, apperr.NotFoundf("conversation %d is not one of %s with %s", thread, agentID, member)
	}
	if p.Log, err = s.adminChatLog(ctx, t); err != nil {
		return p, err
	}
	p.Stream = "/admin/live/chat/" + strconv.FormatInt(thread, 10)
	return p, nil
}

// adminChatLog is thread's messages as stored, and the answer being
// written if a turn is under way.
func (s *chatPages) adminChatLog(ctx context.Context, t agent.Thread) (adminview.AdminChatLog, error) {
	a := s.agents
	msgs, err := a.Threads().Messages(ctx, t.ID, 0, 500)
	if err != nil {
		return adminview.AdminChatLog{}, err
	}
	var l adminview.AdminChatLog
	for _, m := range msgs {
		r := adminview.AdminChatRow{Role: string(m.Role), Type: string(m.Type), Text: m.Content, Tool: m.ToolName,
			When: s.fmtWhen(m.CreatedAt)}
		if m.RunID != nil {
			r.Run = *m.RunID
		}
		switch m.Type {
		case agent.MessageToolCall:
			r.Label, r.Args = a.ToolLabel(t.Agent, m.ToolName), pretty(m.ToolArgs)
		case agent.MessageToolResult:
			r.Text = pretty([]byte(m.Content))
		}
		l.Rows = append(l.Rows, r)
	}
	for _, cs := range a.ActiveChats(t.Member) {
		if cs.ThreadID != t.ID {
			continue
		}
		text, errText := cs.Answer()
		at := &adminview.AdminChatTurn{Run: cs.RunID, Text: text, Error: errText}
		for _, ev := range cs.Tools() {
			at.Tools = append(at.Tools, adminview.AdminChatRow{Role: string(agent.RoleAssistant), Type: string(agent.MessageToolCall),
				Tool: ev.Tool, Label: ev.Label, Args: pretty(ev.Args), When: "now", Run: cs.RunID})
		}
		l.Turn = at
	}
	return l, nil
}

func (s *chatPages) adminChat(c echo.Context) error {
	var thread int64
	if v := c.QueryParam("thread"); v != "" {
		var err error
		if thread, err = strconv.ParseInt(v, 10, 64); err != nil || thread < 1 {
			return apperr.NotFoundf("conversation %q not found", v)
		}
	}
	p, err := s.adminChatPage(c, c.QueryParam("agent"), c.QueryParam("member"), thread, views.FormState{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminChatPage(p))
}

// adminChatSend sends the message as the member and shows the
// conversation, where the answer appears as it is written.
func (s *chatPages) adminChatSend(c echo.Context) error {
	agentID, member := c.FormValue("agent"), c.FormValue("member")
	httpkit.Owner(c, member)
	var thread int64
	if v := strings.TrimSpace(c.FormValue("thread")); v != "" && v != "0" {
		var err error
		if thread, err = strconv.ParseInt(v, 10, 64); err != nil || thread < 1 {
			return apperr.FieldErrors(map[string]string{"thread": "is not a conversation"})
		}
	}
	errs := map[string]string{}
	msg := text.Required(errs, "message", text.Multi, c.FormValue("message"), agent.MaxChatMessageLen)
	var err error
	if len(errs) == 0 {
		if err = s.memberExists(c.Request().Context(), member); err == nil {
			var run agent.Run
			// The admin's words, even as the member: answered, never heard
			// as the member's own (no FromMember).
			run, err = s.agents.Start(c.Request().Context(), agent.Request{Agent: agentID, Member: member,
				Message: msg, Thread: thread, Trigger: agent.TriggerManual, Chat: true})
			if err == nil {
				return c.Redirect(http.StatusSeeOther, adminChatURL(agentID, member, *run.ThreadID))
			}
		}
	} else {
		err = apperr.FieldErrors(errs)
	}
	fs, ferr := formFailure(err, httpkit.FormValues(c, "message"))
	if ferr != nil {
		return ferr
	}
	p, perr := s.adminChatPage(c, agentID, member, thread, fs)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminChatPage(p))
}

// liveChat re-renders a conversation's messages while a turn runs.
func (s *chatPages) liveChat(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("thread"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("conversation %q not found", c.Param("thread"))
	}
	t, err := s.agents.Threads().Thread(c.Request().Context(), id)
	if err != nil {
		return err
	}
	concerns := func(ev live.Event) bool {
		u, ok := ev.Data.(agent.ChatUpdate)
		return ev.Kind == live.KindChat && ok && u.Thread == id
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		l, err := s.adminChatLog(ctx, t)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.AdminChatLogView(l)}, nil
	})
}
