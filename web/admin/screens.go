package admin

import (
	"net/http"

	"github.com/labstack/echo/v4"

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

// screenPage is Admin → "Add a screen".
type screenPage struct {
	*core
	screenURL func() ScreenAddress
}

// adminScreens is Admin → "Add a screen": the kiosk URL for the household
// network as text and as a QR code drawn here (no script, no CDN). It is
// worked out per request: a DHCP lease may have changed since start.
func (s *screenPage) adminScreens(c echo.Context) error {
	a := s.screenURL()
	v := adminview.AdminScreens{AdminPage: s.adminPage(c, "Add a screen", "screens"), URL: a.URL, From: a.From,
		Others: a.Others, Problem: a.Problem, Local: a.Local}
	code, err := qr.Encode(a.URL)
	if err != nil { // only a URL longer than a QR code holds: the text above still works
		s.log.Warn("add a screen: no QR code", "url", a.URL, "err", err)
	} else {
		v.QR = adminview.QRCode{Size: code.Size(), Path: code.Path()}
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminScreensPage(v))
}
