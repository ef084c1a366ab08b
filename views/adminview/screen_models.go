package adminview

import "strconv"

// AdminScreens is Admin → "Add a screen": the kiosk URL for the household
// network, its QR code and how to set a tablet or a Pi's screen up.
type AdminScreens struct {
	AdminPage
	URL  string
	From string // where the host came from, e.g. "HEARTH_HOSTS"
	// Others are more URLs that reach the kiosk.
	Others []string
	// Problem says why a screen elsewhere cannot open URL ("" = none).
	Problem string
	// Local is the URL a browser on the Hearth machine itself opens.
	Local string
	QR    QRCode
}

// QRCode is a QR symbol drawn as one SVG path, one unit per module.
type QRCode struct {
	Size int
	Path string
}

// ViewBox is the SVG viewBox of the symbol.
func (q QRCode) ViewBox() string {
	n := strconv.Itoa(q.Size)
	return "0 0 " + n + " " + n
}
