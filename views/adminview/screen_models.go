package adminview

import (
	"fmt"
	"strconv"

	"github.com/a-h/templ"

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
	// Layouts are the screen layouts; nil when the server has none.
	Layouts *LayoutSection
}

// LayoutSection is Admin → Screens' layouts: the list, the household
// default, the form that adds one and the widget registry.
type LayoutSection struct {
	Rows    []LayoutRow
	Default string // slug
	New     views.FormState
	Widgets []WidgetRow
}

// LayoutRow is one layout.
type LayoutRow struct {
	Slug, Name, Version, Grids string
	Default, Shipped           bool
}

// WidgetRow is one widget of the registry.
type WidgetRow struct {
	Name, Title, Sizes, Needs, About string
	Private                          bool
}

// AdminLayoutEditor is one layout's editor.
type AdminLayoutEditor struct {
	AdminPage
	Notice  Notice
	Row     LayoutRow
	Body    string // the layout file as edited
	Form    views.FormState
	Preview string // the kiosk page showing this layout ("" : no member to show)
	// PreviewW×PreviewH is the screen the preview stands for: the
	// layout's first grid's (landscape 1280×800, portrait 800×1280, a
	// phone 390×844), shown at half size.
	PreviewW, PreviewH int
	Versions           []LayoutVersion
}

// LayoutVersion is one saved version of a layout.
type LayoutVersion struct{ Version, Saved string }

// DeviceSection is the device-token setting, the devices and the forms
// that add one.
type DeviceSection struct {
	Required bool
	Rows     []DeviceRow
	Forms    DeviceForms
	// New is the device just added, with its link or token: shown once.
	New *NewDevice
	// Copilot shows the configuration copilot beside the enrol-a-screen form.
	Copilot bool
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
	// Layout is the screen's own layout ("" : the household default);
	// Layouts: the row offers the choice (a screen, with layouts).
	Layout  string
	Layouts bool
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

// previewBox is the preview frame's box: the screen at half size.
func previewBox(w, h int) templ.SafeCSS {
	return templ.SafeCSS(fmt.Sprintf("width:%dpx;height:%dpx;", w/2, h/2))
}

// previewSize is the framed page's own size, scaled down by half (CSS).
func previewSize(w, h int) templ.SafeCSS {
	return templ.SafeCSS(fmt.Sprintf("width:%dpx;height:%dpx;", w, h))
}
