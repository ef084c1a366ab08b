package admin

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// memoryPages are Admin → Memory: what the agents remember per member.
type memoryPages struct {
	*core
	agents Agents
}

// adminActor is who the memory history names for changes made in the admin area.
var adminActor = agent.AdminActor("admin")

// memoryHistoryRows is how many history rows the memory page shows.
const memoryHistoryRows = 50

// parseTTL reads a time to live: "" is persistent; Go durations ("90m",
// "1h30m") and whole days or weeks ("7d", "2w") are accepted.
func parseTTL(s string) (time.Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return 0, nil
	}
	bad := apperr.FieldErrors(map[string]string{"ttl": "must be a duration like 90m, 48h or 7d (empty = persistent)"})
	var d time.Duration
	if n, err := strconv.Atoi(strings.TrimSuffix(s, "d")); err == nil && strings.HasSuffix(s, "d") {
		d = time.Duration(n) * 24 * time.Hour
	} else if n, err := strconv.Atoi(strings.TrimSuffix(s, "w")); err == nil && strings.HasSuffix(s, "w") {
		d = time.Duration(n) * 7 * 24 * time.Hour
	} else if d, err = time.ParseDuration(s); err != nil {
		return 0, bad
	}
	if d <= 0 || d > 10*365*24*time.Hour {
		return 0, bad
	}
	return d, nil
}

// fmtLeft renders a remaining time compactly ("2d 3h", "45m", "30s").
func fmtLeft(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%ds", max(int(d/time.Second), 0))
}

// ttlValue is the remaining time in the syntax parseTTL reads.
func ttlValue(d time.Duration) string {
	if d >= 24*time.Hour && d%(24*time.Hour) < time.Minute {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return d.Round(time.Minute).String()
}

func fmtAgo(d time.Duration) string {
	if d < time.Minute {
		return "just now"
	}
	return fmtLeft(d) + " ago"
}

func (s *memoryPages) memoryRows(entries []agent.MemoryEntry, now time.Time) []adminview.MemoryRow {
	out := make([]adminview.MemoryRow, 0, len(entries))
	for _, e := range entries {
		row := adminview.MemoryRow{Key: e.Key, Value: e.Value, Age: fmtAgo(now.Sub(e.UpdatedAt))}
		if e.ExpiresAt != nil {
			left := e.ExpiresAt.Sub(now)
			if left <= 0 {
				continue // expired entries are never shown as live
			}
			row.Expires, row.ExpiresAt = s.fmtWhen(*e.ExpiresAt), e.ExpiresAt.UTC().Format(time.RFC3339)
			row.TTL = fmtLeft(left)
			if left >= time.Minute {
				row.TTL = ttlValue(left)
			}
		}
		out = append(out, row)
	}
	return out
}

func (s *memoryPages) historyRows(changes []agent.MemoryChange) []adminview.MemoryChangeRow {
	out := make([]adminview.MemoryChangeRow, len(changes))
	for i, ch := range changes {
		r := adminview.MemoryChangeRow{ID: ch.ID, At: s.fmtWhen(ch.At), Actor: ch.Actor, Key: ch.Key,
			OldExp: s.fmtWhenPtr(ch.OldExpiresAt), NewExp: s.fmtWhenPtr(ch.NewExpiresAt)}
		if ch.OldValue != nil {
			r.Old, r.HadOld = *ch.OldValue, true
		}
		if ch.NewValue != nil {
			r.New, r.HasNew = *ch.NewValue, true
		}
		if ch.RunID != nil {
			r.RunID = *ch.RunID
		}
		if ch.UndoOf != nil {
			r.UndoOf = *ch.UndoOf
		}
		out[i] = r
	}
	return out
}

// memoryData reads the live entries and recent history of (agent, member).
func (s *memoryPages) memoryData(ctx context.Context, agentID, member string) ([]adminview.MemoryRow, []adminview.MemoryChangeRow, error) {
	mem := s.agents.Memory()
	entries, err := mem.Entries(ctx, agentID, member)
	if err != nil {
		return nil, nil, err
	}
	history, err := mem.History(ctx, agentID, member, memoryHistoryRows)
	if err != nil {
		return nil, nil, err
	}
	return s.memoryRows(entries, mem.Now()), s.historyRows(history), nil
}

func (s *memoryPages) memoryPage(c echo.Context, agentID, member string, form views.FormState, notice adminview.Notice) (adminview.AdminMemory, error) {
	ctx := c.Request().Context()
	p := adminview.AdminMemory{AdminPage: s.adminPage(c, "Memory", "memory"), Notice: notice, Form: form}
	for _, a := range s.agents.Agents() {
		p.Agents = append(p.Agents, views.Option{Value: a.ID, Label: a.ID})
	}
	var err error
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	if agentID == "" && len(p.Agents) > 0 {
		agentID = p.Agents[0].Value
	}
	if member == "" && len(p.Members) > 0 {
		member = p.Members[0].Value
	}
	if agentID != "" {
		if _, err := s.agents.Agent(agentID); err != nil {
			return p, err
		}
	}
	if member != "" {
		known := false
		for _, m := range p.Members {
			known = known || m.Value == member
		}
		if !known {
			return p, apperr.NotFoundf("unknown member %q", member)
		}
	}
	p.Agent, p.Member = agentID, member
	if agentID == "" || member == "" {
		return p, nil
	}
	if p.Entries, p.History, err = s.memoryData(ctx, agentID, member); err != nil {
		return p, err
	}
	p.Stream = "/admin/live/memory/" + agentID + "/" + member
	return p, nil
}

func memoryURL(agentID, member, done string) string {
	q := url.Values{"agent": {agentID}, "member": {member}}
	if done != "" {
		q.Set("done", done)
	}
	return "/admin/memory?" + q.Encode()
}

var memoryNotices = map[string]string{"saved": "Saved.", "deleted": "Deleted.", "undone": "Undone."}

// adminMemory shows one agent's memory about one member, with its history.
func (s *memoryPages) adminMemory(c echo.Context) error {
	p, err := s.memoryPage(c, c.QueryParam("agent"), c.QueryParam("member"), views.FormState{},
		adminview.Notice{Text: memoryNotices[c.QueryParam("done")]})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminMemoryPage(p))
}

