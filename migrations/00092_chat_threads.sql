-- +goose Up
-- A thread is a chat (someone talking to the agent: the kiosk's chat
-- sheet, Admin → Chat, the threads API) or the trace of a request to the
-- agent (a scheduled "remind Theo to log dinner"); the kiosk lists chats
-- only. Threads from before: a chat unless a scheduled, manual, demo or
-- agent run wrote in it (chats came only through the API then).
ALTER TABLE agent_threads ADD COLUMN chat INTEGER NOT NULL DEFAULT 0;
UPDATE agent_threads SET chat = 1 WHERE NOT EXISTS (SELECT 1 FROM agent_runs r
    WHERE r.thread_id = agent_threads.id AND r.triggered_by IN ('schedule', 'manual', 'demo', 'agent'));

-- +goose Down
ALTER TABLE agent_threads DROP COLUMN chat;
