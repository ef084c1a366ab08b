package dashboard

import (
	"context"
	"fmt"
	"slices"
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
	type mark struct {
		id string
		at time.Time
	}
	marks, err := store.All(ctx, s.db.Read, func(row store.Scanner) (mark, error) {
		var m mark
		var at string
		if err := row.Scan(&m.id, &at); err != nil {
			return m, err
		}
		var err error
		m.at, err = store.ParseTime(at)
		return m, err
	}, `SELECT content_id, max(consumed_at) FROM content_consumed
		WHERE member_id = ? AND consumed_at >= ? GROUP BY content_id`, member, store.FormatTime(t))
	if err != nil {
		return nil, fmt.Errorf("dashboard: consumed: %w", err)
	}
	out := make(map[string]time.Time, len(marks))
	for _, m := range marks {
		out[m.id] = m.at
	}
	return out, nil
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
	return playlist(ctx, s.db.Read, member)
}

func playlist(ctx context.Context, q store.Queryer, member string) ([]string, error) {
	ids, err := store.All(ctx, q, store.Value[string], `SELECT content_id FROM playlist_items WHERE member_id = ? ORDER BY position`, member)
	if err != nil {
		return nil, fmt.Errorf("dashboard: playlist: %w", err)
	}
	return ids, nil
}

// Playlist operations (PlaylistEdit.Op).
const (
	PlaylistAdd     = "add"     // append ContentID
	PlaylistRemove  = "remove"  // remove the row at Pos (or ContentID's first)
	PlaylistUp      = "up"      // move that row up one place
	PlaylistDown    = "down"    // move it down one place
	PlaylistSuggest = "suggest" // replace the list with today's suggested playlist
	PlaylistClear   = "clear"
)

// PlaylistEdit is one change to a member's playlist. A row is named by its
// position and content id: if the list changed on another screen and the
// id is no longer at Pos, its first position is used, and an id no longer
// in the list changes nothing.
type PlaylistEdit struct {
	Op        string
	ContentID string
	Pos       int
}

// EditPlaylist applies edit in one transaction (read, change, write), so
// two screens editing at once cannot lose each other's change, and tells
// the member's screens once it committed. Adding needs a content id the
// caller checked against the catalog.
func (s *Store) EditPlaylist(ctx context.Context, member string, edit PlaylistEdit) error {
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		ids, err := playlist(ctx, tx, member)
		if err != nil {
			return err
		}
		if ids, err = s.applyEdit(ctx, tx, member, ids, edit); err != nil {
			return err
		}
		if len(ids) > MaxPlaylist {
			return apperr.Invalidf("a playlist holds at most %d items", MaxPlaylist)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM playlist_items WHERE member_id = ?`, member); err != nil {
			return fmt.Errorf("dashboard: set playlist: %w", err)
		}
		for i, id := range ids {
			if _, err := tx.ExecContext(ctx, `INSERT INTO playlist_items (member_id, position, content_id) VALUES (?,?,?)`, member, i, id); err != nil {
				return fmt.Errorf("dashboard: set playlist: %w", err)
			}
		}
		if s.pub != nil {
			tx.AfterCommit(func() { s.pub.Publish(live.MemberTopic(member), live.KindPlaylist, nil) })
		}
		return nil
	})
	return err
}

func (s *Store) applyEdit(ctx context.Context, tx *store.Tx, member string, ids []string, e PlaylistEdit) ([]string, error) {
	switch e.Op {
	case PlaylistAdd:
		if strings.TrimSpace(e.ContentID) == "" {
			return nil, apperr.Invalidf("content id is required")
		}
		return append(ids, e.ContentID), nil
	case PlaylistRemove, PlaylistUp, PlaylistDown:
		i := rowIndex(ids, e.Pos, e.ContentID)
		switch {
		case i < 0: // changed on another screen meanwhile
		case e.Op == PlaylistRemove:
			ids = slices.Delete(ids, i, i+1)
		case e.Op == PlaylistUp && i > 0:
			ids[i-1], ids[i] = ids[i], ids[i-1]
		case e.Op == PlaylistDown && i < len(ids)-1:
			ids[i+1], ids[i] = ids[i], ids[i+1]
		}
		return ids, nil
	case PlaylistSuggest:
		st, err := s.latest(ctx, tx, member, s.Day(s.db.Now()))
		if err != nil {
			return nil, err
		}
		ids = ids[:0]
		for _, r := range st.Document.Curated.PlaylistSuggestion {
			ids = append(ids, r.ContentID)
		}
		return ids, nil
	case PlaylistClear:
		return nil, nil
	}
	return nil, apperr.Invalidf("unknown playlist operation %q", e.Op)
}

// rowIndex finds the row a button belongs to: pos when the id still
// matches there, else the id's first position, else -1.
func rowIndex(ids []string, pos int, id string) int {
	if pos >= 0 && pos < len(ids) && ids[pos] == id {
		return pos
	}
	return slices.Index(ids, id)
}
