-- +goose Up
-- A member's life plan (issue 40, the seed's "JOP" framework): a purpose,
-- ranked values, beliefs held as if/then hypotheses with evidence, goals
-- that move through guarded states with a kept history, and qualities to
-- cultivate. Private to the member: every row carries member_id, and
-- internal/lifeplan filters every query by it.

CREATE TABLE lifeplan_purposes (
    member_id   TEXT PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    statement   TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE lifeplan_values (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    rank        INTEGER NOT NULL CHECK (rank >= 1), -- 1 matters most
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
-- "Family" and "family" are one value.
CREATE UNIQUE INDEX lifeplan_values_name ON lifeplan_values (member_id, name COLLATE NOCASE);

CREATE TABLE lifeplan_beliefs (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    if_text     TEXT NOT NULL,
    then_text   TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'hypothesized'
                CHECK (state IN ('hypothesized', 'testing', 'confirmed', 'uncertain', 'refuted')),
    confidence  REAL NOT NULL DEFAULT 0.5 CHECK (confidence >= 0 AND confidence <= 1),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX lifeplan_beliefs_member ON lifeplan_beliefs (member_id, id);

-- A coach's or the data's note is a suggestion until the member accepts
-- it; the member's own notes are accepted as written.
CREATE TABLE lifeplan_evidence (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    belief_id   INTEGER NOT NULL REFERENCES lifeplan_beliefs(id) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('member', 'coach', 'data')),
    status      TEXT NOT NULL CHECK (status IN ('suggested', 'accepted', 'dismissed')),
    created_at  TEXT NOT NULL,
    decided_at  TEXT
);
CREATE INDEX lifeplan_evidence_belief ON lifeplan_evidence (belief_id, id);
CREATE INDEX lifeplan_evidence_member ON lifeplan_evidence (member_id, status);

CREATE TABLE lifeplan_goals (
    id              INTEGER PRIMARY KEY,
    member_id       TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    why             TEXT NOT NULL DEFAULT '',
    state           TEXT NOT NULL DEFAULT 'dream'
                    CHECK (state IN ('dream', 'considered', 'ready', 'committed', 'paused', 'achieved', 'failed', 'abandoned')),
    parent_id       INTEGER REFERENCES lifeplan_goals(id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX lifeplan_goals_member ON lifeplan_goals (member_id, id);

-- A Hearth fitness goal (goals) serving a life-plan goal: "run a 10k"
-- under "be healthy enough to hike with my kids". A fitness goal serves at
-- most one life-plan goal; a life-plan goal may have several. The service
-- checks both are the member's.
CREATE TABLE lifeplan_fitness_links (
    fitness_goal_id INTEGER PRIMARY KEY REFERENCES goals(id) ON DELETE CASCADE,
    member_id       TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    goal_id         INTEGER NOT NULL REFERENCES lifeplan_goals(id) ON DELETE CASCADE,
    linked_at       TEXT NOT NULL
);
CREATE INDEX lifeplan_fitness_links_goal ON lifeplan_fitness_links (goal_id);

-- Every state a goal took: its creation (from_state '') and each guarded
-- transition, with the reason given and who moved it.
CREATE TABLE lifeplan_goal_history (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    goal_id     INTEGER NOT NULL REFERENCES lifeplan_goals(id) ON DELETE CASCADE,
    from_state  TEXT NOT NULL,
    to_state    TEXT NOT NULL,
    reason      TEXT NOT NULL,
    at          TEXT NOT NULL,
    by          TEXT NOT NULL
);
CREATE INDEX lifeplan_goal_history_goal ON lifeplan_goal_history (goal_id, id);

CREATE TABLE lifeplan_qualities (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    why         TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX lifeplan_qualities_name ON lifeplan_qualities (member_id, name COLLATE NOCASE);

-- +goose Down
DROP TABLE lifeplan_qualities;
DROP TABLE lifeplan_goal_history;
DROP TABLE lifeplan_fitness_links;
DROP TABLE lifeplan_goals;
DROP TABLE lifeplan_evidence;
DROP TABLE lifeplan_beliefs;
DROP TABLE lifeplan_values;
DROP TABLE lifeplan_purposes;
