package dashboard

import (
	"fmt"
	"strings"
)

// Problem is one domain validation failure, shaped like a schema error so
// both can be fed back to the model the same way.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// CatalogEntry is what domain validation needs to know about a content item.
type CatalogEntry struct {
	Title    string
	Duration int
}

// ValidateDomain checks what a schema cannot: every content id exists in the
// catalog with the same duration, multiple-choice prompts have options, prompt
// ids are unique. An empty result means valid.
func ValidateDomain(d Document, catalog map[string]CatalogEntry) []Problem {
	var out []Problem
	check := func(path string, c ContentRef) {
		e, ok := catalog[c.ContentID]
		if !ok {
			out = append(out, Problem{path + "/content_id", fmt.Sprintf("content id %q is not in the catalog menu; choose an id from the menu", c.ContentID)})
			return
		}
		if e.Duration != c.Duration {
			out = append(out, Problem{path + "/duration", fmt.Sprintf("duration %d does not match the catalog's %d minutes for %q", c.Duration, e.Duration, c.ContentID)})
		}
	}
	if p := d.Curated.UpNext.Primary; p != nil {
		check("/curated/up_next/primary", *p)
	}
	for i, a := range d.Curated.UpNext.Alternates {
		check(fmt.Sprintf("/curated/up_next/alternates/%d", i), a)
	}
	for i, p := range d.Curated.PlaylistSuggestion {
		check(fmt.Sprintf("/curated/playlist_suggestion/%d", i), p)
	}
	seen := map[string]bool{}
	for i, p := range d.Coach.Prompts {
		path := fmt.Sprintf("/coach/prompts/%d", i)
		if seen[p.ID] {
			out = append(out, Problem{path + "/id", fmt.Sprintf("duplicate prompt id %q", p.ID)})
		}
		seen[p.ID] = true
		if p.Type == PromptMultipleChoice {
			n := 0
			for _, o := range p.Options {
				if strings.TrimSpace(o) != "" {
					n++
				}
			}
			if n < 2 {
				out = append(out, Problem{path + "/options", "a multiple_choice prompt needs at least two non-empty options"})
			}
		}
	}
	return out
}
