package adminview

import (
	"strconv"

	"hearth/views"
)

// AdminScreens is Admin → Screens: the kiosk URL for the household
// network, its QR code and how to set a tablet or a Pi's screen up; and,
// with device tokens, the setting and the enrolled screens and scripts.
type AdminScreens struct {
	AdminPage
	Notice Notice
	URL    string
	From   string // where the host came from, e.g. "HEARTH_HOSTS"
	// Others are more URLs that reach the kiosk.
	Others []string
	// Problem says why a screen elsewhere cannot open URL ("" = none).
	Problem string
	// Local is the URL a browser on the Hearth machine itself opens.
	Local string
	QR    QRCode
	// Devices is the device-token part; nil when the server has none.
	Devices *DeviceSection
}

// DeviceSection is the device-token setting, the devices and the forms
// that add one.
type DeviceSection struct {
	Required bool
	Rows     []DeviceRow
	Forms    DeviceForms
	// New is the device just added, with its link or token: shown once.
	New *NewDevice
}

// DeviceForms are the add-a-screen and add-a-script forms (values, errors).
type DeviceForms struct {
	Screen, Script views.FormState
}

// DeviceRow is one enrolled screen or script, or a screen waiting for its
// link to be opened (Pending, until Expires).
type DeviceRow struct {
	ID, Name, Kind string
	Pending        bool
	Expires        string // household clock, "15:04"
	Enrolled       string
	LastSeen       string // "" = never
}

// NewDevice is a device just added: a screen's enrolment link (as text and
// QR code) or a script's token.
type NewDevice struct {
	ID, Name, Kind string
	Link           string
	QR             QRCode
	Expires        string
	Token          string
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
