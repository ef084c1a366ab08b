package dashboard

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// MarkConsumed records that a member finished a content item (a "done" tap or
// a logged workout carrying its content id); Up Next for it is then hidden.
func (s *Store) MarkConsumed(ctx context.Context, member, contentID, source string) error {
	contentID = strings.TrimSpace(contentID)
	if contentID == "" {
		return apperr.Invalidf("content id is required")
	}
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO content_consumed (member_id, content_id, consumed_at, source) VALUES (?,?,?,?)`,
		member, contentID, store.FormatTime(s.db.Now()), source)
	if err != nil {
		return fmt.Errorf("dashboard: mark consumed: %w", err)
	}
	if s.pub != nil {
		s.pub.Publish(live.MemberTopic(member), live.KindConsumed, contentID)
	}
	return nil
}

// ConsumedSince returns the content ids a member finished since t, with when.
func (s *Store) ConsumedSince(ctx context.Context, member string, t time.Time) (map[string]time.Time, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT content_id, max(consumed_at) FROM content_consumed
		WHERE member_id = ? AND consumed_at >= ? GROUP BY content_id`, member, store.FormatTime(t))
	if err != nil {
		return nil, fmt.Errorf("dashboard: consumed: %w", err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id, at string
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		if out[id], err = store.ParseTime(at); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// DayStart returns the start of the household-local day containing t.
func (s *Store) DayStart(t time.Time) time.Time {
	y, m, d := t.In(s.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, s.loc)
}

// MaxPlaylist caps a member's playlist length.
const MaxPlaylist = 30

// Playlist returns a member's playlist content ids in play order.
func (s *Store) Playlist(ctx context.Context, member string) ([]string, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT content_id FROM playlist_items WHERE member_id = ? ORDER BY position`, member)
	if err != nil {
		return nil, fmt.Errorf("dashboard: playlist: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// SetPlaylist replaces a member's playlist atomically.
func (s *Store) SetPlaylist(ctx context.Context, member string, ids []string) error {
	if len(ids) > MaxPlaylist {
		return apperr.Invalidf("a playlist holds at most %d items", MaxPlaylist)
	}
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM playlist_items WHERE member_id = ?`, member); err != nil {
			return err
		}
		for i, id := range ids {
			if _, err := tx.ExecContext(ctx, `INSERT INTO playlist_items (member_id, position, content_id) VALUES (?,?,?)`, member, i, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dashboard: set playlist: %w", err)
	}
	if s.pub != nil {
		s.pub.Publish(live.MemberTopic(member), live.KindPlaylist, nil)
	}
	return nil
}
