package screen

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// DefaultSlug is the layout a screen shows until the admin picks another.
const DefaultSlug = "wall-tablet"

//go:embed defaults/*.json
var shippedFS embed.FS

// shipped are the layouts in the binary, by slug, in the order listed.
var shipped, shippedOrder = func() (map[string]Layout, []string) {
	out := map[string]Layout{}
	order := []string{"wall-tablet", "tv", "portrait-tablet", "phone"}
	for _, slug := range order {
		b, err := shippedFS.ReadFile("defaults/" + slug + ".json")
		if err != nil {
			panic(err)
		}
		l, err := Parse(b)
		if err != nil {
			panic(fmt.Sprintf("screen: shipped layout %s: %v", slug, err))
		}
		out[slug] = l
	}
	return out, order
}()

// Entry is a layout as stored: its slug (the name in URLs and on
// screens), version (0: the shipped layout, unedited) and whether it
// ships with Hearth.
type Entry struct {
	Slug      string
	Version   int
	Layout    Layout
	Shipped   bool // a layout Hearth ships (edited or not)
	UpdatedAt time.Time
}

// Key identifies what a page was rendered with: a screen shows a new
// layout when it changes.
func (e Entry) Key() string { return fmt.Sprintf("%s@%d", e.Slug, e.Version) }

// Service keeps the household's layouts, the default and each screen's
// layout.
type Service struct {
	db  *store.DB
	pub live.Publisher
}

// New returns the layouts over db; pub hears every change (open screens
// re-render their grid).
func New(db *store.DB, pub live.Publisher) *Service { return &Service{db: db, pub: pub} }

var slugRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ValidSlug reports whether s can name a layout.
func ValidSlug(s string) bool { return slugRe.MatchString(s) }

// Slugify turns a layout name into a slug ("TV 1920×1080" → "tv-1920-1080").
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 40 {
		s = strings.Trim(s[:40], "-")
	}
	if s == "" {
		s = "layout"
	}
	return s
}

// List returns every layout: the shipped ones first (edited or not), then
// the household's own by name.
func (s *Service) List(ctx context.Context) ([]Entry, error) {
	rows, err := store.All(ctx, s.db.Read, scan, `SELECT slug, version, body, updated_at FROM screen_layouts`)
	if err != nil {
		return nil, fmt.Errorf("screen: list: %w", err)
	}
	saved := map[string]Entry{}
	for _, e := range rows {
		saved[e.Slug] = e
	}
	var out []Entry
	for _, slug := range shippedOrder {
		if e, ok := saved[slug]; ok {
			out = append(out, e)
			delete(saved, slug)
			continue
		}
		out = append(out, Entry{Slug: slug, Layout: shipped[slug].Clone(), Shipped: true})
	}
	own := make([]Entry, 0, len(saved))
	for _, e := range saved {
		own = append(own, e)
	}
	slices.SortFunc(own, func(a, b Entry) int {
		return strings.Compare(strings.ToLower(a.Layout.Name), strings.ToLower(b.Layout.Name))
	})
	return append(out, own...), nil
}

// Get returns one layout; apperr.NotFound for a slug nobody knows.
func (s *Service) Get(ctx context.Context, slug string) (Entry, error) {
	if !ValidSlug(slug) {
		return Entry{}, apperr.NotFoundf("There is no layout %q.", slug)
	}
	e, err := scan(s.db.Read.QueryRowContext(ctx, `SELECT slug, version, body, updated_at FROM screen_layouts WHERE slug = ?`, slug))
	if errors.Is(err, sql.ErrNoRows) {
		if l, ok := shipped[slug]; ok {
			return Entry{Slug: slug, Layout: l.Clone(), Shipped: true}, nil
		}
		return Entry{}, apperr.NotFoundf("There is no layout %q.", slug)
	}
	return e, err
}

func scan(r store.Scanner) (Entry, error) {
	var e Entry
	var body, at string
	if err := r.Scan(&e.Slug, &e.Version, &body, &at); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Entry{}, err
		}
		return Entry{}, fmt.Errorf("screen: read layout: %w", err)
	}
	if err := json.Unmarshal([]byte(body), &e.Layout); err != nil {
		return Entry{}, fmt.Errorf("screen: layout %s: %w", e.Slug, err)
	}
	e.UpdatedAt, _ = store.ParseTime(at)
	_, e.Shipped = shipped[e.Slug]
	return e, nil
}

