package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Tx is a write transaction on the writer connection. It embeds *Tx, so
// it is a Queryer, and adds AfterCommit: work that must happen only once the
// writes are durable (publishing a live update, arming a timer), and never
// for a transaction that rolled back.
type Tx struct {
	*sql.Tx
	after []func()
}

// AfterCommit registers fn to run after the transaction commits, in
// registration order. A rolled-back transaction drops it.
func (tx *Tx) AfterCommit(fn func()) { tx.after = append(tx.after, fn) }

// Tx runs fn in a write transaction, committing when fn returns nil, and
// then runs the AfterCommit hooks. fn must not start another transaction
// (there is one writer connection: it would wait for itself).
func (db *DB) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	stx, err := db.Write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer func() { _ = stx.Rollback() }()
	tx := &Tx{Tx: stx}
	if err := fn(tx); err != nil {
		return err
	}
	if err := stx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	for _, f := range tx.after {
		f()
	}
	return nil
}
