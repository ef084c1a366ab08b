-- +goose Up
-- Talos (issue 39): the kiosk assistant that acts on Home Assistant and
-- Plex through a policy per member role.
-- A member's role decides what Talos may do for them: adult, child or
-- guest (a screen's anonymous user is a guest too). Existing members are
-- adults, as they were treated before roles existed.
ALTER TABLE members ADD COLUMN role TEXT NOT NULL DEFAULT 'adult' CHECK (role IN ('adult', 'child', 'guest'));

-- The household's policies, one row per name ("talos"): the JSON an admin
-- saved (validated on save); no row means the built-in default.
CREATE TABLE policies (
    name        TEXT PRIMARY KEY,
    body        TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    updated_by  TEXT NOT NULL DEFAULT ''
);

-- Every call the policy decided that matters: each action (allowed,
-- denied, waiting for an adult, confirmed, refused, timed out) and each
-- denied read, with the rule that decided it.
CREATE TABLE policy_decisions (
    id           INTEGER PRIMARY KEY,
    at           TEXT NOT NULL,
    policy       TEXT NOT NULL DEFAULT 'talos',
    member_id    TEXT NOT NULL DEFAULT '',   -- who asked ('' = a screen's guest)
    role         TEXT NOT NULL,
    tool         TEXT NOT NULL,
    target       TEXT NOT NULL DEFAULT '',   -- the entity or player acted on
    action       TEXT NOT NULL DEFAULT '',   -- what it would do, in words
    args         TEXT NOT NULL DEFAULT '{}',
    outcome      TEXT NOT NULL CHECK (outcome IN ('allowed', 'denied', 'waiting', 'confirmed', 'refused', 'timed_out')),
    rule         TEXT NOT NULL,
    reason       TEXT NOT NULL DEFAULT '',
    run_id       INTEGER,                    -- the agent run that asked
    workflow_run INTEGER,                    -- the confirmation's workflow run (waiting ones)
    expires_at   TEXT,                       -- a waiting one is refused after this
    decided_by   TEXT NOT NULL DEFAULT '',   -- the adult who confirmed or refused
    decided_at   TEXT,
    result       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX policy_decisions_at ON policy_decisions (at DESC, id DESC);
CREATE INDEX policy_decisions_member ON policy_decisions (member_id, at);
CREATE INDEX policy_decisions_waiting ON policy_decisions (outcome, expires_at) WHERE outcome = 'waiting';

-- +goose Down
DROP TABLE policy_decisions;
DROP TABLE policies;
ALTER TABLE members DROP COLUMN role;
