package content

import (
	"context"
	"strconv"
	"strings"
)

// MenuEntry is the compact view of an item given to the model: the only
// content it may select from.
type MenuEntry struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Kind        Kind   `json:"kind"`
	DurationMin int    `json:"duration"`
	Program     string `json:"program,omitempty"`
	Day         int    `json:"day,omitempty"`
	// Intensity, Impact and Areas are the item's metadata (Item.Meta:
	// stated or guessed from the kind); Areas is comma-separated ("knee,hip")
	// so that entries stay comparable.
	Intensity string `json:"intensity"`
	Impact    string `json:"impact"`
	Areas     string `json:"loads,omitempty"`
}

// AreaList returns the body areas the entry loads.
func (e MenuEntry) AreaList() []string {
	if e.Areas == "" {
		return nil
	}
	return strings.Split(e.Areas, ",")
}

// Loads reports whether the entry loads any of the areas.
func (e MenuEntry) Loads(areas ...string) bool {
	for _, a := range e.AreaList() {
		for _, b := range areas {
			if a == b {
				return true
			}
		}
	}
	return false
}

// MenuOf converts items to menu entries.
func MenuOf(items []Item) []MenuEntry {
	out := make([]MenuEntry, len(items))
	for i, it := range items {
		m := it.Meta()
		out[i] = MenuEntry{ID: it.ID, Title: it.Title, Kind: it.Kind, DurationMin: it.DurationMin, Program: it.Program, Day: it.Day,
			Intensity: m.Intensity, Impact: m.Impact, Areas: strings.Join(m.Areas, ",")}
	}
	return out
}

// Menu returns the compact menu of items matching f.
func (c *Catalog) Menu(ctx context.Context, f Filter) ([]MenuEntry, error) {
	items, err := c.List(ctx, f)
	if err != nil {
		return nil, err
	}
	return MenuOf(items), nil
}

// FormatMenu renders entries one per line for a prompt, with the metadata
// last:
//
//	local:ember-core-01 | Core Ignite | core | 20 min | ember-core-30 #1 | moderate, low impact, loads back
func FormatMenu(entries []MenuEntry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.ID)
		b.WriteString(" | ")
		b.WriteString(oneLine(e.Title))
		b.WriteString(" | ")
		b.WriteString(e.Kind)
		b.WriteString(" | ")
		b.WriteString(strconv.Itoa(e.DurationMin))
		b.WriteString(" min")
		if e.Program != "" {
			b.WriteString(" | ")
			b.WriteString(e.Program)
			if e.Day > 0 {
				b.WriteString(" #")
				b.WriteString(strconv.Itoa(e.Day))
			}
		}
		if e.Intensity != "" {
			b.WriteString(" | ")
			b.WriteString(e.Intensity)
			b.WriteString(", ")
			b.WriteString(e.Impact)
			b.WriteString(" impact")
			if e.Areas != "" {
				b.WriteString(", loads ")
				b.WriteString(strings.ReplaceAll(e.Areas, ",", ", "))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "|", "/")), " ")
}
