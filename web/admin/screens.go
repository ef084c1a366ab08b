package admin

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/devices"
	"hearth/internal/qr"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// ScreenAddress is the URL a screen on the household network opens the
// kiosk at (web.ScreenURL works it out).
type ScreenAddress struct {
	URL     string
	From    string   // where the host name came from
	Others  []string // more URLs that reach the kiosk
	Problem string   // why a screen on another device cannot open URL, and what to change
	Local   string   // the URL for a browser on this machine
}

// Devices are the household's device tokens as Admin → Screens uses them
// (*devices.Service).
type Devices interface {
	Required(ctx context.Context) (bool, error)
	SetRequired(ctx context.Context, on bool) error
	StartEnrolment(ctx context.Context, name string) (devices.Device, string, error)
	CreateScript(ctx context.Context, name string) (devices.Device, string, error)
	List(ctx context.Context) ([]devices.Device, error)
	Revoke(ctx context.Context, id int64) (devices.Device, error)
}

// screenPage is Admin → Screens: the kiosk URL, and device tokens when
// the household has them (devices non-nil).
type screenPage struct {
	*core
	screenURL func() ScreenAddress
	devices   Devices
	layouts   Layouts // nil: no layouts section
	members   Members // the preview's member
	copilot   bool    // the copilot panel beside the enrol-a-screen form
}

var screenNotices = map[string]string{
	"on":      "Screens and the household API now need a device token.",
	"off":     "Screens and the household API are open to the household network again.",
	"revoked": "Revoked: its next request is refused.",
}

// adminScreens is Admin → Screens: the kiosk URL for the household network
// as text and as a QR code drawn here (no script, no CDN), worked out per
// request (a DHCP lease may have changed since start); the device-token
// setting and the enrolled screens and scripts.
func (s *screenPage) adminScreens(c echo.Context) error {
	done := c.QueryParam("done")
	text := screenNotices[done]
	if text == "" {
		text = layoutNotices[done]
	}
	p, err := s.screensPage(c, adminview.DeviceForms{}, adminview.Notice{Text: text}, nil)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminScreensPage(p))
}

func (s *screenPage) screensPage(c echo.Context, forms adminview.DeviceForms, notice adminview.Notice,
	created *adminview.NewDevice) (adminview.AdminScreens, error) {
	a := s.screenURL()
	v := adminview.AdminScreens{AdminPage: s.adminPage(c, "Screens", "screens"), URL: a.URL, From: a.From,
		Others: a.Others, Problem: a.Problem, Local: a.Local, Notice: notice}
	v.QR = s.qrCode(a.URL)
	ctx := c.Request().Context()
	if s.layouts != nil {
		ls, err := s.layoutSection(ctx)
		if err != nil {
			return v, err
		}
		v.Layouts = ls
	}
	if s.devices == nil {
		return v, nil
	}
	on, err := s.devices.Required(ctx)
	if err != nil {
		return v, err
	}
	list, err := s.devices.List(ctx)
	if err != nil {
		return v, err
	}
	v.Devices = &adminview.DeviceSection{Required: on, Forms: forms, New: created, Copilot: s.copilot}
	var assigned map[int64]string
	if s.layouts != nil {
		if assigned, err = s.layouts.Assignments(ctx); err != nil {
			return v, err
		}
	}
	now := time.Now()
	for _, d := range list {
		row := adminview.DeviceRow{ID: strconv.FormatInt(d.ID, 10), Name: d.Name, Kind: string(d.Kind), Pending: d.Pending,
			Layout: assigned[d.ID], Layouts: v.Layouts != nil && d.Kind == devices.Screen}
		if d.Pending {
			row.Expires = s.fmtClock(d.Expires)
		} else {
			row.Enrolled = s.fmtSlot(d.Enrolled)
		}
		if !d.LastSeen.IsZero() {
			row.LastSeen = s.fmtSlot(d.LastSeen) + ", " + age(now.Sub(d.LastSeen))
		}
		v.Devices.Rows = append(v.Devices.Rows, row)
	}
	return v, nil
}

func (s *screenPage) qrCode(text string) adminview.QRCode {
	code, err := qr.Encode(text)
	if err != nil { // only a URL longer than a QR code holds: the text still works
		s.log.Warn("screens: no QR code", "err", err)
		return adminview.QRCode{}
	}
	return adminview.QRCode{Size: code.Size(), Path: code.Path()}
}

func (s *core) fmtClock(t time.Time) string { return t.In(s.opt.Location).Format("15:04") }

// adminScreenTokens turns "screens and the household API need a device
// token" on or off (require=on|off; anything else changes nothing).
func (s *screenPage) adminScreenTokens(c echo.Context) error {
	var on bool
	switch c.FormValue("require") {
	case "on":
		on = true
	case "off":
	default:
		return apperr.FieldErrors(map[string]string{"require": "must be on or off"})
	}
	if err := s.devices.SetRequired(c.Request().Context(), on); err != nil {
		return err
	}
	s.log.Info("device tokens", "required", on)
	return c.Redirect(http.StatusSeeOther, "/admin/screens?done="+c.FormValue("require"))
}

// adminScreenAdd makes a screen's enrolment link (kind=screen) or a
// script's token (kind=script) and shows it on the answer, once: only its
// hash is kept, so the page cannot show it again (and the route keeps no
// replay copy of its answer).
func (s *screenPage) adminScreenAdd(c echo.Context) error {
	ctx := c.Request().Context()
	kind, name := c.FormValue("kind"), c.FormValue("name")
	var (
		d      devices.Device
		secret string
		err    error
	)
	switch devices.Kind(kind) {
	case devices.Screen:
		d, secret, err = s.devices.StartEnrolment(ctx, name)
	case devices.Script:
		d, secret, err = s.devices.CreateScript(ctx, name)
	default:
		err = apperr.FieldErrors(map[string]string{"kind": "must be screen or script"})
	}
	if err != nil {
		fs, ferr := formFailure(err, map[string]string{"name": name})
		if ferr != nil {
			return ferr
		}
		forms := adminview.DeviceForms{Screen: fs}
		if kind == string(devices.Script) {
			forms = adminview.DeviceForms{Script: fs}
		}
		p, perr := s.screensPage(c, forms, adminview.Notice{}, nil)
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, http.StatusBadRequest, adminview.AdminScreensPage(p))
	}
	created := &adminview.NewDevice{ID: strconv.FormatInt(d.ID, 10), Name: d.Name, Kind: string(d.Kind)}
	if d.Kind == devices.Screen {
		created.Link = strings.TrimSuffix(s.screenURL().URL, "/") + "/enrol/" + secret
		created.QR = s.qrCode(created.Link)
		created.Expires = s.fmtClock(d.Expires)
	} else {
		created.Token = secret
	}
	s.log.Info("device added", "kind", d.Kind, "device", d.ID, "name", d.Name)
	p, err := s.screensPage(c, adminview.DeviceForms{}, adminview.Notice{}, created)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminScreensPage(p))
}

// adminScreenRevoke deletes a screen or script (or cancels a waiting link).
func (s *screenPage) adminScreenRevoke(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("no such screen or script")
	}
	d, err := s.devices.Revoke(c.Request().Context(), id)
	if err != nil {
		return err
	}
	s.log.Info("device revoked", "kind", d.Kind, "device", d.ID, "name", d.Name)
	return c.Redirect(http.StatusSeeOther, "/admin/screens?done=revoked")
}
