package content

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"hearth/internal/store"
)

const itemCols = `id, title, program_id, day, duration_min, kind, thumbnail, play_url, tags, summary, source,
	source_thumb, media_path, intensity, impact, areas, meta_edited`

func scanItem(row store.Scanner) (Item, error) {
	var (
		it    Item
		tags  string
		areas sql.NullString
	)
	if err := row.Scan(&it.ID, &it.Title, &it.Program, &it.Day, &it.DurationMin, &it.Kind, &it.Thumbnail,
		&it.PlayURL, &tags, &it.Summary, &it.Source, &it.SourceThumb, &it.MediaPath, &it.Intensity, &it.Impact,
		&areas, &it.MetaEdited); err != nil {
		return it, err
	}
	if err := json.Unmarshal([]byte(tags), &it.Tags); err != nil {
		return it, fmt.Errorf("content: item %s tags: %w", it.ID, err)
	}
	if len(it.Tags) == 0 {
		it.Tags = nil
	}
	if areas.Valid {
		if err := json.Unmarshal([]byte(areas.String), &it.Areas); err != nil {
			return it, fmt.Errorf("content: item %s areas: %w", it.ID, err)
		}
		if it.Areas == nil {
			it.Areas = []string{}
		}
	}
	return it, nil
}

func queryItems(ctx context.Context, q store.Queryer, query string, args ...any) ([]Item, error) {
	out, err := store.All(ctx, q, scanItem, query, args...)
	if err != nil {
		return nil, fmt.Errorf("content: query items: %w", err)
	}
	return out, nil
}

func findItem(ctx context.Context, q store.Queryer, id string) (Item, bool, error) {
	it, err := scanItem(q.QueryRowContext(ctx, `SELECT `+itemCols+` FROM content_items WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, false, nil
	}
	if err != nil {
		return Item{}, false, fmt.Errorf("content: item %s: %w", id, err)
	}
	return it, true, nil
}

func tagsJSON(tags []string) string {
	if len(tags) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(tags) // []string always marshals
	return string(b)
}

// areasJSON is the areas column: NULL when unstated.
func areasJSON(areas []string) sql.NullString {
	if areas == nil {
		return sql.NullString{}
	}
	b, _ := json.Marshal(areas) // []string always marshals
	return sql.NullString{String: string(b), Valid: true}
}

// upsertItem writes it unless an identical row exists; it reports what
// happened. Metadata an admin edited (meta_edited) is kept.
func upsertItem(ctx context.Context, tx *store.Tx, now string, it Item) (added, changed bool, err error) {
	old, found, err := findItem(ctx, tx, it.ID)
	if err != nil {
		return false, false, err
	}
	if found && old.MetaEdited {
		it.Intensity, it.Impact, it.Areas, it.MetaEdited = old.Intensity, old.Impact, old.Areas, true
	}
	if found && sameItem(old, it) {
		return false, false, nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO content_items (`+itemCols+`, created_at, updated_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET title=excluded.title, program_id=excluded.program_id, day=excluded.day,
			duration_min=excluded.duration_min, kind=excluded.kind, thumbnail=excluded.thumbnail,
			play_url=excluded.play_url, tags=excluded.tags, summary=excluded.summary, source=excluded.source,
			source_thumb=excluded.source_thumb, media_path=excluded.media_path, intensity=excluded.intensity,
			impact=excluded.impact, areas=excluded.areas, meta_edited=excluded.meta_edited, updated_at=excluded.updated_at`,
		it.ID, it.Title, it.Program, it.Day, it.DurationMin, it.Kind, it.Thumbnail, it.PlayURL, tagsJSON(it.Tags),
		it.Summary, it.Source, it.SourceThumb, it.MediaPath, it.Intensity, it.Impact, areasJSON(it.Areas), it.MetaEdited,
		now, now)
	if err != nil {
		return false, false, fmt.Errorf("content: upsert item %s: %w", it.ID, err)
	}
	return !found, found, nil
}

func sameItem(a, b Item) bool {
	if !slices.Equal(a.Tags, b.Tags) || !slices.Equal(a.Areas, b.Areas) || (a.Areas == nil) != (b.Areas == nil) {
		return false
	}
	a.Tags, b.Tags, a.Areas, b.Areas = nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

func findProgram(ctx context.Context, q store.Queryer, id string) (Program, bool, error) {
	var p Program
	err := q.QueryRowContext(ctx, `SELECT id, title, description, source FROM content_programs WHERE id = ?`, id).
		Scan(&p.ID, &p.Title, &p.Description, &p.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("content: program %s: %w", id, err)
	}
	p.Days, err = store.All(ctx, q, func(row store.Scanner) (Day, error) {
		var d Day
		err := row.Scan(&d.Day, &d.ContentID, &d.Rest, &d.Note)
		return d, err
	}, `SELECT day, coalesce(content_id, ''), rest, note FROM content_program_days WHERE program_id = ? ORDER BY day`, id)
	if err != nil {
		return p, false, fmt.Errorf("content: program %s days: %w", id, err)
	}
	return p, true, nil
}

// upsertProgram replaces a program's header and schedule unless identical.
func upsertProgram(ctx context.Context, tx *store.Tx, now string, p Program) (added, changed bool, err error) {
	old, found, err := findProgram(ctx, tx, p.ID)
	if err != nil {
		return false, false, err
	}
	if found && old.Title == p.Title && old.Description == p.Description && old.Source == p.Source &&
		slices.Equal(old.Days, p.Days) {
		return false, false, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO content_programs (id, title, description, source, created_at, updated_at)
		VALUES (?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET title=excluded.title, description=excluded.description,
		source=excluded.source, updated_at=excluded.updated_at`, p.ID, p.Title, p.Description, p.Source, now, now); err != nil {
		return false, false, fmt.Errorf("content: upsert program %s: %w", p.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM content_program_days WHERE program_id = ?`, p.ID); err != nil {
		return false, false, fmt.Errorf("content: clear program %s days: %w", p.ID, err)
	}
	for _, d := range p.Days {
		if _, err := tx.ExecContext(ctx, `INSERT INTO content_program_days (program_id, day, content_id, rest, note)
			VALUES (?,?,?,?,?)`, p.ID, d.Day, store.NullString(d.ContentID), d.Rest, d.Note); err != nil {
			return false, false, fmt.Errorf("content: program %s day %d: %w", p.ID, d.Day, err)
		}
	}
	return !found, found, nil
}

// likeEscape escapes LIKE wildcards for use with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
