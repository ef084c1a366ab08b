package definition

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

const versionColumns = `version_id, agent_id, version, system_prompt, user_template, model, temperature, max_tokens,
	max_iterations, max_retries, tool_ids, context_types, output_schema, validation_rules, sub_agents, hooks,
	tool_hooks, is_active, created_at, created_by, change_note, deactivated_at, deactivated_by, activated_at, activated_by,
	tool_model, budget_prompt_tokens, budget_completion_tokens, factories`

func insertVersion(ctx context.Context, q store.Queryer, v *Version) (int64, error) {
	// A version saved active became active when it was saved.
	var activated sql.NullString
	activatedBy := ""
	if v.Active {
		at := v.CreatedAt
		v.ActivatedAt, v.ActivatedBy = &at, v.CreatedBy
		activated, activatedBy = sql.NullString{String: store.FormatTime(at), Valid: true}, v.CreatedBy
	}
	js := func(x any) (string, error) {
		b, err := json.Marshal(x)
		return string(b), err
	}
	var cols [7]string
	for i, x := range []any{v.ToolIDs, v.ContextTypes, v.ValidationRules, v.SubAgents, v.Hooks, v.ToolHooks, v.Factories} {
		s, err := js(x)
		if err != nil {
			return 0, fmt.Errorf("definition: encode %s: %w", v.AgentID, err)
		}
		cols[i] = s
	}
	var schema sql.NullString
	if v.OutputSchema != nil {
		s, err := js(v.OutputSchema)
		if err != nil {
			return 0, fmt.Errorf("definition: encode %s schema: %w", v.AgentID, err)
		}
		schema = sql.NullString{String: s, Valid: true}
	}
	res, err := q.ExecContext(ctx, `INSERT INTO agent_definitions (agent_id, version, system_prompt, user_template,
		model, temperature, max_tokens, max_iterations, max_retries, tool_ids, context_types, output_schema,
		validation_rules, sub_agents, hooks, tool_hooks, is_active, created_at, created_by, change_note, activated_at, activated_by,
		tool_model, budget_prompt_tokens, budget_completion_tokens, factories)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.AgentID, v.Number, v.SystemPrompt, v.UserTemplate, v.Model, store.NullFloat(v.Temperature), v.MaxTokens,
		v.MaxIterations, v.MaxRetries, cols[0], cols[1], schema, cols[2], cols[3], cols[4], cols[5], v.Active,
		store.FormatTime(v.CreatedAt), v.CreatedBy, v.ChangeNote, activated, activatedBy,
		v.ToolModel, v.BudgetPromptTokens, v.BudgetCompletionTokens, cols[6])
	if err != nil {
		return 0, fmt.Errorf("definition: insert %s: %w", v.AgentID, err)
	}
	return res.LastInsertId()
}

func scanVersion(row store.Scanner) (Version, error) {
	var v Version
	var temp sql.NullFloat64
	var tools, contexts, rules, subs, hooks, toolHooks, factories, created string
	var schema, deactivated, activated sql.NullString
	var active int
	err := row.Scan(&v.ID, &v.AgentID, &v.Number, &v.SystemPrompt, &v.UserTemplate, &v.Model, &temp, &v.MaxTokens,
		&v.MaxIterations, &v.MaxRetries, &tools, &contexts, &schema, &rules, &subs, &hooks, &toolHooks, &active,
		&created, &v.CreatedBy, &v.ChangeNote, &deactivated, &v.DeactivatedBy, &activated, &v.ActivatedBy,
		&v.ToolModel, &v.BudgetPromptTokens, &v.BudgetCompletionTokens, &factories)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return v, err
		}
		return v, fmt.Errorf("definition: scan: %w", err)
	}
	v.Temperature = store.FloatPtr(temp)
	v.Active = active == 1
	for _, f := range []struct {
		src string
		dst any
	}{{tools, &v.ToolIDs}, {contexts, &v.ContextTypes}, {rules, &v.ValidationRules}, {subs, &v.SubAgents},
		{hooks, &v.Hooks}, {toolHooks, &v.ToolHooks}, {factories, &v.Factories}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return v, fmt.Errorf("definition: %s version %d: %w", v.AgentID, v.Number, err)
		}
	}
	if schema.Valid {
		if err := json.Unmarshal([]byte(schema.String), &v.OutputSchema); err != nil {
			return v, fmt.Errorf("definition: %s version %d schema: %w", v.AgentID, v.Number, err)
		}
	}
	if v.CreatedAt, err = store.ParseTime(created); err != nil {
		return v, err
	}
	if v.DeactivatedAt, err = store.ParseNullTime(deactivated); err != nil {
		return v, err
	}
	if v.ActivatedAt, err = store.ParseNullTime(activated); err != nil {
		return v, err
	}
	v.setState()
	v.Normalize()
	return v, nil
}

// Version returns version number of an agent (active or not); NotFound if
// there is none.
func (r *Repo) Version(ctx context.Context, agentID string, number int) (Version, error) {
	v, err := scanVersion(r.db.Read.QueryRowContext(ctx, `SELECT `+versionColumns+` FROM agent_definitions
		WHERE agent_id = ? AND version = ?`, agentID, number))
	if errors.Is(err, sql.ErrNoRows) {
		return Version{}, apperr.NotFoundf("agent %q has no version %d", agentID, number)
	}
	return v, err
}

// History returns every version of an agent, newest first; NotFound if the
// agent has none.
func (r *Repo) History(ctx context.Context, agentID string) ([]Version, error) {
	out, err := store.All(ctx, r.db.Read, scanVersion, `SELECT `+versionColumns+` FROM agent_definitions
		WHERE agent_id = ? ORDER BY version DESC`, agentID)
	if err != nil {
		return nil, fmt.Errorf("definition: history %s: %w", agentID, err)
	}
	if len(out) == 0 {
		return nil, apperr.NotFoundf("no agent %q", agentID)
	}
	return out, nil
}

// List summarizes every agent with a definition, by agent id. UpdatedAt and
// UpdatedBy are the latest save or rollback.
func (r *Repo) List(ctx context.Context) ([]Summary, error) {
	rows, err := store.All(ctx, r.db.Read, scanVersionRow, `SELECT agent_id, version, model, is_active, created_at,
		created_by, deactivated_at, deactivated_by, activated_at, activated_by FROM agent_definitions ORDER BY agent_id, version`)
	if err != nil {
		return nil, fmt.Errorf("definition: list: %w", err)
	}
	out := []Summary{}
	for _, v := range rows {
		if len(out) == 0 || out[len(out)-1].AgentID != v.AgentID {
			out = append(out, Summary{AgentID: v.AgentID})
		}
		s := &out[len(out)-1]
		s.Versions++
		if v.Active {
			s.Version, s.Model = v.Number, v.Model
		}
		if v.Draft {
			s.Drafts++
		}
		if v.ActivatedAt != nil && v.ActivatedAt.After(v.CreatedAt) && !v.ActivatedAt.Before(s.UpdatedAt) {
			s.UpdatedAt, s.UpdatedBy = *v.ActivatedAt, v.ActivatedBy
		}
		if !v.CreatedAt.Before(s.UpdatedAt) {
			s.UpdatedAt, s.UpdatedBy = v.CreatedAt, v.CreatedBy
		}
		if v.DeactivatedAt != nil && !v.DeactivatedAt.Before(s.UpdatedAt) {
			s.UpdatedAt, s.UpdatedBy = *v.DeactivatedAt, v.DeactivatedBy
		}
	}
	return out, nil
}

// scanVersionRow reads the bookkeeping of a version, for List.
func scanVersionRow(row store.Scanner) (Version, error) {
	var v Version
	var created string
	var de, act sql.NullString
	if err := row.Scan(&v.AgentID, &v.Number, &v.Model, &v.Active, &created, &v.CreatedBy, &de, &v.DeactivatedBy,
		&act, &v.ActivatedBy); err != nil {
		return v, err
	}
	var err error
	if v.CreatedAt, err = store.ParseTime(created); err != nil {
		return v, err
	}
	if v.DeactivatedAt, err = store.ParseNullTime(de); err != nil {
		return v, err
	}
	v.ActivatedAt, err = store.ParseNullTime(act)
	v.setState()
	return v, err
}

// setState derives Draft and Discarded from the stored flags.
func (v *Version) setState() {
	v.Draft = !v.Active && v.DeactivatedAt == nil
	v.Discarded = !v.Active && v.DeactivatedAt != nil && v.ActivatedAt == nil
}
