-- +goose Up
-- What each run's staged writes came to (applied, refused, discarded), for
-- the run view.
ALTER TABLE agent_runs ADD COLUMN effects TEXT NOT NULL DEFAULT '[]';

-- The ledger of effects a run applied: one row per (run, key), written in
-- the run's commit transaction, so an effect is never applied twice for a
-- run even if its commit is retried or its step resumed.
CREATE TABLE agent_run_effects (
    run_id     INTEGER NOT NULL,
    key        TEXT NOT NULL,
    tool       TEXT NOT NULL,
    outcome    TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
);

-- +goose Down
DROP TABLE agent_run_effects;
ALTER TABLE agent_runs DROP COLUMN effects;
