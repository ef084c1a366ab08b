-- +goose Up
-- The trace of a declarative definition's pipeline in a run (issue 26):
-- every agent that ran (sub-agents included), its attempts, output and
-- notes, and what its hooks did (what a send_message hook sent, a note a
-- log_note hook logged). NULL for runs no definition shaped.
ALTER TABLE agent_runs ADD COLUMN steps TEXT;

-- +goose Down
ALTER TABLE agent_runs DROP COLUMN steps;
