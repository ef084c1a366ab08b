-- +goose Up
-- The run's prompts counted offline by part (internal/agent/llm/tokens,
-- o200k_base), one entry per request sent: system, tools, schema, facts,
-- memory, history. Next to tokens_in/tokens_out (the server's usage), which
-- stay as they are: a local server may count differently or not at all.
ALTER TABLE agent_runs ADD COLUMN prompt_tokens TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE agent_runs DROP COLUMN prompt_tokens;
