package kioskview

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"

	"hearth/views"
)

// widgetView renders one registered widget (internal/screen's registry
// names) from the dashboard model, nothing for a name it does not know.
func widgetView(d Dashboard, name string) templ.Component {
	if c := widget(d, name); c != nil {
		return c
	}
	return templ.NopComponent
}

// widget is the renderer registry; nil for an unknown name (a test checks
// every registered widget has one).
func widget(d Dashboard, name string) templ.Component {
	switch name {
	case "clock":
		return ClockWidget(d)
	case "weight":
		return WeightWidgetView(d.State.Weight)
	case "nutrition":
		return NutritionWidgetView(d.State.Nutrition)
	case "body":
		return BodyWidgetView(d.State.Body)
	case "workouts":
		return WorkoutsWidgetView(d.State.Workouts)
	case "upnext":
		return CuratedView(d.Curated)
	case "program":
		return ProgramWidget(d.Curated)
	case "playlist":
		return PlaylistView(d.Playlist)
	case "briefing":
		return BriefingView(d.Coach)
	case "prompts":
		return PromptsWidget(d.Coach)
	case "ctas":
		return CTAsView(d.Coach)
	case "messages":
		return MessagesView(d.Coach)
	case "chat":
		return ChatEntry(d)
	case "tiles":
		return TilesWidget(d)
	}
	return nil
}

// Renders reports whether the kiosk can render the named widget.
func Renders(name string) bool { return widget(Dashboard{}, name) != nil }

// leadSentence splits text after its first sentence (a '.', '!' or '?'
// followed by a space), which the briefing shows large.
func leadSentence(s string) (lead, rest string) {
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?') && i+1 < len(s) && unicode.IsSpace(rune(s[i+1])) {
			// An initial ("J. "), "e.g. " or a title ("Dr. ") is not an end.
			j := strings.LastIndexFunc(s[:i], unicode.IsSpace)
			word := strings.ToLower(s[j+1 : i])
			if r != '.' || (len([]rune(word)) > 1 && !abbreviations[word]) {
				return s[:i+1], strings.TrimLeftFunc(s[i+1:], unicode.IsSpace)
			}
		}
	}
	return s, ""
}

var abbreviations = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "st": true, "vs": true,
	"e.g": true, "i.e": true, "approx": true}

// openBrowse opens the catalog sheet and loads its list.
func openBrowse(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return "$_sheet = 'browse'; @get('" + url + "')"
}

func messageCount(n int) string {
	if n == 1 {
		return "1 message"
	}
	return strconv.Itoa(n) + " messages"
}
