// Package idempotency makes a repeated request harmless. The Datastar client
// re-sends a POST, with the same body, when the connection fails after the
// request left (a tablet's weak Wi-Fi): without this a weigh-in whose reply
// was lost is stored twice. Every creating request carries a key the
// browser generated (or an Idempotency-Key header from a script); the first
// request with a key records its response, and a repeat gets that response
// back instead of doing the work again. The same key for a different
// request (the caller's hash covers the concrete path and the body) is a
// Mismatch, which web answers 422 and never replays.
//
// A key is unique on its own, not per member or route: clients make it
// random (a UUID or ULID), so the same key on another member's route is a
// reused key (Mismatch), never a fresh request. Key.Member attributes the
// recorded reply to the member whose data the request touched, so erasing
// that member deletes it.
//
// A repeat that arrives while the first request still runs waits for it
// (in this process). A key left pending by a process that died mid-request
// is reported as interrupted rather than run again: the work may have been
// committed.
package idempotency

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"hearth/internal/store"
)

// Retention is how long keys are kept: the client's retries end within
// minutes; a day and more covers a tablet that slept through them.
const Retention = 48 * time.Hour

// Key names one request by the client's Key. Kind (method and route) is
// recorded for diagnosis; Member is whose data the request touched ("" for
// none, or several members): set it before Finish to the owner the
// handler resolved, and the reply is erased with that member.
type Key struct {
	Member, Kind, Key string
}

// Response is a recorded answer.
type Response struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// State is what Begin found.
type State int

const (
	// Fresh: the caller owns the key; do the work, then Finish or Abandon.
	Fresh State = iota
	// Done: a response was recorded; send it again.
	Done
	// Mismatch: the key was used with a different body.
	Mismatch
	// Interrupted: an earlier process died while the first request ran.
	Interrupted
)

// Store records keys in SQLite.
type Store struct {
	db  *store.DB
	now func() time.Time

	mu       sync.Mutex
	inflight map[string]chan struct{} // by key; closed when the owner finishes
	lastGC   atomic.Int64
}

// New returns a Store over db.
func New(db *store.DB) *Store {
	return &Store{db: db, now: time.Now, inflight: map[string]chan struct{}{}}
}

// Begin claims k for a request whose body hashes to hash. With Fresh the
// caller must call Finish or Abandon. With Done the recorded response is
// returned. A repeat of a request still running in this process waits for
// it (or for ctx).
func (s *Store) Begin(ctx context.Context, k Key, hash string) (State, Response, error) {
	s.gc(ctx)
	for {
		s.mu.Lock()
		wait, running := s.inflight[k.Key]
		if !running {
			s.inflight[k.Key] = make(chan struct{})
		}
		s.mu.Unlock()
		if running {
			select {
			case <-wait:
				continue // the owner finished: read what it recorded
			case <-ctx.Done():
				return 0, Response{}, ctx.Err()
			}
		}
		st, resp, err := s.claim(ctx, k, hash)
		if err != nil || st != Fresh {
			s.release(k)
		}
		return st, resp, err
	}
}

// claim inserts the pending row, or reads the one already there.
func (s *Store) claim(ctx context.Context, k Key, hash string) (State, Response, error) {
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO request_keys (key, member_id, kind, body_hash, created_at)
		VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`, k.Key, k.Member, k.Kind, hash, store.FormatTime(s.now()))
	if err != nil {
		return 0, Response{}, fmt.Errorf("idempotency: claim: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return Fresh, Response{}, nil
	}
	var r Response
	var stored, kind string
	err = s.db.Write.QueryRowContext(ctx, `SELECT body_hash, kind, status, content_type, location, response FROM request_keys
		WHERE key = ?`, k.Key).Scan(&stored, &kind, &r.Status, &r.ContentType, &r.Location, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		// Collected between the insert and the read: claim again.
		return s.claim(ctx, k, hash)
	}
	if err != nil {
		return 0, Response{}, fmt.Errorf("idempotency: read: %w", err)
	}
	switch {
	case stored != hash || kind != k.Kind:
		// The key was used for another request: another route, member,
		// resource or body.
		return Mismatch, Response{}, nil
	case r.Status == 0:
		// Pending, but no request of this process holds it.
		return Interrupted, Response{}, nil
	}
	return Done, r, nil
}

// Finish records the response of the request that owns k, attributed to
// k.Member, and wakes any repeat waiting for it. A reply attributed to a
// member who no longer exists (erased while the request ran) is not kept.
func (s *Store) Finish(ctx context.Context, k Key, r Response) error {
	defer s.release(k)
	if r.Status == 0 {
		r.Status = 200
	}
	ctx = context.WithoutCancel(ctx)
	res, err := s.db.Write.ExecContext(ctx, `UPDATE request_keys SET member_id = ?, status = ?, content_type = ?,
		location = ?, response = ? WHERE key = ? AND (? = '' OR EXISTS (SELECT 1 FROM members WHERE id = ?))`,
		k.Member, r.Status, r.ContentType, r.Location, r.Body, k.Key, k.Member, k.Member)
	if err != nil {
		return fmt.Errorf("idempotency: finish: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 && k.Member != "" {
		if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM request_keys WHERE key = ?`, k.Key); err != nil {
			return fmt.Errorf("idempotency: finish: %w", err)
		}
	}
	return nil
}

// Abandon forgets k: the request failed before doing anything, so a repeat
// may try again.
func (s *Store) Abandon(ctx context.Context, k Key) error {
	defer s.release(k)
	_, err := s.db.Write.ExecContext(context.WithoutCancel(ctx), `DELETE FROM request_keys
		WHERE key = ? AND status = 0`, k.Key)
	if err != nil {
		return fmt.Errorf("idempotency: abandon: %w", err)
	}
	return nil
}

func (s *Store) release(k Key) {
	s.mu.Lock()
	if ch, ok := s.inflight[k.Key]; ok {
		close(ch)
		delete(s.inflight, k.Key)
	}
	s.mu.Unlock()
}

// gc deletes keys past Retention, at most once an hour.
func (s *Store) gc(ctx context.Context) {
	now := s.now()
	last := s.lastGC.Load()
	if now.UnixNano()-last < int64(time.Hour) || !s.lastGC.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	_, _ = s.db.Write.ExecContext(ctx, `DELETE FROM request_keys WHERE created_at < ?`, store.FormatTime(now.Add(-Retention)))
}
