package definition

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/store"
	textgate "hearth/internal/text"
)

// DefaultCacheTTL bounds how long a cached current definition is trusted
// when it was changed behind the Repo's back (by hand in SQLite); writes
// through the Repo invalidate the cache at once.
const DefaultCacheTTL = 5 * time.Minute

// Repo stores definitions append-only in agent_definitions, validates them
// against a Registry on save and caches each agent's current version.
type Repo struct {
	db  *store.DB
	reg Registry
	now func() time.Time
	ttl time.Duration

	mu    sync.Mutex
	gen   uint64
	cache map[string]cached
}

// current is a current version with its compiled output schema.
type current struct {
	Version
	schema *agent.Schema
}

type cached struct {
	cur *current
	at  time.Time
}

// NewRepo returns a repository over db that validates against reg.
func NewRepo(db *store.DB, reg Registry) *Repo {
	return &Repo{db: db, reg: reg, now: db.Now, ttl: DefaultCacheTTL, cache: map[string]cached{}}
}

// Registry returns what definitions are validated and resolved against.
func (r *Repo) Registry() Registry { return r.reg }

// Active returns the agent's current version (its newest active one);
// NotFound if it has none.
func (r *Repo) Active(ctx context.Context, agentID string) (Version, error) {
	c, err := r.current(ctx, agentID)
	if err != nil {
		return Version{}, err
	}
	return c.clone()
}

// clone deep-copies the cached version so callers cannot change the cache.
func (c *current) clone() (Version, error) {
	v := c.Version
	b, err := json.Marshal(c.Definition)
	if err != nil {
		return Version{}, fmt.Errorf("definition: copy %s: %w", c.AgentID, err)
	}
	v.Definition = Definition{}
	if err := json.Unmarshal(b, &v.Definition); err != nil {
		return Version{}, fmt.Errorf("definition: copy %s: %w", c.AgentID, err)
	}
	v.Normalize()
	return v, nil
}

// current returns the cached current version, loading it on a miss.
func (r *Repo) current(ctx context.Context, agentID string) (*current, error) {
	r.mu.Lock()
	e, ok := r.cache[agentID]
	gen := r.gen
	r.mu.Unlock()
	if ok && time.Since(e.at) < r.ttl {
		return e.cur, nil
	}
	v, err := scanVersion(r.db.Read.QueryRowContext(ctx, `SELECT `+versionColumns+` FROM agent_definitions
		WHERE agent_id = ? AND is_active = 1 ORDER BY version DESC LIMIT 1`, agentID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.NotFoundf("agent %q has no active definition", agentID)
	}
	if err != nil {
		return nil, err
	}
	c := &current{Version: v}
	if v.OutputSchema != nil {
		if c.schema, err = agent.CompileSchema("definition-"+agentID, v.OutputSchema); err != nil {
			return nil, apperr.Invalidf("agent %q version %d: the output schema does not compile: %s", agentID, v.Number, oneLine(err))
		}
	}
	r.mu.Lock()
	if r.gen == gen {
		r.cache[agentID] = cached{cur: c, at: time.Now()}
	}
	r.mu.Unlock()
	return c, nil
}

// invalidate drops cached versions; loads that started before it are not cached.
func (r *Repo) invalidate() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	clear(r.cache)
}

// Check validates d as Save would, without saving it.
func (r *Repo) Check(ctx context.Context, d Definition) error {
	if err := prepare(&d); err != nil {
		return err
	}
	r.reg.normalizeNames(&d)
	g, err := r.graph(ctx, r.db.Read, d.AgentID)
	if err != nil {
		return err
	}
	return r.reg.validate(&d, g)
}

// Save validates d and inserts it as the agent's next version, which
// becomes current. An invalid definition is an apperr.Invalid naming each
// bad field (Fields keys are the JSON field names) and nothing is written.
func (r *Repo) Save(ctx context.Context, d Definition, by, note string) (Version, error) {
	v, _, err := r.insert(ctx, d, by, note, false, true)
	return v, err
}

// insert validates and inserts d, active or as a draft; with onlyFirst it
// inserts nothing (and reports false) when the agent already has a version.
func (r *Repo) insert(ctx context.Context, d Definition, by, note string, onlyFirst, active bool) (Version, bool, error) {
	if err := prepare(&d); err != nil {
		return Version{}, false, err
	}
	r.reg.normalizeNames(&d)
	errs := map[string]string{}
	if note = textgate.Field(errs, "change_note", textgate.Multi, note, 500); len(errs) > 0 {
		return Version{}, false, apperr.FieldErrors(errs)
	}
	var v Version
	inserted := false
	err := r.db.Tx(ctx, func(tx *store.Tx) error {
		var err error
		v, inserted, err = r.insertTx(ctx, tx, d, by, note, onlyFirst, active)
		return err
	})
	if err != nil {
		return Version{}, false, err
	}
	if inserted {
		r.invalidate()
	}
	return v, inserted, nil
}

