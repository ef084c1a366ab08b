package kiosk

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/screen"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// PINs checks a member's PIN for shared screens (*household.Service).
type PINs interface {
	CheckPIN(ctx context.Context, member, pin string) (bool, error)
}

// screenLocks decides what a shared screen may show of a member: a member
// whose figures are private (or any member, on a "household only" screen)
// is locked until their PIN unlocks this screen for a few minutes.
type screenLocks struct {
	unlocks   *screen.Unlocks
	pins      PINs // nil: no PINs (a private member unlocks with a tap)
	household Household
	board     *dashboardModels // resolves the screen's layout (household only?)
}

// screenOf is the request's screen id ("" before its first page).
func screenOf(c echo.Context) string { return screen.IDOf(c.Request()) }

// ensureScreen gives a browser its screen id (on a page load).
func ensureScreen(c echo.Context) string {
	if id := screenOf(c); id != "" {
		return id
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	c.SetCookie(&http.Cookie{Name: screen.Cookie, Value: id, Path: "/", MaxAge: 400 * 24 * 3600, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: c.Scheme() == "https"})
	c.Request().AddCookie(&http.Cookie{Name: screen.Cookie, Value: id}) // this request's own renders see it
	return id
}

// locked reports whether member's private figures stay off this screen:
// they are private, or the screen is household only, and this screen has
// not unlocked them.
func (l *screenLocks) locked(sid string, private, householdOnly bool, member string) bool {
	return (private || householdOnly) && !l.unlocks.Unlocked(sid, member)
}

// householdOnly reports whether the request's screen shows its members only
// with their PIN (a layout that cannot be read counts as household only).
func (l *screenLocks) householdOnly(c echo.Context) bool {
	e, err := l.board.resolveScreen(c.Request().Context(), c, screenChoiceOf(c))
	return err != nil || e.Layout.HouseholdOnly
}

// guard refuses a locked member's chat, corrections and "privacy off" on
// a screen that has not unlocked them: one rule in front of every such
// route, so a route added later is covered by adding it to the group.
func (l *screenLocks) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("member")
		m, err := l.household.Member(c.Request().Context(), id)
		if err != nil {
			return err
		}
		if l.locked(screenOf(c), m.PrivateFigures, l.householdOnly(c), m.ID) {
			return errLocked(m)
		}
		return next(c)
	}
}

// personal refuses a member's life plan on a screen their PIN has not
// unlocked: stricter than guard (which locks private members only), and
// a member without a PIN (whom a tap unlocks: anyone at the screen can
// make it) has no life plan on a shared screen until an admin sets one.
// The API's rule is the same (web/api/lifeplan.go). The unlock is the
// server's record for this screen, never a page signal. A page load gets
// the unlock prompt (401), anything else 401.
func (l *screenLocks) personal(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m, err := l.household.Member(c.Request().Context(), c.Param("member"))
		if err != nil {
			return err
		}
		if m.HasPIN && l.unlocks.Unlocked(screenOf(c), m.ID) {
			return next(c)
		}
		if c.Request().Method != http.MethodGet || httpkit.IsDatastar(c) {
			if m.HasPIN {
				return apperr.New(apperr.Unauthorized, "%s's life plan is personal: unlock this screen with their PIN first.", m.Name)
			}
			return apperr.New(apperr.Unauthorized, "%s's life plan is personal: it opens on a shared screen only with their PIN, "+
				"and there is none yet (an admin sets one on Admin → Household).", m.Name)
		}
		ensureScreen(c) // the unlock form needs this screen's id
		p := kioskview.LockedPlan{Page: kioskPage(c, l.board.opt, m.Name+"'s life plan", "", m.ID, true),
			Member: kioskview.MemberHead{ID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar, Private: m.PrivateFigures,
				HasPIN: m.HasPIN, Locked: true}}
		return httpkit.Render(c, http.StatusUnauthorized, kioskview.LockedPlanView(p))
	}
}

func errLocked(m health.Member) error {
	if m.HasPIN {
		return apperr.New(apperr.Unauthorized, "%s's figures are private on this screen: unlock with their PIN first.", m.Name)
	}
	return apperr.New(apperr.Unauthorized, "%s's figures are private on this screen: tap Unlock first.", m.Name)
}

// kioskUnlock opens a member on this screen: with their PIN, or with a
// tap for a member who set none. Wrong PINs are limited per screen and
// per member (screen.Unlocks).
func (l *screenLocks) kioskUnlock(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := l.household.Member(ctx, c.Param("member"))
	if err != nil {
		return err
	}
	sid := screenOf(c)
	if sid == "" {
		return apperr.Invalidf("Reload this page first: this screen has no id yet.")
	}
	if !m.HasPIN && l.householdOnly(c) {
		return apperr.New(apperr.Unauthorized, "This screen opens a member's dashboard only with their PIN, and %s has none yet: "+
			"an admin sets one on Admin → Household.", m.Name)
	}
	if m.HasPIN && l.pins != nil {
		if ok, wait := l.unlocks.Allowed(sid, m.ID); !ok {
			return apperr.New(apperr.TooMany, "Too many wrong PINs: try again in %s.", waitText(wait))
		}
		ok, err := l.pins.CheckPIN(ctx, m.ID, c.FormValue("pin"))
		if err != nil {
			return err
		}
		if !ok {
			l.unlocks.Failed(sid, m.ID)
			msg := "That is not " + m.Name + "'s PIN."
			if !httpkit.IsDatastar(c) {
				return apperr.FieldErrors(map[string]string{"pin": msg})
			}
			head := kioskview.MemberHead{ID: m.ID, Name: m.Name, Private: m.PrivateFigures, HasPIN: true, Locked: true}
			f := views.FormState{Errors: map[string]string{"pin": msg}}
			if c.FormValue("then") == "plan" { // the Life plan page's form: still back to it
				f.Values = map[string]string{"then": "plan"}
			}
			return httpkit.NewSSE(c).PatchElementTempl(kioskview.UnlockForm(head, httpkit.CSRFToken(c), f))
		}
	}
	l.unlocks.Unlock(sid, m.ID)
	to := "/m/" + m.ID
	if c.FormValue("then") == "plan" { // unlocked from the Life plan page: back to it
		to += "/plan"
	}
	return l.answerTo(c, to, fmt.Sprintf("Unlocked on this screen for %d minutes.", int(screen.UnlockFor/time.Minute)))
}

