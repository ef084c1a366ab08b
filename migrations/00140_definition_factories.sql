-- +goose Up
-- A definition lists tool factories by name as well as single tools
-- (issue 37): "factories": ["homeassistant"] gives the agent every tool of
-- the Home Assistant factory.
ALTER TABLE agent_definitions ADD COLUMN factories TEXT NOT NULL DEFAULT '[]';

-- The new column is part of a version's content: append-only like the rest.
DROP TRIGGER agent_definitions_append_only;
-- +goose StatementBegin
CREATE TRIGGER agent_definitions_append_only
BEFORE UPDATE OF version_id, agent_id, version, system_prompt, user_template, model, temperature, max_tokens,
    max_iterations, max_retries, tool_ids, context_types, output_schema, validation_rules, sub_agents, hooks,
    tool_hooks, created_at, created_by, change_note, tool_model, budget_prompt_tokens, budget_completion_tokens,
    factories ON agent_definitions
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
    tool_hooks, created_at, created_by, change_note, tool_model, budget_prompt_tokens, budget_completion_tokens ON agent_definitions
BEGIN
    SELECT RAISE(ABORT, 'agent_definitions is append-only: insert a new version');
END;
-- +goose StatementEnd
ALTER TABLE agent_definitions DROP COLUMN factories;
