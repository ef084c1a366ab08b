package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"

	"github.com/pressly/goose/v3"

	"hearth/internal/text"
)

// repairTextVersion is the goose version of the one-off text repair (a Go
// migration in the household range, see migrations/embed.go).
const repairTextVersion = 9

// repairTextMigration cleans text stored before every input went through
// package text: a "\r" in a meal name could forge a live-stream event, so
// existing rows with CR, other control characters (tab and newline stay) or
// invalid UTF-8 are normalised the way text.Clean(Multi) does. It runs once
// per database, after the tables exist (goose applies it out of order on an
// existing database).
func repairTextMigration(logger *slog.Logger) *goose.Migration {
	return goose.NewGoMigration(repairTextVersion, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		n, err := RepairText(ctx, tx)
		if n > 0 {
			logger.Info("repaired stored text", "values", n)
		}
		return err
	}}, nil)
}

// RepairText rewrites every text value of every ordinary table that holds a
// "\r", a control character other than tab and newline, or invalid UTF-8,
// and returns how many values it changed. A value whose cleaned form would
// collide with a unique key is left as it is (the stream strips CR anyway).
func RepairText(ctx context.Context, tx *sql.Tx) (int, error) {
	bad, err := FindBadText(ctx, tx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, b := range bad {
		clean, _ := text.Clean(text.Multi, b.Value)
		res, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE OR IGNORE %s SET %s = ? WHERE rowid = ?",
			quoteIdent(b.Table), quoteIdent(b.Column)), clean, b.RowID)
		if err != nil {
			return n, fmt.Errorf("store: repair %s.%s: %w", b.Table, b.Column, err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	return n, nil
}

// BadText is a stored value that text.Check(Multi) refuses, or one with a CR.
type BadText struct {
	Table, Column string
	RowID         int64
	Value         string
}

// FindBadText lists every stored text value with a "\r", another control
// character other than tab and newline, or invalid UTF-8. Tests use it to
// prove no input path stores such text.
func FindBadText(ctx context.Context, q Queryer) ([]BadText, error) {
	tables, err := textColumns(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []BadText
	for _, t := range tables {
		for _, col := range t.cols {
			found, err := badInColumn(ctx, q, t.name, col)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
	}
	return out, nil
}

type textTable struct {
	name string
	cols []string
}

// textColumns lists the TEXT (or untyped) columns of ordinary rowid tables;
// virtual tables (FTS) and their shadow tables are derived data and skipped.
func textColumns(ctx context.Context, q Queryer) ([]textTable, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_%' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: list tables: %w", err)
	}
	var names, virtual []string
	for rows.Next() {
		var name string
		var ddl sql.NullString
		if err := rows.Scan(&name, &ddl); err != nil {
			rows.Close()
			return nil, err
		}
		up := strings.ToUpper(ddl.String)
		if strings.Contains(up, "VIRTUAL TABLE") {
			virtual = append(virtual, name)
			continue
		}
		if strings.Contains(up, "WITHOUT ROWID") {
			continue
		}
		names = append(names, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []textTable
	for _, name := range names {
		if isShadow(virtual, name) {
			continue
		}
		cols, err := tableTextColumns(ctx, q, name)
		if err != nil {
			return nil, err
		}
		if len(cols) > 0 {
			out = append(out, textTable{name: name, cols: cols})
		}
	}
	return out, nil
}

// isShadow reports whether name is a shadow table (x_data, x_idx, …) of one
// of the virtual tables, which sqlite_master lists as ordinary tables.
func isShadow(virtual []string, name string) bool {
	for _, v := range virtual {
		if rest, ok := strings.CutPrefix(name, v+"_"); ok && !strings.Contains(rest, "_") {
			return true
		}
	}
	return false
}

func tableTextColumns(ctx context.Context, q Queryer, table string) ([]string, error) {
	rows, err := q.QueryContext(ctx, fmt.Sprintf("SELECT name, type FROM pragma_table_info(%s)", quoteString(table)))
	if err != nil {
		return nil, fmt.Errorf("store: columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, err
		}
		typ = strings.ToUpper(typ)
		if typ == "" || strings.Contains(typ, "TEXT") || strings.Contains(typ, "CHAR") || strings.Contains(typ, "CLOB") {
			cols = append(cols, name)
		}
	}
	return cols, rows.Err()
}

func badInColumn(ctx context.Context, q Queryer, table, col string) ([]BadText, error) {
	rows, err := q.QueryContext(ctx, fmt.Sprintf("SELECT rowid, %s FROM %s WHERE typeof(%s) = 'text'",
		quoteIdent(col), quoteIdent(table), quoteIdent(col)))
	if err != nil {
		return nil, fmt.Errorf("store: scan %s.%s: %w", table, col, err)
	}
	defer rows.Close()
	var out []BadText
	for rows.Next() {
		var id int64
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			return nil, err
		}
		if needsRepair(v) {
			out = append(out, BadText{Table: table, Column: col, RowID: id, Value: v})
		}
	}
	return out, rows.Err()
}

func needsRepair(v string) bool {
	if strings.ContainsRune(v, '\r') {
		return true
	}
	_, err := text.Check(text.Multi, v)
	return err != nil
}

func quoteIdent(s string) string  { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
