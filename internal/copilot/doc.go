// Package copilot is the configuration copilot's protocol (issue 41, seed
// 002's "agent as UI collaborator"): the config-copilot agent answers with
// {"message", "commands", "needs_confirmation"}, and the commands change the
// form the admin has open, never storage. This package holds the command
// vocabulary, the registry of forms and fields a command may name, the
// application of a reply to a form's state with an undo/redo stack, natural
// schedules ("every day at 7pm" → cron), the heuristic that answers without
// a model, and the read-only config tool factory.
//
// State lives in the browser as Datastar signals; the server is a pure
// function from (state, reply) to state: every command is validated here
// against the registry, the accepted ones become one signal patch, the
// refused ones become panel notes. Only the admin's Save writes, through
// the form's usual validation.
package copilot
