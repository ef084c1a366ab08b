-- +goose Up
-- Changes an agent proposes to an outside system (the media curator's Plex
-- collections and labels, issue 38): staged by the run's tools, written
-- in the run's commit, shown in admin, applied only when an admin confirms.
CREATE TABLE proposals (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL,
    agent_id     TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- e.g. plex.collection, plex.label: which applier applies it
    summary      TEXT NOT NULL,            -- one line: what will change
    lines        TEXT NOT NULL DEFAULT '[]', -- JSON array of strings: the items it touches, for the preview
    payload      TEXT NOT NULL,            -- JSON: what the applier needs
    status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'applying', 'applied', 'failed', 'discarded')),
    result       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    decided_at   TEXT,
    decided_by   TEXT NOT NULL DEFAULT '',
    applied_at   TEXT
);
CREATE INDEX proposals_status ON proposals (status, id);
CREATE INDEX proposals_run ON proposals (run_id);

-- +goose Down
DROP TABLE proposals;
