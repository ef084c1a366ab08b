package views

import (
	"context"
	"fmt"
	"hearth/internal/health"
	"regexp"
	"strconv"
	"time"

	"github.com/a-h/templ"
)

// safePath matches the server-built URLs that may appear inside Datastar
// expressions: fixed route prefixes plus validated ids, no quotes or spaces.
var safePath = regexp.MustCompile(`^/[A-Za-z0-9/_:.-]*$`)

// safeID matches ids that may appear in element ids and URLs (prompt ids per
// the dashboard schema, member ids per the members table).
var safeID = regexp.MustCompile(`^[a-z0-9_-]{1,40}$`)

// SafeID reports whether id may be used in element ids and action URLs.
func SafeID(id string) bool { return safeID.MatchString(id) }

// SafePath reports whether a server-built URL may appear inside a Datastar
// expression (safePath).
func SafePath(url string) bool { return safePath.MatchString(url) }

// csrfPattern is the shape of the tokens the server issues. The token sits
// in data-signals, which Datastar evaluates as code: anything else (a
// cookie planted by someone else) is left out.
var csrfPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// bodySignals are the page's client-only signals. Only server values of a
// fixed shape go in (DESIGN §7): no request, user or model text.
func bodySignals(p Page) (string, error) {
	csrf := p.CSRF
	if !csrfPattern.MatchString(csrf) {
		csrf = ""
	}
	sheet := ""
	if OpenSheet(p.Sheet) != "" {
		sheet = p.Sheet
	}
	return templ.JSONString(map[string]any{"_csrf": csrf, "_sheet": sheet, "_reveal": false, "_private": p.Private, "_ka": 0})
}

// streamExpr opens the page's live stream: unlimited retries (a kiosk must
// come back after a server restart), kept open while hidden so the watchdog
// in hearth.js, not the visibility API, decides when a stream is dead. The
// AbortController from hearth.js ends the stream when the page is left: a
// page kept in the back-forward cache would otherwise hold its connection
// open, and six of those exhaust the browser's connections to the server.
//
// With form (the id of a form of hidden inputs) the request sends that
// form's fields as its query: a filter travels as plain attribute values,
// never inside the expression. A version (Page.StreamVersion, letters and
// digits only) goes in the URL as ?v=: the stream skips the patches the
// page already has. Datastar's retries reuse this URL; the server tells a
// reconnect by the Last-Event-ID header its first event set.
func streamExpr(url, form, version string) string {
	if !safePath.MatchString(url) || (form != "" && !SafeID(form)) {
		return ""
	}
	if streamVersion.MatchString(version) {
		url += "?v=" + version
	}
	sel := ""
	if form != "" {
		sel = "contentType: 'form', selector: '#" + form + "', "
	}
	return fmt.Sprintf("@get('%s', {%srequestCancellation: window.hearthStream, openWhenHidden: true, retry: 'always', retryMaxCount: 1000000000, retryInterval: 1000, retryScaler: 2, retryMaxWait: 5000})", url, sel)
}

// streamVersion is the shape of Page.StreamVersion (a base-36 hash).
var streamVersion = regexp.MustCompile(`^[0-9a-z]{1,16}$`)

// PostForm submits the closest form through Datastar with the CSRF header.
func PostForm(url string) string {
	if !safePath.MatchString(url) {
		return ""
	}
	return fmt.Sprintf("@post('%s', {contentType: 'form', headers: {'X-CSRF-Token': $_csrf}})", url)
}

// GetForm sends the closest form's fields as a Datastar GET.
func GetForm(url string) string {
	if !safePath.MatchString(url) {
		return ""
	}
	return fmt.Sprintf("@get('%s', {contentType: 'form'})", url)
}

// OpenSheet is the expression that opens a logging sheet by fixed name.
func OpenSheet(name string) string {
	switch name {
	case "weight", "meal", "workout", "scan", "entry":
		return "$_sheet = '" + name + "'"
	}
	return ""
}

// OpenSheetOn opens a logging sheet dated on the day in the clicked
// element's value (a call to action about a past day): the expression is
// fixed text, the day travels in the plain value attribute.
func OpenSheetOn(name string) string {
	if OpenSheet(name) == "" {
		return ""
	}
	return "window.hearthSheetDay && window.hearthSheetDay('" + name + "', el.value); " + OpenSheet(name)
}

// SafeDay reports whether s is a YYYY-MM-DD date (a CTA's day).
func SafeDay(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// WorkoutTypes are the choices of the workout sheet.
var WorkoutTypes = []string{"strength", "cardio", "run", "cycling", "walk", "yoga", "hiit", "stretch", "core", "swim", "sport", "other"}

// assetsKey carries a server's static file URL mapping in a request's
// context (each server has its own: content-hashed URLs of its files).
type assetsKey struct{}

// WithAssets returns ctx carrying f, the mapping from a static file's name
// to the URL pages link (web's middleware sets it on every page request).
func WithAssets(ctx context.Context, f func(name string) string) context.Context {
	return context.WithValue(ctx, assetsKey{}, f)
}

// AssetURL is the URL of a static file, e.g. AssetURL(ctx, "hearth.css"):
// the content-hashed URL of the server rendering the page, or the plain
// /static/ path when ctx carries no mapping.
func AssetURL(ctx context.Context, name string) string {
	if f := AssetsFrom(ctx); f != nil {
		return f(name)
	}
	return "/static/" + name
}

// AssetsFrom is the static file URL mapping ctx carries (WithAssets), or
// nil: what renders shared by every client (the live stream's patches)
// take from the first request, so they link the same URLs as the page.
func AssetsFrom(ctx context.Context) func(name string) string {
	f, _ := ctx.Value(assetsKey{}).(func(string) string)
	return f
}

// Plural is "1 day", "3 days".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return health.Thousands(float64(n)) + " " + word + "s"
}

// When renders a past time relative to now: "today 07:12", "yesterday
// 18:30", "Mon 9 Feb", "Mon 9 Feb 2025" (the year when not this year's).
func When(t, now time.Time, loc *time.Location) string {
	switch health.DaysAgo(t, now, loc) {
	case 0:
		return "today " + t.In(loc).Format("15:04")
	case 1:
		return "yesterday " + t.In(loc).Format("15:04")
	}
	return health.DayText(t, now, loc)
}

// Round1 rounds to one decimal, as forms show a figure.
func Round1(v float64) float64 { return health.Round1(v) }
