-- +goose Up
-- Guardrails against scheduling loops (issue 26).
--
-- What started a run beyond its trigger: "task:<id>" for a scheduled task,
-- "todo:<id>" for a to-do the heartbeat took. The scheduling tools read it:
-- a run started by a task (or to-do) the coach created cannot create
-- another task without an admin's approval.
ALTER TABLE agent_runs ADD COLUMN origin TEXT NOT NULL DEFAULT '';

-- Every task the coach asked for, created or refused: the per-member daily
-- quota counts the created ones (and those staged in the asking run) (deleting a task does not give its place
-- back), and Admin → Schedules lists the refusals. task_id is not a
-- foreign key: the row outlives its task.
CREATE TABLE agent_task_requests (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    agent_id    TEXT NOT NULL,
    run_id      INTEGER,
    task_id     INTEGER,
    kind        TEXT NOT NULL,
    schedule    TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    -- staged (asked for in a run that has not committed, or never did),
    -- created (active), pending_approval, or refused
    outcome     TEXT NOT NULL CHECK (outcome IN ('staged','created','pending_approval','refused')),
    reason      TEXT NOT NULL DEFAULT '',
    at          TEXT NOT NULL
);
CREATE INDEX agent_task_requests_member ON agent_task_requests(member_id, at);
CREATE INDEX agent_task_requests_outcome ON agent_task_requests(outcome, at);

-- A note on a ledger row that is not its outcome's reason: a slot moved by
-- a clock change (a wall-clock time that did not exist, or occurred twice).
ALTER TABLE task_fires ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- The last run's outcome on the task, and what the run's record adds to it
-- (the run's failure, or why a run that "ran" fell back to the built-in
-- coach), so a task that fell back does not look like a plain success.
ALTER TABLE scheduled_tasks ADD COLUMN last_outcome TEXT NOT NULL DEFAULT '';
ALTER TABLE scheduled_tasks ADD COLUMN last_note TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE scheduled_tasks DROP COLUMN last_note;
ALTER TABLE scheduled_tasks DROP COLUMN last_outcome;
ALTER TABLE task_fires DROP COLUMN note;
DROP TABLE agent_task_requests;
ALTER TABLE agent_runs DROP COLUMN origin;
