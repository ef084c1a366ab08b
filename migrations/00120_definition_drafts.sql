-- +goose Up
-- Drafts of agent definitions (issue 17, Admin → Evals): a version saved
-- with is_active = 0 and no deactivated_at is a draft: it can be evaluated
-- before anyone runs it. activated_at/by say when a version became active:
-- at its creation for a normal save, later for an activated draft; NULL
-- for a draft and for a discarded one (deactivated without ever being
-- active). The content columns stay append-only
-- (agent_definitions_append_only).
ALTER TABLE agent_definitions ADD COLUMN activated_at TEXT;
ALTER TABLE agent_definitions ADD COLUMN activated_by TEXT NOT NULL DEFAULT '';
-- Every version so far was saved active.
UPDATE agent_definitions SET activated_at = created_at, activated_by = created_by;

-- +goose Down
ALTER TABLE agent_definitions DROP COLUMN activated_by;
ALTER TABLE agent_definitions DROP COLUMN activated_at;
