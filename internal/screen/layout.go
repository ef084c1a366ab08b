package screen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"

	"hearth/internal/apperr"
)

// Limits of a layout: enough for any wall, small enough that a layout is
// always a page of data.
const (
	MaxCols    = 6
	MaxRows    = 6
	MaxName    = 60
	MaxMembers = 20
	MaxRotate  = 3600 // seconds
	MaxIdle    = 24 * 3600
	MaxBytes   = 32 << 10 // a layout file
)

// Place puts a widget on the grid: its top-left cell (1-based column and
// row) and its size in cells.
type Place struct {
	Widget string `json:"widget"`
	Col    int    `json:"col"`
	Row    int    `json:"row"`
	W      int    `json:"w"`
	H      int    `json:"h"`
}

// Grid is one orientation's arrangement.
type Grid struct {
	Cols   int     `json:"cols"`
	Rows   int     `json:"rows"`
	Places []Place `json:"places"`
}

// Night is a screen's night schedule: from From to To (HH:MM, household
// time, across midnight when To is earlier) it dims to a clock and the
// next item ("dim") or blanks ("blank"); a tap wakes it.
type Night struct {
	From string `json:"from"`
	To   string `json:"to"`
	Mode string `json:"mode"`
}

// Layout is a screen configuration. Grids fall back: a narrow screen
// (a phone) uses Narrow, else Portrait, else Landscape; a portrait screen
// uses Portrait, else Landscape.
type Layout struct {
	Name      string `json:"name"`
	Landscape *Grid  `json:"landscape,omitempty"`
	Portrait  *Grid  `json:"portrait,omitempty"`
	Narrow    *Grid  `json:"narrow,omitempty"`
	// Members the screen shows (its switcher and rotation); empty: all.
	Members []string `json:"members,omitempty"`
	// RotateSeconds moves a dashboard left alone to the next member of
	// Members every so often; 0: only on tap.
	RotateSeconds int `json:"rotate_seconds,omitempty"`
	// IdleSeconds returns a dashboard left alone to the household view;
	// 0: the household default (HEARTH_KIOSK_IDLE), -1: never.
	IdleSeconds int    `json:"idle_seconds,omitempty"`
	Night       *Night `json:"night,omitempty"`
	// HouseholdOnly: a screen in a shared place (a hallway, a TV): every
	// member's dashboard needs their PIN, private figures or not.
	HouseholdOnly bool `json:"household_only,omitempty"`
}

// Grids returns the layout's grids with their fallbacks applied:
// landscape, portrait, narrow.
func (l Layout) Grids() (land, port, narrow Grid) {
	pick := func(gs ...*Grid) Grid {
		for _, g := range gs {
			if g != nil {
				return *g
			}
		}
		return Grid{}
	}
	return pick(l.Landscape, l.Portrait, l.Narrow), pick(l.Portrait, l.Landscape, l.Narrow), pick(l.Narrow, l.Portrait, l.Landscape)
}

// Clone is a deep copy: the grids are pointers, and a caller editing a
// layout it was given must not change the one it came from (the shipped
// layouts are shared).
func (l Layout) Clone() Layout {
	cp := func(g *Grid) *Grid {
		if g == nil {
			return nil
		}
		c := *g
		c.Places = append([]Place(nil), g.Places...)
		return &c
	}
	l.Landscape, l.Portrait, l.Narrow = cp(l.Landscape), cp(l.Portrait), cp(l.Narrow)
	l.Members = append([]string(nil), l.Members...)
	if l.Night != nil {
		n := *l.Night
		l.Night = &n
	}
	return l
}

// Placed reports the widgets on any of the layout's grids.
func (l Layout) Placed() map[string]bool {
	out := map[string]bool{}
	for _, g := range []*Grid{l.Landscape, l.Portrait, l.Narrow} {
		if g == nil {
			continue
		}
		for _, p := range g.Places {
			out[p.Widget] = true
		}
	}
	return out
}

var (
	clockRe = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	// memberRe is the household's member id shape (household.validID).
	memberRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
)

