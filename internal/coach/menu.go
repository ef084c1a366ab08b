package coach

import (
	"context"
	"hash/fnv"
	"slices"

	"hearth/internal/content"
)

// Menu size limits: the catalog can hold thousands of items, the prompt
// gets a balanced handful per kind.
const (
	menuPerKind      = 4
	menuMinPerKind   = 2
	menuMaxPrograms  = 12
	menuScanLimit    = 1000
	menuMaxEntries   = 48
	upcomingSessions = 3
)

// salt mixes a member id into day-based rotation, so household members do
// not all get the same picks.
func salt(member string) int {
	h := fnv.New32a()
	h.Write([]byte(member))
	return int(h.Sum32() % 9973)
}

// rotate returns xs starting at offset k (mod len), a deterministic
// day-by-day rotation.
func rotate[T any](xs []T, k int) []T {
	if len(xs) == 0 {
		return xs
	}
	k = ((k % len(xs)) + len(xs)) % len(xs)
	return append(slices.Clone(xs[k:]), xs[:k]...)
}

// balancedMenu picks up to menuPerKind standalone items of every kind,
// rotated by seed, topped up with early program sessions for kinds with
// fewer than menuMinPerKind standalone items.
func (c *core) balancedMenu(ctx context.Context, seed int) ([]content.MenuEntry, bool, error) {
	items, err := c.cat.List(ctx, content.Filter{Limit: menuScanLimit})
	if err != nil {
		return nil, false, err
	}
	standalone := map[string][]content.Item{}
	programmed := map[string][]content.Item{}
	for _, it := range items {
		if it.Program == "" {
			standalone[it.Kind] = append(standalone[it.Kind], it)
		} else {
			programmed[it.Kind] = append(programmed[it.Kind], it)
		}
	}
	truncated := len(items) >= menuScanLimit
	var out []content.Item
	for _, k := range content.Kinds() {
		sa := standalone[k]
		if len(sa) > menuPerKind {
			truncated = true
			sa = rotate(sa, seed)[:menuPerKind]
		}
		out = append(out, sa...)
		pr := programmed[k]
		slices.SortStableFunc(pr, func(a, b content.Item) int { return a.Day - b.Day })
		for i := 0; len(sa)+i < menuMinPerKind && i < len(pr); i++ {
			out = append(out, pr[i])
		}
	}
	if len(out) > menuMaxEntries {
		out, truncated = out[:menuMaxEntries], true
	}
	return content.MenuOf(out), truncated, nil
}

// programBriefs lists the catalog's programs with their first session.
func (c *core) programBriefs(ctx context.Context) ([]ProgramBrief, error) {
	infos, err := c.cat.Programs(ctx)
	if err != nil {
		return nil, err
	}
	if len(infos) > menuMaxPrograms {
		infos = infos[:menuMaxPrograms]
	}
	out := make([]ProgramBrief, 0, len(infos))
	firstIDs := map[string]string{}
	var ids []string
	for _, p := range infos {
		prog, err := c.cat.Program(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		for _, d := range prog.Days {
			if !d.Rest && d.ContentID != "" {
				firstIDs[p.ID] = d.ContentID
				ids = append(ids, d.ContentID)
				break
			}
		}
		out = append(out, ProgramBrief{ID: p.ID, Title: p.Title, TotalDays: p.TotalDays, TrainingDays: p.TrainingDays})
	}
	found, err := c.cat.Lookup(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if it, ok := found[firstIDs[out[i].ID]]; ok {
			e := content.MenuOf([]content.Item{it})[0]
			out[i].First = &e
		}
	}
	return out, nil
}
