-- +goose Up
-- Conversations (internal/agent): a message is text, a tool call or a
-- tool's result (with the tool's name and arguments), and earlier text
-- messages are found again by full-text search: SQLite FTS5, which the
-- go-sqlite3 build tag sqlite_fts5 compiles in (every make target sets it).
-- SQLite cannot change a CHECK, so agent_messages is rebuilt; no table
-- refers to it, so nothing else changes.

CREATE TABLE agent_messages_new (
    id           INTEGER PRIMARY KEY,
    thread_id    INTEGER NOT NULL REFERENCES agent_threads(id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('user','assistant','tool')),
    type         TEXT NOT NULL DEFAULT 'text' CHECK (type IN ('text','tool-call','tool-result')),
    content      TEXT NOT NULL,
    tool_name    TEXT NOT NULL DEFAULT '',
    tool_args    TEXT,
    tool_call_id TEXT NOT NULL DEFAULT '',
    run_id       INTEGER REFERENCES agent_runs(id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL
);
INSERT INTO agent_messages_new (id, thread_id, role, content, run_id, created_at)
    SELECT id, thread_id, role, content, run_id, created_at FROM agent_messages;
DROP TABLE agent_messages;
ALTER TABLE agent_messages_new RENAME TO agent_messages;
CREATE INDEX agent_messages_thread ON agent_messages(thread_id, id);

-- The index holds text messages only; the triggers keep it in step (the
-- 'delete' command needs the old values exactly as indexed).
CREATE VIRTUAL TABLE agent_messages_fts USING fts5(
    content,
    content = 'agent_messages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- +goose StatementBegin
CREATE TRIGGER agent_messages_fts_ai AFTER INSERT ON agent_messages WHEN new.type = 'text' BEGIN
    INSERT INTO agent_messages_fts(rowid, content) VALUES (new.id, new.content);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER agent_messages_fts_ad AFTER DELETE ON agent_messages WHEN old.type = 'text' BEGIN
    INSERT INTO agent_messages_fts(agent_messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER agent_messages_fts_au AFTER UPDATE ON agent_messages BEGIN
    INSERT INTO agent_messages_fts(agent_messages_fts, rowid, content)
        SELECT 'delete', old.id, old.content WHERE old.type = 'text';
    INSERT INTO agent_messages_fts(rowid, content)
        SELECT new.id, new.content WHERE new.type = 'text';
END;
-- +goose StatementEnd
INSERT INTO agent_messages_fts(rowid, content) SELECT id, content FROM agent_messages WHERE type = 'text';

-- +goose Down
DROP TABLE agent_messages_fts;
CREATE TABLE agent_messages_old (
    id         INTEGER PRIMARY KEY,
    thread_id  INTEGER NOT NULL REFERENCES agent_threads(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('user','assistant')),
    content    TEXT NOT NULL,
    run_id     INTEGER REFERENCES agent_runs(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
INSERT INTO agent_messages_old (id, thread_id, role, content, run_id, created_at)
    SELECT id, thread_id, role, content, run_id, created_at FROM agent_messages WHERE type = 'text';
DROP TABLE agent_messages;
ALTER TABLE agent_messages_old RENAME TO agent_messages;
CREATE INDEX agent_messages_thread ON agent_messages(thread_id, id);
