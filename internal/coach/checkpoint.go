package coach

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
)

// gatheredCheckpoint is Gathered as the daily-dashboard workflow stores it
// between its steps: the JSON the prompt and the input hash see, plus the
// fields that JSON leaves out. What can be derived again (the civil date,
// the rotation seed, the numbers the coach may quote, the menu by id, the
// eval's mutant) is derived on decode, the same way gather derives it.
type gatheredCheckpoint struct {
	Gathered json.RawMessage   `json:"gathered"`
	Now      time.Time         `json:"now"`
	StateID  int64             `json:"state_id"`
	Base     programCheckpoint `json:"base"`
	Program  programCheckpoint `json:"program"`
	LatestAt time.Time         `json:"prompts_latest_at"`
}

// programCheckpoint is a ProgramView with its unexported fields.
type programCheckpoint struct {
	View     ProgramView `json:"view"`
	StateID  int64       `json:"state_id"`
	DaySince time.Time   `json:"day_since"`
	// UpdatedAt is the marker a checkpoint stored before day_since held
	// (read only when DaySince is missing).
	UpdatedAt  time.Time     `json:"updated_at,omitzero"`
	AnchorDate string        `json:"anchor_date"`
	AnchorDay  int           `json:"anchor_day"`
	Days       []content.Day `json:"days"`
}

func programOut(v ProgramView) programCheckpoint {
	return programCheckpoint{View: v, StateID: v.stateID, DaySince: v.daySince, AnchorDate: v.anchorDate,
		AnchorDay: v.anchorDay, Days: v.days}
}

func (p programCheckpoint) in() ProgramView {
	v := p.View
	v.stateID, v.daySince, v.anchorDate, v.anchorDay, v.days = p.StateID, p.DaySince, p.AnchorDate, p.AnchorDay, p.Days
	if v.daySince.IsZero() {
		v.daySince = p.UpdatedAt
	}
	return v
}

var _ agent.GatheredCodec = (*DailyDashboard)(nil)

// EncodeGathered implements agent.GatheredCodec.
func (*DailyDashboard) EncodeGathered(gathered any) (json.RawMessage, error) {
	g, ok := gathered.(*Gathered)
	if !ok {
		return nil, errGathered
	}
	raw, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	return json.Marshal(gatheredCheckpoint{Gathered: raw, Now: g.now, StateID: g.stateID, Base: programOut(g.base),
		Program: programOut(g.Program), LatestAt: g.Prompts.latestAt})
}

// DecodeGathered implements agent.GatheredCodec: the same *Gathered the
// gather phase returned.
func (a *DailyDashboard) DecodeGathered(_ context.Context, raw json.RawMessage) (any, error) {
	var cp gatheredCheckpoint
	if err := json.Unmarshal(raw, &cp); err != nil {
		return nil, fmt.Errorf("coach: gathered checkpoint: %w", err)
	}
	g := &Gathered{}
	if err := json.Unmarshal(cp.Gathered, g); err != nil {
		return nil, fmt.Errorf("coach: gathered checkpoint: %w", err)
	}
	g.now, g.stateID, g.base, g.Program = cp.Now, cp.StateID, cp.Base.in(), cp.Program.in()
	g.Prompts.latestAt = cp.LatestAt
	g.civil, g.loc, g.mutant = civilDate(g.now, a.c.loc), a.c.loc, a.c.mutant
	g.seed = int(g.civil.Unix()/86400) + salt(g.Member.ID)
	g.byID = make(map[string]content.MenuEntry, len(g.Menu))
	for _, e := range g.Menu {
		g.byID[e.ID] = e
	}
	var err error
	if g.facts, err = collectNumbers(g); err != nil {
		return nil, err
	}
	return g, nil
}
