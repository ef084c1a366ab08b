package content

import (
	"context"
	"fmt"
	"io"

	"hearth/internal/store"
)

// Summary reports what an import changed.
type Summary struct {
	Source            string `json:"source"`
	ItemsAdded        int    `json:"items_added"`
	ItemsUpdated      int    `json:"items_updated"`
	ItemsUnchanged    int    `json:"items_unchanged"`
	ProgramsAdded     int    `json:"programs_added"`
	ProgramsUpdated   int    `json:"programs_updated"`
	ProgramsUnchanged int    `json:"programs_unchanged"`
	// Skipped counts source entries left out (Plex episodes without a duration).
	Skipped int `json:"skipped,omitempty"`
	// CharsDropped counts control characters and invalid UTF-8 left out of
	// titles and descriptions (see package text).
	CharsDropped int `json:"chars_dropped,omitempty"`
}

// Changed reports whether the import wrote anything.
func (s Summary) Changed() bool {
	return s.ItemsAdded+s.ItemsUpdated+s.ProgramsAdded+s.ProgramsUpdated > 0
}

// ImportFile reads a catalog file (see File for the format, at most
// MaxFileSize bytes), validates all of it and upserts it in one transaction.
// A bad file returns an apperr.Invalid (or TooLarge) error saying what is
// wrong and where, and imports nothing.
func (c *Catalog) ImportFile(ctx context.Context, r io.Reader) (Summary, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return Summary{}, fmt.Errorf("content: read catalog file: %w", err)
	}
	f, err := ParseCatalog(data)
	if err != nil {
		return Summary{}, err
	}
	return c.Import(ctx, f, SourceFile)
}

// Import validates f and upserts it in one transaction, stamping source on
// every item and program. Nothing is written unless everything is valid.
func (c *Catalog) Import(ctx context.Context, f File, source string) (Summary, error) {
	if err := f.validate(); err != nil {
		return Summary{}, err
	}
	sum := Summary{Source: source, CharsDropped: f.charsDropped}
	now := store.FormatTime(c.db.Now())
	err := c.db.Tx(ctx, func(tx *store.Tx) error {
		if err := checkExternalRefs(ctx, tx, f); err != nil {
			return err
		}
		for _, it := range f.Items {
			it.Source = source
			added, changed, err := upsertItem(ctx, tx, now, it)
			if err != nil {
				return err
			}
			count(added, changed, &sum.ItemsAdded, &sum.ItemsUpdated, &sum.ItemsUnchanged)
		}
		for _, p := range f.Programs {
			p.Source = source
			added, changed, err := upsertProgram(ctx, tx, now, p)
			if err != nil {
				return err
			}
			count(added, changed, &sum.ProgramsAdded, &sum.ProgramsUpdated, &sum.ProgramsUnchanged)
		}
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	c.logger.Info("catalog imported", "source", source, "items_added", sum.ItemsAdded, "items_updated", sum.ItemsUpdated,
		"programs_added", sum.ProgramsAdded, "programs_updated", sum.ProgramsUpdated)
	return sum, nil
}

func count(added, changed bool, a, u, same *int) {
	switch {
	case added:
		*a++
	case changed:
		*u++
	default:
		*same++
	}
}

// checkExternalRefs fails when a program day names content that is neither
// in the file nor already in the catalog.
func checkExternalRefs(ctx context.Context, tx *store.Tx, f File) error {
	refs := f.ExternalRefs()
	if len(refs) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, id := range refs {
		_, found, err := findItem(ctx, tx, id)
		if err != nil {
			return err
		}
		known[id] = found
	}
	var p problems
	own := map[string]bool{}
	for _, it := range f.Items {
		own[it.ID] = true
	}
	for i, pr := range f.Programs {
		for _, d := range pr.Days {
			if d.ContentID != "" && !own[d.ContentID] && !known[d.ContentID] {
				p.add(fmt.Sprintf("programs[%d] (%s) day %d", i, pr.ID, d.Day),
					"content %q is not in the file or the catalog", d.ContentID)
			}
		}
	}
	return p.errPrefix("catalog refers to missing content")
}
