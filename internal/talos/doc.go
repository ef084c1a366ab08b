// Package talos is the policy behind Talos, the kiosk assistant that acts
// on the house (Home Assistant) and the media library (Plex) for whoever
// is at the screen (issue 39). A Policy says, per member role (adult,
// child, guest), which tools the role may use, which entities it may read
// and act on, which actions wait for an adult's confirmation on the
// screen, its quiet hours and its actions per hour.
//
// The policy is applied twice: the model is offered only the tools the
// asker's role may use (Policy.Offered), and every call is decided again
// when it executes (Policy.Evaluate, through Gate), so a tool name or an
// entity smuggled into a call is refused there. Every action and every
// refusal is recorded with the rule that decided it (Store.Decisions).
package talos
