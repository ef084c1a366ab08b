// Package screen is the wall screen's framework: a registry of the widgets
// a dashboard can show and screen layouts (a grid of widget placements per
// orientation, which members a screen shows, rotation, idle return and
// night mode) kept as versioned data, so the fitness dashboard is one
// screen configuration among others, as wall-display products
// (MagicMirror², DAKboard, Home Assistant dashboards) work.
package screen

import (
	"fmt"
	"slices"
	"strings"
)

// Size is a widget's footprint in grid cells: W columns by H rows.
type Size struct{ W, H int }

func (s Size) String() string { return fmt.Sprintf("%d×%d", s.W, s.H) }

// Widget is what the registry knows of one widget: the sizes it renders
// at, which parts of the read model it shows (Needs, for admins and for
// the kiosk's change routing) and whether it shows a member's private
// figures.
type Widget struct {
	Name    string
	Title   string
	Sizes   []Size
	Needs   []string
	Private bool
	// About is one line for Admin → Screens.
	About string
}

// Fits reports whether the widget renders at s.
func (w Widget) Fits(s Size) bool { return slices.Contains(w.Sizes, s) }

var (
	small  = []Size{{1, 1}, {2, 1}}
	any4   = []Size{{1, 1}, {1, 2}, {2, 1}, {2, 2}}
	column = []Size{{1, 1}, {1, 2}, {2, 1}}
)

// registry is every widget a member's screen can place, in the order
// Admin → Screens lists them. The kiosk registers a renderer for each
// (web/kiosk/screen.go); a test checks the two agree.
var registry = []Widget{
	{Name: "clock", Title: "Clock and date", Sizes: small, About: "The time and date in the household's time zone."},
	{Name: "weight", Title: "Weight", Sizes: any4, Needs: []string{"weights", "goal"}, Private: true,
		About: "Current weight from the trend, its weekly change, the chart and the goal."},
	{Name: "nutrition", Title: "Nutrition today", Sizes: any4, Needs: []string{"meals", "targets"},
		About: "Today's calories and macros against targets, and the meals logged."},
	{Name: "body", Title: "Body composition", Sizes: column, Needs: []string{"scans", "weights"}, Private: true,
		About: "The newest body-fat and lean-mass readings."},
	{Name: "workouts", Title: "Recent workouts", Sizes: any4, Needs: []string{"workouts"},
		About: "This week's count and the latest sessions."},
	{Name: "upnext", Title: "Up next", Sizes: any4, Needs: []string{"dashboard", "catalog"},
		About: "Today's plan: the next session to play, or what was done."},
	{Name: "program", Title: "Program", Sizes: column, Needs: []string{"program"},
		About: "The member's program: today's day and its controls."},
	{Name: "playlist", Title: "Playlist", Sizes: any4, Needs: []string{"playlist", "catalog"},
		About: "The member's playlist and ▶ Play all."},
	{Name: "briefing", Title: "Coach's briefing", Sizes: any4, Needs: []string{"dashboard"}, Private: true,
		About: "The coach's words for today; its first sentence large."},
	{Name: "prompts", Title: "Questions", Sizes: any4, Needs: []string{"dashboard", "workflows"},
		About: "The coach's questions to tap an answer to, the next one large."},
	{Name: "ctas", Title: "Suggestions", Sizes: column, Needs: []string{"dashboard"},
		About: "The coach's calls to action (log a meal, weigh in)."},
	{Name: "messages", Title: "Messages", Sizes: any4, Needs: []string{"messages"}, Private: true,
		About: "Follow-ups the coach sent, dismissable."},
	{Name: "chat", Title: "Ask the coach", Sizes: small, Needs: []string{"threads"},
		About: "A button into a conversation with the coach."},
	{Name: "tiles", Title: "Household", Sizes: any4, Needs: []string{"members", "weights", "workouts"},
		About: "Everyone in the household, a tap to switch, with each one's glance (the weight, or this week's workouts when private)."},
}

// Widgets returns the registry, in order.
func Widgets() []Widget { return slices.Clone(registry) }

// Lookup returns the named widget.
func Lookup(name string) (Widget, bool) {
	for _, w := range registry {
		if w.Name == name {
			return w, true
		}
	}
	return Widget{}, false
}

// Names lists the registered widget names, for error messages.
func Names() string {
	ns := make([]string, len(registry))
	for i, w := range registry {
		ns[i] = w.Name
	}
	return strings.Join(ns, ", ")
}
