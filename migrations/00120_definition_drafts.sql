-- +goose Up
-- Drafts of agent definitions (issue 17, Admin → Evals): a version saved
-- with is_active = 0 and no deactivated_at is a draft: it can be evaluated
-- before anyone runs it. Activating a draft sets is_active in place and
-- records who and when here; versions active from the start leave these
-- empty. Discarding a draft deactivates it like a rollback. The content
-- columns stay append-only (agent_definitions_append_only).
ALTER TABLE agent_definitions ADD COLUMN activated_at TEXT;
ALTER TABLE agent_definitions ADD COLUMN activated_by TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE agent_definitions DROP COLUMN activated_by;
ALTER TABLE agent_definitions DROP COLUMN activated_at;
