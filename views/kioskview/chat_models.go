package kioskview

import (
	"fmt"

	"hearth/views"
)

// ChatSheet is the "Ask the coach" sheet: the member's conversations with
// the coach, the one open and its messages, and the form to write.
type ChatSheet struct {
	MemberID string
	CSRF     string
	Threads  []ChatThreadItem
	// ThreadID is the open conversation (0: a new one, started by the
	// first message).
	ThreadID int64
	Messages []ChatMessage
	// Turn is the answer being written, if any.
	Turn *ChatTurn
	// Error is a problem with the last message sent (shown on the form).
	Error string
	// Typed is what was typed when the message was refused (kept).
	Typed string
	// Talk offers hold-to-talk (speech-to-text is configured).
	Talk bool
}

// ChatThreadItem is a conversation in the sheet's list.
type ChatThreadItem struct {
	ID    int64
	Title string
	When  string
}

// ChatMessage is a stored message: the member's or the coach's text, with
// the tools the coach used for it as chips.
type ChatMessage struct {
	Mine  bool
	Text  string
	Chips []string
}

// ChatTurn is the coach's answer as it is written: the text so far and the
// tools called so far (chips), done once stored.
type ChatTurn struct {
	RunID int64
	Text  string
	Chips []string
	Done  bool
	Error string
}

// ChatTurnID is the element id of a turn's answer.
func ChatTurnID(run int64) string { return fmt.Sprintf("chat-turn-%d", run) }

// chatURL is a member's chat URL; thread > 0 names a conversation.
func chatURL(member string, thread int64, suffix string) string {
	if thread > 0 {
		return fmt.Sprintf("/m/%s/chat/%d%s", member, thread, suffix)
	}
	return "/m/" + member + "/chat" + suffix
}

// openChat opens the chat sheet and asks the server for its content.
func openChat(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("$_sheet = 'chat'; @get('%s')", url)
}
