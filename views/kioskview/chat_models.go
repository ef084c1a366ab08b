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
	// Base is the sheet's path under the member ("chat": the coach;
	// "house": Talos, the home and TV assistant); "" is "chat". It also
	// prefixes the sheet's element ids, so both sheets can be on a page.
	Base string
	// Held are the actions waiting for an adult's confirmation (the house
	// sheet), with HeldNote what became of the last one answered and
	// HeldError why an answer was refused (a wrong PIN).
	Held      []HeldCard
	HeldNote  string
	HeldError string
	// Taps are the life-plan sheet's tap prompts, computed by the server
	// from the plan's state (never from a model's text); nil elsewhere.
	Taps *PlanTaps
}

// PlanTaps are the guided flow's prompts on the life-plan sheet: the
// suggested values as toggle chips sent together by "Keep these", or
// each goal's next moves as chips that put their words in the message
// field for the member to add the reason.
type PlanTaps struct {
	Values []string
	Moves  []TapMove
}

// TapMove is a goal's move as a chip: Label is shown, Text goes into
// the message field (through the chip's plain value attribute).
type TapMove struct {
	Label, Text string
}

// base is the sheet's path segment.
func (c ChatSheet) base() string {
	if c.Base == "" {
		return "chat"
	}
	return c.Base
}

// id is the id of the sheet's element part ("chat-body", "house-form").
func (c ChatSheet) id(part string) string { return c.base() + "-" + part }

// url is the sheet's URL; thread > 0 names a conversation.
func (c ChatSheet) url(thread int64, suffix string) string {
	if thread > 0 {
		return fmt.Sprintf("/m/%s/%s/%d%s", c.MemberID, c.path(), thread, suffix)
	}
	return "/m/" + c.MemberID + "/" + c.path() + suffix
}

// path is the sheet's path under the member: the life-plan sheet's is
// under the plan page ("plan/chat").
func (c ChatSheet) path() string {
	if c.plan() {
		return "plan/chat"
	}
	return c.base()
}

// house says the sheet is Talos's.
func (c ChatSheet) house() bool { return c.base() == "house" }

// plan says the sheet is the life-plan coach's ("Talk it through").
func (c ChatSheet) plan() bool { return c.base() == "plan" }

// HeldCard is an action waiting for an adult: what will happen, who
// asked, until when, and the adults who may confirm.
type HeldCard struct {
	ID        int64
	Question  string
	AskedBy   string
	Until     string
	Approvers []Approver
}

// Approver is an adult who may confirm; PIN says they must type theirs.
type Approver struct {
	ID, Name string
	PIN      bool
}

// anyPIN reports whether an approver must type a PIN.
func (h HeldCard) anyPIN() bool {
	for _, a := range h.Approvers {
		if a.PIN {
			return true
		}
	}
	return false
}

// heldURL is where a held action is answered.
func (c ChatSheet) heldURL(id int64) string {
	return fmt.Sprintf("/m/%s/house/held/%d", c.MemberID, id)
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

// openChat opens the chat sheet and asks the server for its content.
func openChat(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("$_sheet = 'chat'; @get('%s')", url)
}

// openHouse opens the "Home & TV" sheet and asks for its content.
func openHouse(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("$_sheet = 'house'; @get('%s')", url)
}

// openPlanChat opens the life plan's "Talk it through" sheet and asks for
// its content.
func openPlanChat(url string) string {
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("$_sheet = 'plan'; @get('%s')", url)
}

// tapMove puts a move chip's words (its plain value attribute) in the
// message field: the expression is fixed text, no plan text is in it.
const tapMove = "el.form.elements.message.value = el.value; el.form.elements.message.focus()"

// placeholder is the message field's hint.
func placeholder(c ChatSheet) string {
	if c.house() {
		return "Ask about the house or the TV…"
	}
	if c.plan() {
		return "Talk with your life-plan coach…"
	}
	return "Ask your coach…"
}

// heldRefresh asks again for the held actions while some wait: one timed
// out or answered on another screen leaves this one too.
func heldRefresh(c ChatSheet) string {
	url := c.url(0, "/held")
	if !views.SafePath(url) {
		return ""
	}
	return fmt.Sprintf("@get('%s')", url)
}
