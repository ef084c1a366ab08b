// Package proposals keeps the changes agents propose to outside systems
// (a Plex collection, a label on twelve items) until an admin confirms
// them. A tool never writes to the outside system: it stages a Proposal
// (Stage), which the run writes in its commit, so a run that falls back
// or fails proposes nothing. Admin → Curator shows the pending proposals
// as what will change; Confirm applies one through the Applier registered
// for its kind, once: a repeated confirmation does not apply it again.
package proposals

import (
	"context"
	"encoding/json"
	"fmt"

	"hearth/internal/agent"
	"hearth/internal/store"
)

// Proposal is one change an agent proposes.
type Proposal struct {
	// Kind names the Applier that applies it ("plex.collection").
	Kind string `json:"kind"`
	// Summary says in one line what will change ("Collection “Warm-ups”
	// gets 4 items").
	Summary string `json:"summary"`
	// Lines list what it touches, for the preview (the items' titles).
	Lines []string `json:"lines"`
	// Payload is what the Applier needs (JSON-marshalable).
	Payload any `json:"payload"`
}

// Applier applies one confirmed proposal's payload to the outside system
// and says what it did. It must be idempotent: a confirmation retried
// after a crash applies the payload again. Its result and its error's
// text are recorded and shown in Admin → Curator: neither may hold a
// token or other secret.
type Applier func(ctx context.Context, payload json.RawMessage) (result string, err error)

// Stage stages p in the run of scope: it is written in the run's commit,
// and only if the run's output is accepted.
func Stage(scope agent.Scope, p Proposal) error {
	if p.Kind == "" || p.Summary == "" {
		return fmt.Errorf("proposals: a proposal needs a kind and a summary")
	}
	payload, err := json.Marshal(p.Payload)
	if err != nil {
		return fmt.Errorf("proposals: encode %s: %w", p.Kind, err)
	}
	if p.Lines == nil {
		p.Lines = []string{}
	}
	lines, err := json.Marshal(p.Lines)
	if err != nil {
		return fmt.Errorf("proposals: encode lines: %w", err)
	}
	runID, agentID, now := scope.RunID, scope.AgentID, scope.Now
	return scope.Stage(func(ctx context.Context, tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO proposals (run_id, agent_id, kind, summary, lines, payload, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, runID, agentID, p.Kind, p.Summary, string(lines), string(payload), store.FormatTime(now))
		if err != nil {
			return fmt.Errorf("proposals: stage %s: %w", p.Kind, err)
		}
		return nil
	})
}
