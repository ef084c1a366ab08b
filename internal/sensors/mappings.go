package sensors

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/homeassistant"
	"hearth/internal/store"
)

// Mapping is one entity mapped to a member and a kind, with its cursor
// and its last poll's outcome.
type Mapping struct {
	ID       int64
	EntityID string
	MemberID string
	Kind     Kind
	Created  time.Time
	// Cursor is the last state time imported (nil: never polled).
	Cursor *time.Time
	// PolledAt, Added and Error are the last poll's outcome (PolledAt nil:
	// never polled).
	PolledAt *time.Time
	Added    int
	Error    string
}

// MappingInput is a mapping as an admin typed it.
type MappingInput struct {
	EntityID string
	MemberID string
	Kind     Kind
}

const mappingCols = `id, entity_id, member_id, kind, created_at, cursor_at, polled_at, poll_added, poll_error`

func scanMapping(row store.Scanner) (Mapping, error) {
	var m Mapping
	var kind, created string
	var cursor, polled, perr sql.NullString
	if err := row.Scan(&m.ID, &m.EntityID, &m.MemberID, &kind, &created, &cursor, &polled, &m.Added, &perr); err != nil {
		return m, err
	}
	m.Kind, m.Error = Kind(kind), perr.String
	var err error
	if m.Created, err = store.ParseTime(created); err != nil {
		return m, err
	}
	if m.Cursor, err = store.ParseNullTime(cursor); err != nil {
		return m, err
	}
	m.PolledAt, err = store.ParseNullTime(polled)
	return m, err
}

// Mappings lists every mapping, by member, then in the order Poll handles them.
func (s *Service) Mappings(ctx context.Context) ([]Mapping, error) {
	out, err := store.All(ctx, s.db.Read, scanMapping, `SELECT `+mappingCols+` FROM sensor_mappings
		ORDER BY member_id, CASE kind WHEN 'weight' THEN 0 WHEN 'body_fat' THEN 1 WHEN 'steps' THEN 2 ELSE 3 END, entity_id`)
	if err != nil {
		return nil, fmt.Errorf("sensors: list mappings: %w", err)
	}
	return out, nil
}

// AddMapping maps an entity; a bad field is an apperr.Invalid with the
// field named (entity, member, kind).
func (s *Service) AddMapping(ctx context.Context, in MappingInput) (Mapping, error) {
	in.EntityID = strings.ToLower(strings.TrimSpace(in.EntityID))
	fields := map[string]string{}
	if in.EntityID == "" {
		fields["entity"] = "type or pick an entity id, like sensor.bathroom_scale_weight"
	} else if err := homeassistant.CheckEntityID(in.EntityID); err != nil {
		fields["entity"] = "not an entity id: like sensor.bathroom_scale_weight (lowercase, one dot)"
	}
	if !in.Kind.Valid() {
		fields["kind"] = "choose what the entity measures"
	}
	if in.MemberID == "" {
		fields["member"] = "choose a member"
	} else if _, err := s.db.Member(ctx, in.MemberID); apperr.Is(err, apperr.NotFound) {
		fields["member"] = "no such member"
	} else if err != nil {
		return Mapping{}, err
	}
	if len(fields) > 0 {
		return Mapping{}, apperr.FieldErrors(fields)
	}
	res, err := s.db.Write.ExecContext(ctx, `INSERT INTO sensor_mappings (entity_id, member_id, kind, created_at) VALUES (?,?,?,?)`,
		in.EntityID, in.MemberID, string(in.Kind), store.FormatTime(s.db.Now()))
	if store.IsUnique(err) {
		return Mapping{}, apperr.FieldErrors(map[string]string{"entity": fmt.Sprintf("%s is already mapped to %s as %s", in.EntityID, in.MemberID, in.Kind)})
	}
	if err != nil {
		return Mapping{}, fmt.Errorf("sensors: add mapping: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Mapping{}, fmt.Errorf("sensors: add mapping: %w", err)
	}
	return store.One(ctx, s.db.Read, scanMapping, `SELECT `+mappingCols+` FROM sensor_mappings WHERE id = ?`, id)
}

// RemoveMapping removes a mapping; what it imported stays.
func (s *Service) RemoveMapping(ctx context.Context, id int64) error {
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM sensor_mappings WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("sensors: remove mapping: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no sensor mapping %d", id)
	}
	return nil
}

// recordPoll stores a mapping's poll outcome, and its new cursor when the
// poll read something (cursor nil: unchanged).
func (s *Service) recordPoll(ctx context.Context, id int64, at time.Time, cursor *time.Time, added int, pollErr error) error {
	msg := sql.NullString{}
	if pollErr != nil {
		msg = sql.NullString{String: pollErr.Error(), Valid: true}
	}
	_, err := s.db.Write.ExecContext(ctx, `UPDATE sensor_mappings SET polled_at = ?, poll_added = ?, poll_error = ?,
		cursor_at = coalesce(?, cursor_at) WHERE id = ?`, store.FormatTime(at), added, msg, store.NullTime(cursor), id)
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("sensors: record poll of mapping %d: %w", id, err)
	}
	return err
}
