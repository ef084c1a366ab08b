package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/qr"
	"hearth/views"
	"hearth/web/httpkit"
)

// adminScreens is Admin → "Add a screen": the kiosk URL for the household
// network as text and as a QR code drawn here (no script, no CDN). It is
// worked out per request: a DHCP lease may have changed since start.
func (s *Server) adminScreens(c echo.Context) error {
	a := ScreenURL(s.opt.ListenAddr, s.opt.Hosts)
	v := views.AdminScreens{AdminPage: s.adminPage(c, "Add a screen", "screens"), URL: a.URL, From: a.From,
		Others: a.Others, Problem: a.Problem, Local: a.Local}
	code, err := qr.Encode(a.URL)
	if err != nil { // only a URL longer than a QR code holds: the text above still works
		s.log.Warn("add a screen: no QR code", "url", a.URL, "err", err)
	} else {
		v.QR = views.QRCode{Size: code.Size(), Path: code.Path()}
	}
	return httpkit.Render(c, http.StatusOK, views.AdminScreensPage(v))
}
