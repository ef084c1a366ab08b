package kioskview

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"hearth/views"
)

// editEntry asks the server for an entry's correction sheet (the answer
// fills the sheet and opens it).
func editEntry(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("@get('%s')", url)
}

// workoutChoices are the workout types, plus cur when it is another one (an
// imported "walking" stays selectable while it is corrected).
func workoutChoices(cur string) []string {
	if cur == "" || slices.Contains(views.WorkoutTypes, cur) {
		return views.WorkoutTypes
	}
	return append(slices.Clone(views.WorkoutTypes), cur)
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func memberURL(id, suffix string) string { return "/m/" + id + suffix }

// colorStyle is the member colour as a CSS custom property; web validates
// colours (#rgb… only), anything else falls back to the accent.
func colorStyle(c string) templ.SafeCSS {
	if !hexColor.MatchString(c) {
		c = "#4f8cff"
	}
	return templ.SafeCSS("--member:" + c)
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{3,8}$`)

func widthStyle(pct int) templ.SafeCSS {
	pct = min(max(pct, 0), 100)
	return templ.SafeCSS("width:" + strconv.Itoa(pct) + "%")
}

func avatarText(avatar, name string) string {
	if avatar != "" {
		return avatar
	}
	for _, r := range name {
		return string(r)
	}
	return "?"
}

func goalLabelY(c Chart) string {
	if c.Goal == nil {
		return "0"
	}
	if c.Goal.Y < 24 {
		return f1(c.Goal.Y + 18)
	}
	return f1(c.Goal.Y - 6)
}

// mediaURL is a catalog thumbnail or media URL for a src attribute: Hearth's
// own static files get their content-hashed URL (cached for good), anything
// else passes templ's URL sanitising as before.
func mediaURL(ctx context.Context, u string) templ.SafeURL {
	if name, ok := strings.CutPrefix(u, "/static/"); ok && !strings.Contains(name, "..") {
		u = views.AssetURL(ctx, name)
	}
	return templ.URL(u)
}

func itoa(n int) string { return strconv.Itoa(n) }
