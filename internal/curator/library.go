package curator

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/content"
)

// library is the workout library's items with their content metadata:
// the catalog's Plex items (synced, with admins' edits), or — while the
// catalog holds none — the section as Plex lists it now, mapped the way a
// sync maps it.
func (t tools) library(ctx context.Context) ([]content.Item, string, error) {
	if t.catalog != nil {
		items, err := t.catalog.List(ctx, content.Filter{Source: content.SourcePlex, Limit: content.MaxLimit})
		if err != nil {
			return nil, "", err
		}
		if len(items) > 0 {
			return items, "catalog", nil
		}
	}
	px, section, err := t.connect(ctx)
	if err != nil {
		return nil, "", err
	}
	f, err := px.FetchSection(ctx, section)
	if err != nil {
		return nil, "", err
	}
	return f.File.Items, "plex", nil
}

// NoArgs are the arguments of tools that take none.
type NoArgs struct{}

func (t tools) analyze(ctx context.Context, _ agent.Scope, _ NoArgs) (Analysis, error) {
	if _, _, err := t.connect(ctx); err != nil {
		return Analysis{}, err
	}
	items, source, err := t.library(ctx)
	if err != nil {
		return Analysis{}, err
	}
	a := Analyze(items)
	a.Source = source
	return a, nil
}

// DuplicateList is plex_find_duplicates' result.
type DuplicateList struct {
	Groups     []DuplicateGroup `json:"groups"`
	Duplicates int              `json:"duplicates"` // items beyond the first of each group
	Checked    int              `json:"checked"`
}

func (t tools) findDuplicates(ctx context.Context, _ agent.Scope, _ NoArgs) (DuplicateList, error) {
	if _, _, err := t.connect(ctx); err != nil {
		return DuplicateList{}, err
	}
	items, _, err := t.library(ctx)
	if err != nil {
		return DuplicateList{}, err
	}
	out := DuplicateList{Groups: Duplicates(items), Checked: len(items)}
	for _, g := range out.Groups {
		out.Duplicates += len(g.IDs) - 1
	}
	return out, nil
}
