package content

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Catalog is the content catalog service over the database.
type Catalog struct {
	db     *store.DB
	logger *slog.Logger
}

// NewCatalog returns the catalog over db; a nil logger discards.
func NewCatalog(db *store.DB, logger *slog.Logger) *Catalog {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Catalog{db: db, logger: logger}
}

// Filter selects catalog items; zero fields match everything.
type Filter struct {
	Kind    string // one kind
	Program string // program id
	Source  string // file, demo, plex
	Tag     string // items carrying this tag
	// Query matches title, program, summary or tags (case-insensitive substring).
	Query string
	// MaxDuration keeps items at most this many minutes long (0 = any).
	MaxDuration int
	// Limit caps the result (0 = DefaultLimit, at most MaxLimit).
	Limit int
}

// Result size limits of List and Menu.
const (
	DefaultLimit = 200
	MaxLimit     = 2000
)

func (f Filter) where() (string, []any) {
	var w store.Where
	w.Eq("kind", f.Kind).Eq("program_id", f.Program).Eq("source", f.Source)
	if f.Tag != "" {
		w.And("EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)", f.Tag)
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		like := "%" + likeEscape(q) + "%"
		w.And(`(title LIKE ? ESCAPE '\' OR program_id LIKE ? ESCAPE '\' OR summary LIKE ? ESCAPE '\'
			OR tags LIKE ? ESCAPE '\')`, like, like, like, like)
	}
	if f.MaxDuration > 0 {
		w.And("duration_min <= ?", f.MaxDuration)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	// Standalone items first, then programs in day order.
	return w.String() + " ORDER BY program_id != '', program_id, day, title, id LIMIT ?", w.Args(min(limit, MaxLimit))
}

// List returns items matching f.
func (c *Catalog) List(ctx context.Context, f Filter) ([]Item, error) {
	where, args := f.where()
	return queryItems(ctx, c.db.Read, `SELECT `+itemCols+` FROM content_items`+where, args...)
}

// Count returns how many items the catalog holds.
func (c *Catalog) Count(ctx context.Context) (int, error) {
	var n int
	if err := c.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM content_items`).Scan(&n); err != nil {
		return 0, fmt.Errorf("content: count: %w", err)
	}
	return n, nil
}

// Get returns one item, or an apperr.NotFound error.
func (c *Catalog) Get(ctx context.Context, id string) (Item, error) {
	it, found, err := findItem(ctx, c.db.Read, id)
	if err != nil {
		return it, err
	}
	if !found {
		return it, apperr.NotFoundf("no content %q in the catalog", id)
	}
	return it, nil
}

// Lookup returns the items among ids that exist, keyed by id.
func (c *Catalog) Lookup(ctx context.Context, ids []string) (map[string]Item, error) {
	out := make(map[string]Item, len(ids))
	const chunk = 500
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		marks := strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		items, err := queryItems(ctx, c.db.Read, `SELECT `+itemCols+` FROM content_items WHERE id IN (`+marks+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			out[it.ID] = it
		}
	}
	return out, nil
}

// Missing returns the ids (in order, without repeats) that the catalog does
// not hold; empty means every id exists. Domain validation of dashboards uses it.
func (c *Catalog) Missing(ctx context.Context, ids []string) ([]string, error) {
	found, err := c.Lookup(ctx, ids)
	if err != nil {
		return nil, err
	}
	var missing []string
	seen := map[string]bool{}
	for _, id := range ids {
		if _, ok := found[id]; !ok && !seen[id] {
			seen[id] = true
			missing = append(missing, id)
		}
	}
	return missing, nil
}

// MetaEdit is an admin's edit of an item's metadata. Empty Intensity or
// Impact, and nil Areas, leave the field to the kind's guess.
type MetaEdit struct {
	Intensity string
	Impact    string
	Areas     []string
	// Release hands the metadata back to imports: the next catalog import
	// or Plex sync sets it again.
	Release bool
}

// SetMeta stores an admin's metadata for the item id (see MetaEdit) and
// returns the item as stored. Unknown values are apperr.Invalid; an
// unknown id is apperr.NotFound.
func (c *Catalog) SetMeta(ctx context.Context, id string, e MetaEdit) (Item, error) {
	it := Item{Intensity: e.Intensity, Impact: e.Impact, Areas: e.Areas}
	normMeta(&it)
	var p problems
	validateMeta(&p, "item", &it)
	if err := p.errPrefix("the metadata is invalid"); err != nil {
		return Item{}, err
	}
	err := c.db.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE content_items SET intensity = ?, impact = ?, areas = ?, meta_edited = ?,
			updated_at = ? WHERE id = ?`, it.Intensity, it.Impact, areasJSON(it.Areas), !e.Release,
			store.FormatTime(c.db.Now()), id)
		if err != nil {
			return fmt.Errorf("content: set metadata of %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return apperr.NotFoundf("no content %q in the catalog", id)
		}
		return nil
	})
	if err != nil {
		return Item{}, err
	}
	c.logger.Info("catalog item metadata set", "id", id, "intensity", it.Intensity, "impact", it.Impact,
		"areas", it.Areas, "released", e.Release)
	return c.Get(ctx, id)
}
