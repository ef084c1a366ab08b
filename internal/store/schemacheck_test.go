package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"hearth/migrations"
)

// openFile is Open at a temp path (package store's tests cannot use
// storetest, which imports this package).
func openFile(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// A database the migrations made passes; every object they do not make,
// or make otherwise, is refused by name; planner statistics are allowed.
func TestCheckSchemaObjects(t *testing.T) {
	ctx := context.Background()
	if err := CheckSchemaObjects(ctx, openFile(t).Path); err != nil {
		t.Fatalf("a fresh database: %v", err)
	}
	cases := map[string]struct{ sql, want string }{
		"trigger": {`CREATE TRIGGER spy AFTER INSERT ON weight_readings BEGIN DELETE FROM meals; END`,
			"trigger spy (on weight_readings) is not part of Hearth's schema"},
		"view":  {`CREATE VIEW everyone AS SELECT * FROM members`, "view everyone is not part of Hearth's schema"},
		"index": {`CREATE INDEX meals_by_name ON meals(name)`, "index meals_by_name (on meals) is not part of Hearth's schema"},
		"table": {`CREATE TABLE loot (x)`, "table loot is not part of Hearth's schema"},
		"altered table": {`ALTER TABLE meals ADD COLUMN note TEXT DEFAULT (hex(randomblob(4)))`,
			"table meals differs from Hearth's definition"},
		"altered trigger": {`DROP TRIGGER agent_messages_fts_ad; CREATE TRIGGER agent_messages_fts_ad AFTER DELETE ON agent_messages BEGIN SELECT 1; END`,
			"trigger agent_messages_fts_ad (on agent_messages) differs from Hearth's definition"},
		"missing index":       {`DROP INDEX request_keys_created`, "index request_keys_created (on request_keys) is missing"},
		"trigger on goose":    {`CREATE TRIGGER g AFTER INSERT ON goose_db_version BEGIN SELECT 1; END`, "trigger g (on goose_db_version)"},
		"planner statistics":  {`ANALYZE`, ""},
		"statistics faked up": {`DROP TABLE IF EXISTS sqlite_stat1; ANALYZE; PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE TABLE sqlite_stat1(tbl,idx,stat DEFAULT (load_extension(1)))' WHERE name = 'sqlite_stat1'`, "table sqlite_stat1 is not part"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			db := openFile(t)
			if _, err := db.Write.ExecContext(ctx, c.sql); err != nil {
				t.Fatal(err)
			}
			err := CheckSchemaObjects(ctx, db.Path)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrForeignSchema) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestNormalizeSQL(t *testing.T) {
	a := "CREATE TABLE x (\n    id INTEGER PRIMARY KEY, -- the id\n    name TEXT /* shown */ NOT NULL DEFAULT 'A  b'\n)"
	b := `create table x(id integer primary key,name text not null default 'A  b')`
	if normalizeSQL(a) != normalizeSQL(b) {
		t.Fatalf("%q\n%q", normalizeSQL(a), normalizeSQL(b))
	}
	if normalizeSQL(`default 'A  b'`) == normalizeSQL(`default 'a b'`) {
		t.Fatal("quoted text was changed")
	}
}

// A database that got the Go migrations after the SQL ones (as one made
// before they existed did, out of order) has the schema a fresh one has:
// the check must not refuse its backups.
func TestCheckSchemaObjectsAcceptsOutOfOrderHistory(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hearth.db")
	raw, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, fs.FS(migrations.FS), goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(GoMigrations(nil)...))
	if err != nil {
		t.Fatal(err)
	}
	var goVersions []int64
	for _, m := range GoMigrations(nil) {
		goVersions = append(goVersions, m.Version)
	}
	order := slices.DeleteFunc(KnownVersions(), func(v int64) bool { return slices.Contains(goVersions, v) })
	for _, v := range append(order, goVersions...) {
		if _, err := p.ApplyVersion(ctx, v, true); err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
	}
	if err := CheckSchemaObjects(ctx, path); err != nil {
		t.Fatal(err)
	}
}