// adminMemorySet adds or changes an entry (value and TTL); a bad key, value
// or TTL comes back inline with the typed values kept.
func (s *memoryPages) adminMemorySet(c echo.Context) error {
	agentID, member := c.FormValue("agent"), c.FormValue("member")
	httpkit.Owner(c, member)
	ttl, err := parseTTL(c.FormValue("ttl"))
	if err == nil {
		_, err = s.agents.Memory().Set(c.Request().Context(), agentID, member, c.FormValue("key"),
			c.FormValue("value"), ttl, adminActor)
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, memoryURL(agentID, member, "saved"))
	}
	fs, err := formFailure(err, httpkit.FormValues(c, "key", "value", "ttl"))
	if err != nil {
		return err
	}
	p, err := s.memoryPage(c, agentID, member, fs, adminview.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminMemoryPage(p))
}

// adminMemoryDelete removes an entry.
func (s *memoryPages) adminMemoryDelete(c echo.Context) error {
	agentID, member := c.FormValue("agent"), c.FormValue("member")
	httpkit.Owner(c, member)
	_, err := s.agents.Memory().Delete(c.Request().Context(), agentID, member, c.FormValue("key"), adminActor)
	if err != nil {
		return s.memoryRefusal(c, agentID, member, err)
	}
	return c.Redirect(http.StatusSeeOther, memoryURL(agentID, member, "deleted"))
}

// adminMemoryUndo restores the value a change replaced (recorded as a new change).
func (s *memoryPages) adminMemoryUndo(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("change"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("memory change %q not found", c.Param("change"))
	}
	mem := s.agents.Memory()
	ch, err := mem.Change(c.Request().Context(), id)
	if err != nil {
		return err
	}
	httpkit.Owner(c, ch.Member)
	// The undo form names the memory it was shown for; anything else is not
	// our form and changes nothing.
	if c.FormValue("agent") != ch.Agent || c.FormValue("member") != ch.Member {
		return apperr.Invalidf("this change belongs to another agent or member: reload the page and try again")
	}
	if _, err := mem.Undo(c.Request().Context(), id, adminActor); err != nil {
		return s.memoryRefusal(c, ch.Agent, ch.Member, err)
	}
	return c.Redirect(http.StatusSeeOther, memoryURL(ch.Agent, ch.Member, "undone"))
}

// memoryRefusal shows a refused change (expired earlier value, entry gone)
// on the memory page; other errors go to the error handler.
func (s *memoryPages) memoryRefusal(c echo.Context, agentID, member string, err error) error {
	notice, status, ok := userError(err)
	if !ok {
		return err
	}
	p, perr := s.memoryPage(c, agentID, member, views.FormState{}, notice)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, status, adminview.AdminMemoryPage(p))
}

// liveMemory re-renders the memory of (agent, member) when one of its runs ends.
func (s *memoryPages) liveMemory(c echo.Context) error {
	agentID, member := c.Param("agent"), c.Param("member")
	if _, err := s.agents.Agent(agentID); err != nil {
		return err
	}
	csrf := httpkit.CSRFToken(c)
	concerns := func(ev live.Event) bool {
		re, ok := runEvent(ev)
		return ok && re.Agent == agentID && re.Member == member && re.Status.Terminal()
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		entries, history, err := s.memoryData(ctx, agentID, member)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.MemoryLive(csrf, agentID, member, entries, history)}, nil
	})
}