// insertTx is insert's transaction (d prepared, note checked).
func (r *Repo) insertTx(ctx context.Context, tx *store.Tx, d Definition, by, note string, onlyFirst, active bool) (Version, bool, error) {
	var last int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM agent_definitions WHERE agent_id = ?`,
		d.AgentID).Scan(&last); err != nil {
		return Version{}, false, fmt.Errorf("definition: next version: %w", err)
	}
	if onlyFirst && last > 0 {
		return Version{}, false, nil
	}
	g, err := r.graph(ctx, tx, d.AgentID)
	if err != nil {
		return Version{}, false, err
	}
	if err := r.reg.validate(&d, g); err != nil {
		return Version{}, false, err
	}
	v := Version{Definition: d, Number: last + 1, Active: active,
		CreatedAt: r.now().UTC().Truncate(time.Millisecond), CreatedBy: by, ChangeNote: note}
	if v.ID, err = insertVersion(ctx, tx, &v); err != nil {
		return Version{}, false, err
	}
	v.setState()
	return v, true, nil
}

// prepare normalizes d and turns Go-typed input mappings into JSON shapes.
func prepare(d *Definition) error {
	d.Normalize()
	for i := range d.SubAgents {
		in, err := jsonValue(d.SubAgents[i].Input)
		if err != nil {
			return apperr.FieldErrors(map[string]string{"sub_agents": "input mapping is not JSON: " + err.Error()})
		}
		d.SubAgents[i].Input = in
	}
	if d.OutputSchema != nil {
		s, err := jsonValue(d.OutputSchema)
		m, ok := s.(map[string]any)
		if err != nil || !ok {
			return apperr.FieldErrors(map[string]string{"output_schema": "must be a JSON object"})
		}
		d.OutputSchema = m
	}
	return nil
}

// Rollback deactivates the agent's current version, so the previous active
// version becomes current, and returns that one. Conflict when there is
// nothing to roll back to, or when the previous version lacks what the
// agent's assignments need (Registry.Needs).
func (r *Repo) Rollback(ctx context.Context, agentID, by string) (Version, error) {
	var prev Version
	err := r.db.Tx(ctx, func(tx *store.Tx) error {
		active, err := store.All(ctx, tx, scanVersion, `SELECT `+versionColumns+` FROM agent_definitions
			WHERE agent_id = ? AND is_active = 1 ORDER BY version DESC LIMIT 2`, agentID)
		if err != nil {
			return fmt.Errorf("definition: rollback %s: %w", agentID, err)
		}
		switch len(active) {
		case 0:
			return apperr.NotFoundf("agent %q has no active definition", agentID)
		case 1:
			return apperr.New(apperr.Conflict, "version %d is the only active version of %q: there is nothing to roll back to", active[0].Number, agentID)
		}
		// What a save may not remove, a rollback may not either (a version
		// saved before the need was declared may lack it).
		if needs := r.reg.Needs[agentID]; needs != nil {
			if missing := needs(active[1].Definition); len(missing) > 0 {
				return apperr.New(apperr.Conflict, "version %d of %q cannot become current again: %s", active[1].Number, agentID, missing[0].Message)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE agent_definitions SET is_active = 0, deactivated_at = ?, deactivated_by = ?
			WHERE version_id = ?`, store.FormatTime(r.now()), by, active[0].ID)
		if err != nil {
			return fmt.Errorf("definition: rollback %s: %w", agentID, err)
		}
		prev = active[1]
		return nil
	})
	if err != nil {
		return Version{}, err
	}
	r.invalidate()
	return prev, nil
}

// graph loads the other agents' current sub-agent lists and the keys their
// object input mappings give agentID.
func (r *Repo) graph(ctx context.Context, q store.Queryer, agentID string) (graph, error) {
	all, err := store.All(ctx, q, scanVersion, `SELECT `+versionColumns+` FROM agent_definitions d
		WHERE is_active = 1 AND version = (SELECT MAX(version) FROM agent_definitions
			WHERE agent_id = d.agent_id AND is_active = 1)`)
	if err != nil {
		return graph{}, fmt.Errorf("definition: load graph: %w", err)
	}
	g := graph{subs: map[string][]string{}}
	for _, v := range all {
		if v.AgentID == agentID {
			continue
		}
		g.subs[v.AgentID] = subAgentIDs(&v.Definition)
		for _, s := range v.SubAgents {
			if s.AgentID == agentID {
				g.parentKeys = append(g.parentKeys, mappingKeys(s.Input)...)
			}
		}
	}
	return g, nil
}

// EnsureSeeded inserts def as version 1 of its agent when the agent has no
// version at all (active or not), validated like any save, and reports
// whether it did. Later starts leave the admin's versions alone.
func EnsureSeeded(ctx context.Context, repo *Repo, def Definition) (bool, error) {
	_, created, err := repo.insert(ctx, def, "system", "seeded from the code defaults", true, true)
	return created, err
}
