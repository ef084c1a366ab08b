package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pressly/goose/v3"

	"hearth/migrations"
)

// ErrForeignSchema marks a database holding schema objects (tables,
// indexes, triggers, views) that this binary's migrations do not create,
// or that differ from what they create. A trigger planted in a backup
// would run on the first write after a restore: such a database is never
// restored.
var ErrForeignSchema = errors.New("its schema is not the one Hearth creates")

// SchemaObject is one entry of sqlite_schema.
type SchemaObject struct {
	Type, Name, Table, SQL string
}

func (o SchemaObject) String() string {
	if o.Table != "" && o.Table != o.Name {
		return fmt.Sprintf("%s %s (on %s)", o.Type, o.Name, o.Table)
	}
	return o.Type + " " + o.Name
}

// sqliteStats are the tables ANALYZE (or PRAGMA optimize) may add: query
// planner statistics, allowed though no migration creates them.
var sqliteStats = map[string]string{
	"sqlite_stat1": "create table sqlite_stat1(tbl,idx,stat)",
	"sqlite_stat4": "create table sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)",
}

// CheckSchemaObjects compares every object in the schema of the database
// file at path (read-only) with what this binary's migrations create for
// the schema versions the file has applied: an expected database is built
// in a temporary directory by applying exactly those versions, in order,
// to an empty file. Extra, altered and missing objects are refused, each
// named, with an error wrapping ErrForeignSchema. A file a newer Hearth
// wrote cannot be judged: its Schema error (ErrNewerSchema) is returned.
func CheckSchemaObjects(ctx context.Context, path string) error {
	s, err := FileSchema(ctx, path)
	if err != nil {
		return err
	}
	if err := s.Err(); err != nil {
		return err
	}
	var applied []int64
	for _, v := range KnownVersions() {
		if !slices.Contains(s.Pending, v) {
			applied = append(applied, v)
		}
	}
	have, err := fileObjects(ctx, path)
	if err != nil {
		return err
	}
	want, err := expectedObjects(ctx, applied)
	if err != nil {
		return err
	}
	return compareObjects(have, want)
}

// fileObjects reads the schema of the database file at path, read-only.
func fileObjects(ctx context.Context, path string) (map[string]SchemaObject, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return schemaObjects(ctx, db)
}

func schemaObjects(ctx context.Context, q Queryer) (map[string]SchemaObject, error) {
	rows, err := q.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema`)
	if err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", err)
	}
	defer rows.Close()
	out := map[string]SchemaObject{}
	for rows.Next() {
		var o SchemaObject
		if err := rows.Scan(&o.Type, &o.Name, &o.Table, &o.SQL); err != nil {
			return nil, fmt.Errorf("store: read the schema: %w", err)
		}
		out[strings.ToLower(o.Name)] = o
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", err)
	}
	return out, nil
}

// expectedObjects builds an empty database with exactly the versions
// applied, in ascending order, and returns its schema.
func expectedObjects(ctx context.Context, versions []int64) (map[string]SchemaObject, error) {
	dir, err := os.MkdirTemp("", "hearth-schema-*")
	if err != nil {
		return nil, fmt.Errorf("store: expected schema: %w", err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "expected.db")+"?_foreign_keys=on")
	if err != nil {
		return nil, fmt.Errorf("store: expected schema: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fs.FS(migrations.FS), goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(GoMigrations(nil)...))
	if err != nil {
		return nil, fmt.Errorf("store: expected schema: %w", err)
	}
	for _, v := range versions {
		if _, err := p.ApplyVersion(ctx, v, true); err != nil {
			return nil, fmt.Errorf("store: expected schema: version %d: %w", v, err)
		}
	}
	if len(versions) == 0 { // goose creates its table on the first migration
		return map[string]SchemaObject{}, nil
	}
	return schemaObjects(ctx, db)
}

// compareObjects names every object of have that want lacks or defines
// otherwise, and every object of want that have lacks.
func compareObjects(have, want map[string]SchemaObject) error {
	var problems []string
	for key, h := range have {
		w, ok := want[key]
		switch {
		case !ok && sqliteStats[key] != "" && h.Type == "table" && normalizeSQL(h.SQL) == sqliteStats[key]:
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is not part of Hearth's schema", h))
		case key == "goose_db_version" && h.Type == "table":
			// The migrations' own ledger, created by the goose of whichever
			// Hearth made the file (its definition may differ by version);
			// a trigger or index on it would still be an extra object.
		case h.Type != w.Type || !strings.EqualFold(h.Table, w.Table) || normalizeSQL(h.SQL) != normalizeSQL(w.SQL):
			problems = append(problems, fmt.Sprintf("%s differs from Hearth's definition", h))
		}
	}
	for key, w := range want {
		if _, ok := have[key]; !ok {
			problems = append(problems, fmt.Sprintf("%s is missing", w))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	slices.Sort(problems)
	return fmt.Errorf("%w: %s", ErrForeignSchema, strings.Join(problems, "; "))
}

// normalizeSQL makes two definitions comparable whatever their layout:
// outside quotes, comments go, runs of white space become one space (none
// next to punctuation) and letters are lower case; quoted text (strings
// and quoted names) is kept as it is.
func normalizeSQL(s string) string {
	var b strings.Builder
	space := false
	flushSpace := func(next byte) {
		if space && b.Len() > 0 && !strings.ContainsRune("(),;", rune(next)) {
			last := b.String()[b.Len()-1]
			if !strings.ContainsRune("(),;", rune(last)) {
				b.WriteByte(' ')
			}
		}
		space = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			space = true
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 3
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			space = true
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			flushSpace(c)
			j := i + 1
			for j < len(s) {
				if s[j] == closer {
					if closer != ']' && j+1 < len(s) && s[j+1] == closer { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(s))
			b.WriteString(s[i:end])
			i = end - 1
		default:
			flushSpace(c)
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}