// kioskLock locks a member on this screen now (lock=now).
func (l *screenLocks) kioskLock(c echo.Context) error {
	if c.FormValue("lock") != "now" {
		return apperr.FieldErrors(map[string]string{"lock": "must be now"})
	}
	m, err := l.household.Member(c.Request().Context(), c.Param("member"))
	if err != nil {
		return err
	}
	l.unlocks.Lock(screenOf(c), m.ID)
	return l.answer(c, m.ID, "Locked.")
}

// answer reloads the member's dashboard: the page is rendered for the new
// state (its stream follows by itself within a keep-alive).
func (l *screenLocks) answer(c echo.Context, member, msg string) error {
	return l.answerTo(c, "/m/"+member, msg)
}

// answerTo is answer loading the page at to (a member's path).
func (l *screenLocks) answerTo(c echo.Context, to, msg string) error {
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, to)
	}
	sse := httpkit.NewSSE(c)
	_ = sse.PatchElementTempl(views.Flash(msg, false))
	return httpkit.Navigate(sse, to)
}

func waitText(d time.Duration) string {
	if m := int(d.Round(time.Minute) / time.Minute); m > 1 {
		return fmt.Sprintf("%d minutes", m)
	}
	return "a minute"
}

// lockedModel is d as a screen that has not unlocked the member may show
// it: every part the templates mark private (class "fig": the weight, body
// composition, the coach's words, messages, suggestions' and questions'
// figures) is left out of the model, so it is in no byte of the page or
// the stream. d's slices are shared with the cached model: copied, never
// changed in place.
func lockedModel(d kioskview.Dashboard) kioskview.Dashboard {
	d.Member.Locked = true
	d.State.Weight = kioskview.WeightWidget{Locked: true}
	d.State.Body = kioskview.BodyWidget{Locked: true}
	// The history page shows the weight too: it is guarded, and not linked.
	d.State.Nutrition.History, d.State.Workouts.History = "", ""
	c := d.Coach
	c.Locked = true
	c.Briefing, c.BriefingUpdated, c.Feedback = "", false, nil
	c.Messages = slices.Clone(c.Messages)
	for i := range c.Messages {
		c.Messages[i].Text = ""
	}
	c.CTAs = slices.Clone(c.CTAs)
	for i := range c.CTAs {
		c.CTAs[i].Message = ""
	}
	c.Questions = slices.Clone(c.Questions)
	for i := range c.Questions {
		c.Questions[i].Context = nil
	}
	d.Coach = c
	return d
}

// lockedOn reports whether the screen sid (household only or not) has
// member locked now (a member that cannot be read is treated as locked:
// nothing private is sent).
func (s *dashboardModels) lockedOn(ctx context.Context, sid, member string, householdOnly bool) bool {
	e, err := s.sharedEntry(ctx, member)
	if err != nil {
		return true
	}
	private := false
	if e != nil {
		private = e.d.Member.Private
	} else if m, err := s.deps.Household.Member(ctx, member); err == nil {
		private = m.PrivateFigures
	} else {
		return true
	}
	return s.locks.locked(sid, private, householdOnly, member)
}

// sealedPage answers a member's page on a household-only screen that has
// not unlocked them: their name and the PIN form, nothing of their data
// and no stream (ok false: the dashboard may be shown).
func (s *dashboardModels) sealedPage(c echo.Context) (ok bool, err error) {
	ctx := c.Request().Context()
	e, err := s.resolveScreen(ctx, c, chooseScreen(c)) // a page load: a ?layout= is remembered
	if err != nil || !e.Layout.HouseholdOnly {
		return err != nil, err
	}
	m, err := s.deps.Household.Member(ctx, c.Param("member"))
	if err != nil {
		return true, err
	}
	if s.locks.unlocks.Unlocked(ensureScreen(c), m.ID) {
		return false, nil
	}
	p := kioskview.SealedPage{Page: kioskPage(c, s.opt, m.Name, "", "", false), Member: kioskview.MemberHead{ID: m.ID, Name: m.Name,
		Color: m.Color, Avatar: m.Avatar, Private: m.PrivateFigures, HasPIN: m.HasPIN, Locked: true}}
	p.Page.IdleMS = s.opt.KioskIdle.Milliseconds()
	return true, httpkit.Render(c, http.StatusOK, kioskview.Sealed(p))
}
