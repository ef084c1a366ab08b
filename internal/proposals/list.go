package proposals

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/store"
)

// DefaultRecent is how many decided proposals List returns by default.
const DefaultRecent = 20

// Filter says how much List returns.
type Filter struct {
	// Recent caps the decided proposals (0: DefaultRecent).
	Recent int
}

// Group is one run's proposals: what the agent proposed in it, and when.
type Group struct {
	RunID   int64
	AgentID string
	At      time.Time
	Items   []Record
}

// Listing is what Admin → Curator shows.
type Listing struct {
	// Waiting are the proposals to decide (pending, and applying: being
	// applied now, or left so by a crash), newest run first.
	Waiting []Group
	// Decided are the most recently decided (applied, failed, discarded),
	// newest decision first.
	Decided []Group
}

// List returns the waiting proposals grouped by run, then the recent
// decided ones.
func (s *Service) List(ctx context.Context, f Filter) (Listing, error) {
	if f.Recent <= 0 {
		f.Recent = DefaultRecent
	}
	waiting, err := s.query(ctx, `WHERE status IN ('pending', 'applying') ORDER BY run_id DESC, id`)
	if err != nil {
		return Listing{}, err
	}
	decided, err := s.query(ctx, `WHERE status IN ('applied', 'failed', 'discarded')
		ORDER BY coalesce(applied_at, decided_at) DESC, id DESC LIMIT ?`, f.Recent)
	if err != nil {
		return Listing{}, err
	}
	return Listing{Waiting: byRun(waiting), Decided: byRun(decided)}, nil
}

func (s *Service) query(ctx context.Context, tail string, args ...any) ([]Record, error) {
	rs, err := store.All(ctx, s.db.Read, scanRecord, selectRecord+" "+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("proposals: list: %w", err)
	}
	return rs, nil
}

// byRun groups records by run, keeping the order of each run's first record.
func byRun(rs []Record) []Group {
	var out []Group
	at := map[int64]int{}
	for _, r := range rs {
		i, ok := at[r.RunID]
		if !ok {
			i = len(out)
			at[r.RunID] = i
			out = append(out, Group{RunID: r.RunID, AgentID: r.AgentID, At: r.CreatedAt})
		}
		out[i].Items = append(out[i].Items, r)
	}
	return out
}
