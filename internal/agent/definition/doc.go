// Package definition holds declarative, versioned agent definitions (seed
// 003): an agent is data — system prompt, user prompt template, model
// settings, tool ids, context types, output JSON Schema, validation rules,
// sub-agents and hooks — stored append-only in agent_definitions, so an admin
// can tune an agent or add a small one without a code change, and roll back a
// bad edit. It is generic: the health coach's context types, seed and
// tuning live in internal/coach, the admin edit form in web.
//
// Versions. Repo.Save validates a Definition and inserts it as the agent's
// next version; the current definition is the newest active version.
// Repo.Rollback deactivates the current version, so the previous active one
// becomes current again. Nothing is updated or deleted in place. Reads of
// the current version are cached; every write through the Repo invalidates
// the cache. A definition that does not validate is refused with an
// apperr.Invalid naming each bad field, and the current version stays.
// EnsureSeeded inserts a code default as version 1 once.
//
// Invoking. Invoker.Invoke(ctx, agentID, Params) runs the current
// definition as one run of the agent engine (Engine, *agent.Orchestrator,
// through Execute): the engine's run lifecycle and ledger, its one
// reasoning loop, model-call limit and budget. The invocation resolves the
// context types in parallel into prompt sections (ContextResolver funcs
// from the Registry; working_memory comes from the engine), renders the
// user prompt template ({{variable}}), offers the definition's tools (from
// the Registry's ToolSet, wrapped with tool hooks), reasons with the output
// schema and the validation rules as the check (failures go back to the
// model with the errors, up to MaxRetries times), runs the sub-agent
// pipeline, fires the agent's hooks and returns the composed result. The
// whole invoke is recorded as one agent_runs row with assignment "invoke".
// Writes the tools and hooks make are staged and applied only when the
// whole invoke succeeds (see agent.Effect).
//
// Template variables: message (the invoke's message, at every level),
// member, now, previous_messages, every context type the definition
// declares, user.<path> (Options.Members' data: the app gives the member's
// profile, targets and active goals), extras.<path>, input.<path>
// (a sub-agent's mapped input) and, for a sub-agent whose input mapping is
// an object, its keys. A variable without a value fails the run. There is no
// heuristic fallback: without a model, with the budget spent, after a model
// error or output still invalid after the retries, the invoke fails.
//
// Sub-agents run in batches: entries of one batch in parallel, batches in
// ascending order. An entry's condition rules are evaluated against the
// parent's result so far (an object output plus the keys of earlier
// batches; any other output as it is); a failing rule skips the entry. Its
// input mapping resolves $result[.path], $user[.path], $extras[.path],
// $parentInput[.path] and $now; other values are literals ("$$x" is the
// literal "$x"); objects and arrays nest; a path that does not exist is
// null. The sub-agent's composed result is set under its key. Nesting is
// limited to MaxDepth levels; cycles and deeper chains are refused on save
// and at run time.
//
// Rules whose path starts with a sub-agent's key are checked on the
// composed result, after the sub-agents ran on an accepted output; their
// failures go back to the model like the other rules' (each attempt runs
// the sub-agents again).
//
// Invoker.Shape applies a definition to a run of an engine assignment (the
// coach's daily dashboard, agent.Shaper): its tools, context types, rules,
// sub-agents and hooks on the model path; Registry.Needs names what such an
// assignment cannot do without, and a save that removes it is refused.
//
// Hooks are named functions (Registry.Hooks; BuiltinHooks gives notify and
// log_note, SendMessageHook send_message; the step notes what each was given) attached before/after the agent, before/after each tool
// (tool_hooks) and after a sub-agent entry. A hook's source is a dot path into
// the value at its point ("" = all of it): before the agent {member, message,
// input, extras}; after the agent its composed result; before a tool {tool,
// args}; after a tool {tool, args, result, error}; after a sub-agent its
// composed result. Hooks that write stage their writes (notify publishes
// after the commit). Hook failures are logged and noted, never fatal.
package definition
