package adminview

import (
	"fmt"
	"hearth/views"
)

// AdminChat is Admin → Chat: talk to any agent as any member, with the raw
// tool calls and results and a link to each turn's run.
type AdminChat struct {
	AdminPage
	Notice   Notice
	Agents   []views.Option
	Members  []views.Option
	Agent    string
	Member   string
	Threads  []AdminChatThread
	ThreadID int64 // 0: a new conversation
	NewHref  string
	// RID is the form's request id: sent twice (a double click, a
	// reload), the message is sent once.
	RID  string
	Log  AdminChatLog
	Form views.FormState
}

// AdminChatThread is a conversation in the list.
type AdminChatThread struct {
	ID    int64
	Title string
	When  string
	Href  string
}

// AdminChatLog is a conversation's messages (re-rendered live while the
// agent answers).
type AdminChatLog struct {
	Rows []AdminChatRow
	// Turn is an answer being written: its text so far and its tool calls.
	Turn *AdminChatTurn
}

// AdminChatRow is one stored message: text, a tool call (name and
// arguments) or a tool result, with the run that wrote it.
type AdminChatRow struct {
	Role, Type, Text, Tool, Label, Args, When string
	Run                                       int64
}

// AdminChatTurn is an answer in progress.
type AdminChatTurn struct {
	Run   int64
	Text  string
	Tools []AdminChatRow
	Error string
}

func runHref(id int64) string { return fmt.Sprintf("/admin/runs/%d", id) }
