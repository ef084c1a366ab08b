-- +goose Up
-- Where a conversation was started (internal/agent Thread.Origin): 'kiosk'
-- for the open household screen's chat sheet, 'admin' for Admin → Chat,
-- the admin threads API and every other thread (scheduled requests, runs
-- of the agents API). The kiosk lists, opens, continues and deletes only
-- its own; admin sees all of them.
--
-- Threads from before cannot be told apart: the kiosk and Admin → Chat
-- both started them as "manual" chats. They become 'admin', so nothing an
-- admin said as a member shows on the open screen; the member's older
-- kiosk conversations stay readable in Admin → Chat.
ALTER TABLE agent_threads ADD COLUMN origin TEXT NOT NULL DEFAULT 'admin' CHECK (origin IN ('kiosk', 'admin'));
CREATE INDEX agent_threads_origin ON agent_threads(agent_id, member_id, origin, updated_at);

-- +goose Down
DROP INDEX agent_threads_origin;
ALTER TABLE agent_threads DROP COLUMN origin;