// Validate checks a layout against the registry and the grid: every
// problem is named (the widget, the orientation, the field), so an admin
// can fix the file. A widget the registry does not know is refused by
// name.
func (l Layout) Validate() error {
	var errs []string
	add := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
	name := strings.TrimSpace(l.Name)
	if name == "" || len([]rune(name)) > MaxName || strings.ContainsAny(name, "\r\n\t") {
		add("name: give the layout a name of 1 to %d characters on one line", MaxName)
	}
	if l.Landscape == nil && l.Portrait == nil && l.Narrow == nil {
		add("a layout needs at least one grid: landscape, portrait or narrow")
	}
	for _, o := range []struct {
		name string
		g    *Grid
	}{{"landscape", l.Landscape}, {"portrait", l.Portrait}, {"narrow", l.Narrow}} {
		if o.g != nil {
			errs = append(errs, o.g.problems(o.name)...)
		}
	}
	if len(l.Members) > MaxMembers {
		add("members: at most %d", MaxMembers)
	}
	for _, m := range l.Members {
		if !memberRe.MatchString(m) {
			add("members: %q is not a member id", m)
		}
	}
	if l.RotateSeconds != 0 && (l.RotateSeconds < 10 || l.RotateSeconds > MaxRotate) {
		add("rotate_seconds: 0 (off) or 10 to %d", MaxRotate)
	}
	if l.IdleSeconds != 0 && l.IdleSeconds != -1 && (l.IdleSeconds < 10 || l.IdleSeconds > MaxIdle) {
		add("idle_seconds: 0 (household default), -1 (never) or 10 to %d", MaxIdle)
	}
	if n := l.Night; n != nil {
		if !clockRe.MatchString(n.From) {
			add("night.from: a time as HH:MM (24-hour), not %q", n.From)
		}
		if !clockRe.MatchString(n.To) {
			add("night.to: a time as HH:MM (24-hour), not %q", n.To)
		}
		if n.From == n.To && clockRe.MatchString(n.From) {
			add("night: from and to are the same time")
		}
		if n.Mode != "dim" && n.Mode != "blank" {
			add("night.mode: \"dim\" or \"blank\", not %q", n.Mode)
		}
	}
	if len(errs) > 0 {
		return apperr.Invalidf("This layout cannot be saved: %s.", strings.Join(errs, "; "))
	}
	return nil
}

// problems lists what is wrong with one grid.
func (g Grid) problems(o string) []string {
	var errs []string
	add := func(f string, a ...any) { errs = append(errs, o+": "+fmt.Sprintf(f, a...)) }
	if g.Cols < 1 || g.Cols > MaxCols || g.Rows < 1 || g.Rows > MaxRows {
		add("the grid is 1 to %d columns by 1 to %d rows, not %d×%d", MaxCols, MaxRows, g.Cols, g.Rows)
		return errs
	}
	taken := map[[2]int]string{}
	seen := map[string]bool{}
	for _, p := range g.Places {
		w, ok := Lookup(p.Widget)
		if !ok {
			add("unknown widget %q (the widgets are: %s)", p.Widget, Names())
			continue
		}
		if seen[p.Widget] {
			add("widget %q is placed twice", p.Widget)
			continue
		}
		seen[p.Widget] = true
		sz := Size{p.W, p.H}
		if !w.Fits(sz) {
			ss := make([]string, len(w.Sizes))
			for i, s := range w.Sizes {
				ss[i] = s.String()
			}
			add("widget %q does not render at %s (it renders at %s)", p.Widget, sz, strings.Join(ss, ", "))
			continue
		}
		if p.Col < 1 || p.Row < 1 || p.Col+p.W-1 > g.Cols || p.Row+p.H-1 > g.Rows {
			add("widget %q at column %d, row %d, %s is outside the %d×%d grid", p.Widget, p.Col, p.Row, sz, g.Cols, g.Rows)
			continue
		}
		for c := p.Col; c < p.Col+p.W; c++ {
			for r := p.Row; r < p.Row+p.H; r++ {
				if other, ok := taken[[2]int{c, r}]; ok {
					add("widgets %q and %q overlap at column %d, row %d", other, p.Widget, c, r)
					return errs
				}
				taken[[2]int{c, r}] = p.Widget
			}
		}
	}
	return errs
}

// Parse reads a layout file, JSON or YAML, strictly (an unknown field is
// refused, so a misspelt "rotate_secs" does not silently do nothing), and
// validates it.
func Parse(b []byte) (Layout, error) {
	if len(b) > MaxBytes {
		return Layout{}, apperr.Invalidf("A layout file is at most %d KiB.", MaxBytes>>10)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return Layout{}, apperr.Invalidf("The layout is empty.")
	}
	if b[0] != '{' { // YAML: decoded, then held to JSON's strict rules
		var v any
		if err := yaml.Unmarshal(b, &v); err != nil {
			return Layout{}, apperr.Invalidf("This is neither a JSON nor a YAML layout: %s", firstLine(err))
		}
		j, err := json.Marshal(v)
		if err != nil {
			return Layout{}, apperr.Invalidf("This YAML layout cannot be read: %s", firstLine(err))
		}
		b = j
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l Layout
	if err := dec.Decode(&l); err != nil {
		var se *json.SyntaxError
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Layout{}, apperr.Invalidf("The layout is not valid JSON: it ends before its closing brace.")
		}
		if errors.As(err, &se) {
			return Layout{}, apperr.Invalidf("The layout is not valid JSON at byte %d: %s", se.Offset, firstLine(err))
		}
		return Layout{}, apperr.Invalidf("The layout cannot be read: %s", strings.TrimPrefix(firstLine(err), "json: "))
	}
	if dec.More() {
		return Layout{}, apperr.Invalidf("The layout has something after its closing brace.")
	}
	l.Name = strings.TrimSpace(l.Name)
	return l, l.Validate()
}

// JSON is the layout as an indented file, the form it is exported in.
func (l Layout) JSON() []byte {
	b, _ := json.MarshalIndent(l, "", "  ") // plain structs: cannot fail
	return append(b, '\n')
}

// YAML is the layout as YAML, the other export form.
func (l Layout) YAML() []byte {
	var v any
	_ = json.Unmarshal(l.JSON(), &v) // keep JSON's field names and omissions
	b, _ := yaml.Marshal(v)
	return b
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