// Save validates l and stores it as slug's next version (a new slug
// starts at 1), keeping the old versions; every open screen showing it
// re-renders its grid.
func (s *Service) Save(ctx context.Context, slug string, l Layout) (Entry, error) {
	if !ValidSlug(slug) {
		return Entry{}, apperr.FieldErrors(map[string]string{"slug": "Use 1 to 40 lower-case letters, digits and dashes."})
	}
	l.Name = strings.TrimSpace(l.Name)
	if err := l.Validate(); err != nil {
		return Entry{}, err
	}
	body, err := json.Marshal(l)
	if err != nil {
		return Entry{}, fmt.Errorf("screen: save: %w", err)
	}
	now := store.FormatTime(s.db.Now())
	var e Entry
	err = s.db.Tx(ctx, func(tx *store.Tx) error {
		var v int
		if err := tx.QueryRowContext(ctx, `INSERT INTO screen_layouts (slug, version, body, updated_at) VALUES (?, 1, ?, ?)
			ON CONFLICT (slug) DO UPDATE SET version = version + 1, body = excluded.body, updated_at = excluded.updated_at
			RETURNING version`, slug, string(body), now).Scan(&v); err != nil {
			return fmt.Errorf("screen: save: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO screen_layout_versions (slug, version, body, saved_at) VALUES (?, ?, ?, ?)`,
			slug, v, string(body), now); err != nil {
			return fmt.Errorf("screen: save version: %w", err)
		}
		e = Entry{Slug: slug, Version: v, Layout: l, UpdatedAt: s.db.Now()}
		_, e.Shipped = shipped[slug]
		return nil
	})
	if err != nil {
		return Entry{}, err
	}
	s.changed(slug)
	return e, nil
}

// Versions lists a layout's saved versions, newest first.
func (s *Service) Versions(ctx context.Context, slug string) ([]Entry, error) {
	out, err := store.All(ctx, s.db.Read, scan, `SELECT slug, version, body, saved_at FROM screen_layout_versions
		WHERE slug = ? ORDER BY version DESC`, slug)
	if err != nil {
		return nil, fmt.Errorf("screen: versions: %w", err)
	}
	return out, nil
}

// Remove deletes the household's layout (a shipped one returns to as it
// ships); screens that showed a removed layout of the household's own
// show the default again.
func (s *Service) Remove(ctx context.Context, slug string) error {
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM screen_layouts WHERE slug = ?`, slug)
		if err != nil {
			return fmt.Errorf("screen: remove: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFoundf("There is no saved layout %q.", slug)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM screen_layout_versions WHERE slug = ?`, slug); err != nil {
			return fmt.Errorf("screen: remove versions: %w", err)
		}
		if _, ok := shipped[slug]; !ok {
			if _, err := tx.ExecContext(ctx, `UPDATE devices SET layout = NULL WHERE layout = ?`, slug); err != nil {
				return fmt.Errorf("screen: unassign: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM screen_settings WHERE default_layout = ?`, slug); err != nil {
				return fmt.Errorf("screen: default: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.changed(slug)
	return nil
}

// Default is the slug of the layout a screen without its own shows.
func (s *Service) Default(ctx context.Context) (string, error) {
	var slug string
	err := s.db.Read.QueryRowContext(ctx, `SELECT default_layout FROM screen_settings WHERE id = 1`).Scan(&slug)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultSlug, nil
	}
	if err != nil {
		return "", fmt.Errorf("screen: default: %w", err)
	}
	return slug, nil
}

// SetDefault makes slug the household default.
func (s *Service) SetDefault(ctx context.Context, slug string) error {
	if _, err := s.Get(ctx, slug); err != nil {
		return err
	}
	if _, err := s.db.Write.ExecContext(ctx, `INSERT INTO screen_settings (id, default_layout, updated_at) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET default_layout = excluded.default_layout, updated_at = excluded.updated_at`,
		slug, store.FormatTime(s.db.Now())); err != nil {
		return fmt.Errorf("screen: set default: %w", err)
	}
	s.changed(slug)
	return nil
}

// Assign gives an enrolled screen its layout ("" : the household default).
func (s *Service) Assign(ctx context.Context, device int64, slug string) error {
	var v any
	if slug != "" {
		if _, err := s.Get(ctx, slug); err != nil {
			return err
		}
		v = slug
	}
	res, err := s.db.Write.ExecContext(ctx, `UPDATE devices SET layout = ? WHERE id = ? AND kind = 'screen'`, v, device)
	if err != nil {
		return fmt.Errorf("screen: assign: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("There is no screen %d.", device)
	}
	s.changed(slug)
	return nil
}

// Assignments maps each screen with a layout of its own to it.
func (s *Service) Assignments(ctx context.Context) (map[int64]string, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT id, layout FROM devices WHERE layout IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("screen: assignments: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			return nil, fmt.Errorf("screen: assignments: %w", err)
		}
		out[id] = slug
	}
	return out, rows.Err()
}

// Resolve picks the layout a request shows: want (a ?layout= or the
// screen's remembered choice) when it names one, else the enrolled
// screen's own (tokenHash: devices.Hash of its cookie), else the default.
func (s *Service) Resolve(ctx context.Context, want, tokenHash string) (Entry, error) {
	if want != "" {
		if e, err := s.Get(ctx, want); err == nil {
			return e, nil
		} else if !apperr.Is(err, apperr.NotFound) {
			return Entry{}, err
		}
	}
	if tokenHash != "" {
		var slug sql.NullString
		err := s.db.Read.QueryRowContext(ctx, `SELECT layout FROM devices WHERE token_hash = ?`, tokenHash).Scan(&slug)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return Entry{}, fmt.Errorf("screen: device layout: %w", err)
		}
		if slug.Valid {
			if e, err := s.Get(ctx, slug.String); err == nil {
				return e, nil
			}
		}
	}
	def, err := s.Default(ctx)
	if err != nil {
		return Entry{}, err
	}
	e, err := s.Get(ctx, def)
	if apperr.Is(err, apperr.NotFound) {
		return s.Get(ctx, DefaultSlug)
	}
	return e, err
}

// changed tells open screens a layout (or the default, or a screen's
// assignment) changed.
func (s *Service) changed(slug string) {
	if s.pub != nil {
		s.pub.Publish(live.TopicHousehold, live.KindLayout, slug)
	}
}

// Shipped returns a layout as Hearth ships it.
func Shipped(slug string) (Layout, error) {
	l, ok := shipped[slug]
	if !ok {
		return Layout{}, apperr.NotFoundf("There is no shipped layout %q.", slug)
	}
	return l.Clone(), nil
}
