package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Effect is a write a tool asks for while the model reasons (schedule a
// follow-up, remember a fact, log a note). It does not happen when the tool
// runs: the tool stages it (Scope.Stage) and the run applies it in its
// commit transaction, once, and only if the output the model reasoned
// towards was accepted. A run that fell back, failed or was interrupted
// applies none of them, so a model that keeps failing validation cannot
// pile up duplicate tasks or memory writes.
type Effect func(ctx context.Context, tx *store.Tx) error

// Effect outcomes recorded in Run.Effects.
const (
	EffectApplied        = "applied"
	EffectAlreadyApplied = "already_applied"
	EffectRefused        = "refused"   // the domain said no at commit time (a limit reached meanwhile)
	EffectDiscarded      = "discarded" // the run's output was not the model's
)

// EffectOutcome is what became of one staged effect.
type EffectOutcome struct {
	Key     string `json:"key"`
	Tool    string `json:"tool"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

// Refusal is an effect's refusal that leaves a trace: Apply rolls the
// effect back to its savepoint, then runs Record in the same transaction
// (marking a reservation refused, say), so what the refusal undid does not
// take the record with it. Err is the domain's refusal (an apperr other
// than Internal).
type Refusal struct {
	Err    error
	Record Effect
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

type stagedEffect struct {
	key, tool string
	apply     Effect
}

// Stager collects a run's staged effects in call order. The key of an
// effect is its tool and canonical arguments, so the same call made again
// (in a retry after invalid output, say) stages nothing new. Safe for
// concurrent use (sub-agents call tools in parallel).
type Stager struct {
	mu      sync.Mutex
	effects []stagedEffect
	seen    map[string]bool
}

// NewStager returns an empty stager (tests of tool packages use one with
// Scope.WithStager and apply it with Stager.Apply in a transaction).
func NewStager() *Stager { return &Stager{seen: map[string]bool{}} }

// Len reports how many effects are staged.
func (st *Stager) Len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.effects)
}

func (st *Stager) add(key, tool string, e Effect) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if key == "" { // staged outside a tool call (a hook): never deduplicated
		key = "direct:" + strconv.Itoa(len(st.effects)+1)
	}
	if st.seen[key] {
		return
	}
	st.seen[key] = true
	st.effects = append(st.effects, stagedEffect{key: key, tool: tool, apply: e})
}

// take returns the staged effects and empties the stager.
func (st *Stager) take() []stagedEffect {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := st.effects
	st.effects, st.seen = nil, map[string]bool{}
	return out
}

// discard empties the stager and says why each effect was dropped.
func (st *Stager) discard(reason string) []EffectOutcome {
	var out []EffectOutcome
	for _, e := range st.take() {
		out = append(out, EffectOutcome{Key: e.key, Tool: e.tool, Outcome: EffectDiscarded, Reason: reason})
	}
	return out
}

// Apply runs the staged effects in tx, in the order they were staged, and
// empties the stager. With a run id each (run, key) is recorded in the
// agent_run_effects ledger and an effect already recorded is skipped. An
// effect the domain refuses (an apperr other than Internal: a limit
// reached since the tool ran) is rolled back to its savepoint, its
// Refusal.Record (if any) run, and reported as refused; any other error
// fails the transaction.
func (st *Stager) Apply(ctx context.Context, tx *store.Tx, runID int64, now string) ([]EffectOutcome, error) {
	var out []EffectOutcome
	for _, e := range st.take() {
		o := EffectOutcome{Key: e.key, Tool: e.tool, Outcome: EffectApplied}
		if runID != 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO agent_run_effects (run_id, key, tool, outcome, applied_at)
				VALUES (?, ?, ?, 'applied', ?) ON CONFLICT DO NOTHING`, runID, e.key, e.tool, now)
			if err != nil {
				return out, fmt.Errorf("agent: effect ledger: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				o.Outcome = EffectAlreadyApplied
				out = append(out, o)
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT effect`); err != nil {
			return out, fmt.Errorf("agent: effect savepoint: %w", err)
		}
		if err := e.apply(ctx, tx); err != nil {
			ae := apperr.As(err)
			if ae == nil || ae.Code == apperr.Internal {
				return out, fmt.Errorf("agent: apply %s: %w", e.tool, err)
			}
			if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO effect`); rerr != nil {
				return out, fmt.Errorf("agent: effect rollback: %w", rerr)
			}
			var rf *Refusal
			if errors.As(err, &rf) && rf.Record != nil {
				if rerr := rf.Record(ctx, tx); rerr != nil {
					return out, fmt.Errorf("agent: record refusal of %s: %w", e.tool, rerr)
				}
			}
			o.Outcome, o.Reason = EffectRefused, ae.Message
			if runID != 0 {
				if _, err := tx.ExecContext(ctx, `UPDATE agent_run_effects SET outcome = ? WHERE run_id = ? AND key = ?`,
					EffectRefused+": "+ae.Message, runID, e.key); err != nil {
					return out, fmt.Errorf("agent: effect ledger: %w", err)
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE effect`); err != nil {
			return out, fmt.Errorf("agent: effect savepoint: %w", err)
		}
		out = append(out, o)
	}
	return out, nil
}

// toolCall identifies one tool call for staging: its effects' keys derive
// from the tool and its canonical arguments.
type toolCall struct {
	tool, key string
	mu        sync.Mutex
	n         int
}

func newToolCall(tool string, args json.RawMessage) *toolCall {
	canon := []byte(args)
	var v any
	if json.Unmarshal(args, &v) == nil {
		if b, err := json.Marshal(v); err == nil { // maps marshal with sorted keys
			canon = b
		}
	}
	sum := sha256.Sum256(canon)
	return &toolCall{tool: tool, key: tool + ":" + hex.EncodeToString(sum[:8])}
}

// next is the key of the call's next effect (a call may stage several).
func (c *toolCall) next() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.n == 1 {
		return c.key
	}
	return c.key + "#" + strconv.Itoa(c.n)
}

// errNoStager refuses a write outside a run.
var errNoStager = errors.New("this tool writes, and writes happen only as part of an agent run")

// Stage asks for e to be applied when the run commits (see Effect). Write
// tools call it instead of writing; outside a run (no stager) it is an
// error the tool reports.
func (s Scope) Stage(e Effect) error {
	if s.stager == nil {
		return errNoStager
	}
	tool, key := "", ""
	if s.call != nil {
		tool, key = s.call.tool, s.call.next()
	}
	s.stager.add(key, tool, e)
	return nil
}

// WithStager returns s staging its writes in st.
func (s Scope) WithStager(st *Stager) Scope {
	s.stager = st
	return s
}
