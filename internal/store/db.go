// Package store owns the SQLite connection strategy, the schema migrations and
// the household repositories (members and their health records).
//
// Connection strategy: one writer connection (MaxOpenConns=1, _txlock=immediate)
// serialises every write in-process, so SQLite never has to arbitrate between
// our own writers and "database is locked" cannot surface from concurrency in
// this process; a separate pool of query-only reader connections serves reads
// concurrently thanks to WAL. The busy timeout covers other processes (the
// CLI importer, sqlite3 shell).
//
// Other domain packages (agent, schedule, content, …) keep the SQL of their own
// aggregates beside their types and use DB's Write/Read handles and Tx.
//
// Tx is a write transaction with AfterCommit hooks: a write that must be
// followed by a live update (or a timer armed) registers it there, so it
// happens only once the write is durable. The query kit (All, One, Value
// and Where) scans rows and builds optional filters. SQLite's "disk full"
// and "busy" errors are translated for the layers above through apperr
// (NoSpace, Unavailable), so none of them imports this package to map
// them.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
	"github.com/pressly/goose/v3"

	"hearth/migrations"
)

// DB is the application's handle on its SQLite file.
type DB struct {
	// Write is the single writer connection; use Tx for multi-statement writes.
	Write *sql.DB
	// Read is a pool of query-only connections.
	Read *sql.DB
	Path string
	// Now is the clock used for created_at stamps; tests may replace it.
	Now func() time.Time
}

// Open opens (creating if needed) the database at path, applies the embedded
// migrations and returns the handle.
func Open(ctx context.Context, path string, logger *slog.Logger) (*DB, error) {
	return open(ctx, path, logger, Synchronous)
}

// OpenScratch is Open for a throwaway database (an eval scenario's, deleted
// when it ends): commits are not fsynced (synchronous OFF), so a power cut
// may lose it, which no one minds, and the checkpoint writes of a durable
// workflow cost what they cost in memory. Never for the household's data.
func OpenScratch(ctx context.Context, path string, logger *slog.Logger) (*DB, error) {
	return open(ctx, path, logger, "OFF")
}

