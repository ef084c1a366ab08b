package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/export"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/store"
)

// memberData is a member's data as a whole: export it, count it, erase it
// (rows and files), for Admin → Household.
type memberData struct {
	db      *store.DB
	dataDir string
	hub     *live.Hub
	log     *slog.Logger
}

func (m memberData) Export(ctx context.Context, member string, w io.Writer) error {
	return export.Member(ctx, m.db, m.dataDir, member, time.Now(), w)
}

func (m memberData) ExportName(member string) string { return export.FileName(member, time.Now()) }

func (m memberData) Counts(ctx context.Context, member string) ([]store.MemberDataCount, error) {
	return m.db.CountMemberData(ctx, member)
}

// Erase deletes every row of the member (one transaction, leaving no copy
// in the database file: store.EraseMember), then their files, and tells
// every screen. A checkpoint a reader held up is logged, not an error: the
// rows are gone and the log is cleared at the next checkpoint.
func (m memberData) Erase(ctx context.Context, member string) error {
	if !health.ValidMemberID(member) { // the id becomes a path below
		return apperr.NotFoundf("no member %q", member)
	}
	if _, err := m.db.EraseMember(ctx, member); errors.Is(err, store.ErrCheckpoint) {
		m.log.Warn("erase member: checkpoint", "member", member, "err", err)
	} else if err != nil {
		return err
	}
	for _, d := range store.MemberDirs {
		if err := os.RemoveAll(filepath.Join(m.dataDir, fmt.Sprintf(d, member))); err != nil {
			return fmt.Errorf("app: erase %s's files: %w", member, err)
		}
	}
	m.hub.Publish(live.MemberTopic(member), live.KindMember, member)
	m.hub.Publish(live.TopicHousehold, live.KindMember, member)
	return nil
}
