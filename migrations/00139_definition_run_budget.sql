-- +goose Up
-- A definition's per-run token budget and its model for the tool turns
-- (issue 36): 0 / '' take the household default and the main model.
ALTER TABLE agent_definitions ADD COLUMN tool_model TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_definitions ADD COLUMN budget_prompt_tokens INTEGER NOT NULL DEFAULT 0 CHECK (budget_prompt_tokens >= 0);
ALTER TABLE agent_definitions ADD COLUMN budget_completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (budget_completion_tokens >= 0);

-- The new columns are part of a version's content: append-only like the rest.
DROP TRIGGER agent_definitions_append_only;
-- +goose StatementBegin
CREATE TRIGGER agent_definitions_append_only
BEFORE UPDATE OF version_id, agent_id, version, system_prompt, user_template, model, temperature, max_tokens,
    max_iterations, max_retries, tool_ids, context_types, output_schema, validation_rules, sub_agents, hooks,
    tool_hooks, created_at, created_by, change_note, tool_model, budget_prompt_tokens, budget_completion_tokens ON agent_definitions
BEGIN
    SELECT RAISE(ABORT, 'agent_definitions is append-only: insert a new version');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER agent_definitions_append_only;
-- +goose StatementBegin
CREATE TRIGGER agent_definitions_append_only
BEFORE UPDATE OF version_id, agent_id, version, system_prompt, user_template, model, temperature, max_tokens,
    max_iterations, max_retries, tool_ids, context_types, output_schema, validation_rules, sub_agents, hooks,
    tool_hooks, created_at, created_by, change_note ON agent_definitions
BEGIN
    SELECT RAISE(ABORT, 'agent_definitions is append-only: insert a new version');
END;
-- +goose StatementEnd
ALTER TABLE agent_definitions DROP COLUMN budget_completion_tokens;
ALTER TABLE agent_definitions DROP COLUMN budget_prompt_tokens;
ALTER TABLE agent_definitions DROP COLUMN tool_model;