func open(ctx context.Context, path string, logger *slog.Logger, synchronous string) (*DB, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, PrivateDir); err != nil {
			return nil, fmt.Errorf("store: create data dir: %w", err)
		}
	}
	if err := createPrivate(path, logger); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite3", dsn(path, false, synchronous))
	if err != nil {
		return nil, fmt.Errorf("store: open writer: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	db := &DB{Write: w, Path: path, Now: time.Now}
	if err := w.PingContext(ctx); err != nil {
		_ = w.Close()
		if unwritable(err) {
			return nil, fmt.Errorf("store: open %s (check the permissions of the file and its directory): %w", path, err)
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := requireFTS5(ctx, w); err != nil {
		_ = w.Close()
		return nil, err
	}
	if err := checkSchema(ctx, w, path); err != nil {
		_ = w.Close()
		return nil, err
	}
	if err := db.migrate(ctx, logger); err != nil {
		_ = w.Close()
		return nil, err
	}
	if err := db.probeWrite(ctx); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("store: %s cannot be written (check the permissions of the file and its directory, and free disk space): %w", path, err)
	}
	r, err := sql.Open("sqlite3", dsn(path, true, synchronous))
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("store: open readers: %w", err)
	}
	n := max(4, runtime.NumCPU()*2)
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	db.Read = r
	return db, nil
}

// probeWrite writes page 1 in a transaction it rolls back. A database file
// that opened read-only (SQLite falls back silently when the file is not
// writable) would otherwise fail on the first write of whichever part of the
// app wrote first, with a message naming neither the file nor the fix.
func (db *DB) probeWrite(ctx context.Context) error {
	tx, err := db.Write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var v int64
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

// ErrNoFTS5 is Open's error in a build without SQLite's full-text search.
var ErrNoFTS5 = errors.New("store: this Hearth was built without SQLite's full-text search (FTS5), which chat recall needs: " +
	"build and test with the go-sqlite3 build tag sqlite_fts5 (go build -tags sqlite_fts5, go test -tags sqlite_fts5; " +
	"make build, make test and make release set it)")

// requireFTS5 refuses a SQLite built without FTS5 before anything migrates
// (migration 91 creates an FTS5 table, and would fail with "no such
// module: fts5").
func requireFTS5(ctx context.Context, db *sql.DB) error {
	var on int
	if err := db.QueryRowContext(ctx, `SELECT sqlite_compileoption_used('ENABLE_FTS5')`).Scan(&on); err != nil {
		return fmt.Errorf("store: compile options: %w", err)
	}
	if on != 1 {
		return ErrNoFTS5
	}
	return nil
}

// BusyTimeout is how long a write waits for the database's write lock when
// another process holds it (a `hearth import` from the command line holds it
// for its whole file: ~10 s per million records). Writes in this process
// queue on the single writer connection without a limit anyway, as they do
// behind an import uploaded through the admin; a long timeout makes the
// other-process case the same, where 5 s turned a kiosk entry made during
// an import into an error and a lost entry.
const BusyTimeout = time.Minute

// Synchronous is the PRAGMA synchronous every connection runs with.
const Synchronous = "FULL"

// SecureDelete is the writer's PRAGMA secure_delete. ON overwrites a deleted
// row, and a page it frees, with zeros: without it an erased member's meals
// and chats stay readable in the file's free space (strings hearth.db).
// FAST zeroes rows in place but leaves freed pages (a long chat message's
// overflow pages) as they were. The write cost is in BENCHMARKS.md.
const SecureDelete = "ON"

func dsn(path string, readOnly bool, synchronous string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", strconv.FormatInt(BusyTimeout.Milliseconds(), 10))
	q.Set("_foreign_keys", "on")
	// FULL: a commit returns only after the WAL is fsynced, so an entry a
	// member saw saved survives a power cut (NORMAL loses the commits since
	// the last checkpoint). Measured in BENCHMARKS.md.
	q.Set("_synchronous", synchronous)
	if readOnly {
		q.Set("_query_only", "true")
	} else {
		q.Set("_txlock", "immediate")
		q.Set("_secure_delete", SecureDelete) // only the writer deletes
	}
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// uriPath escapes what a SQLite URI's path may not hold as it is: a '?' or
// '#' in a data directory's name would end the path there, and the database
// would silently open at the shorter path (www.sqlite.org/uri.html §3.1).
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// ErrMigrate marks an Open that failed applying a migration. Each
// migration runs in its own transaction: the failed one left nothing, but
// those before it in the same Open stay applied.
var ErrMigrate = errors.New("a schema migration failed")

func (db *DB) migrate(ctx context.Context, logger *slog.Logger) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db.Write, fs.FS(migrations.FS), goose.WithSlog(logger),
		// Version ranges are reserved per area (see migrations/embed.go), so a
		// lower-numbered file can land after a higher one was applied.
		goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(GoMigrations(logger)...))
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate: %w: %w", ErrMigrate, err)
	}
	for _, r := range res {
		logger.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "took", r.Duration)
	}
	return nil
}

// ErrCheckpoint marks a checkpoint that could not finish: a reader (a
// backup in progress) kept part of the write-ahead log in use past the busy
// timeout. The log is cleared at a later checkpoint.
var ErrCheckpoint = errors.New("the write-ahead log could not be cleared")

// Checkpoint copies the whole write-ahead log into the database file and
// truncates the log to zero bytes: pages an erase overwrote with zeros
// replace the old ones in the file, and the old copies in the log are gone.
// It waits for readers (up to the busy timeout).
func (db *DB) Checkpoint(ctx context.Context) error {
	var busy, logPages, done int64
	if err := db.Write.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &done); err != nil {
		return fmt.Errorf("store: checkpoint: %w: %w", ErrCheckpoint, err)
	}
	if busy != 0 {
		return fmt.Errorf("store: checkpoint: %w (a reader held it)", ErrCheckpoint)
	}
	return nil
}

// Close closes both pools, readers first; a WAL checkpoint happens when the
// last connection closes.
func (db *DB) Close() error {
	var errs []error
	if db.Read != nil {
		errs = append(errs, db.Read.Close())
	}
	errs = append(errs, db.Write.Close())
	return errors.Join(errs...)
}

// Ping checks both pools answer a trivial query; used by /healthz.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.Read.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: ping reader: %w", err)
	}
	if err := db.Write.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping writer: %w", err)
	}
	return nil
}

// Queryer is satisfied by *sql.DB and *Tx so helpers can run inside or
// outside a transaction.
type Queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}
