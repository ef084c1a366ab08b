// Package agent is the generic agent framework and its one engine: tools,
// working memory, the runtime port, output validation, assignments, runs,
// the budget and the orchestrator. It knows nothing about health;
// internal/coach is its first consumer.
//
// An Agent bundles a system prompt, tool factories (merged into a Toolbox),
// assignments and default model settings. The Orchestrator registers agents
// and runs them; every run is a row in agent_runs (see Run) and its progress
// is published to the "admin" and "member:<id>" topics (live.KindRun).
//
// One way in. A run starts with Orchestrator.Start or Run (StartEach,
// RunEach for every member) and a Request naming an assignment or a
// message. The orchestrator resolves the agent in one place (Resolve): a
// registered agent, else one made in admin (Definitions), whose every run
// (the API, a schedule, a chat turn through Agent.Converse) runs its whole
// definition; an assignment with a Durable route runs as its workflow.
//
// Names. The Orchestrator is the engine: it registers agents and starts,
// executes and records their runs; an Exec is one run executing. A Runtime
// is what reasons for one step (the model, or the heuristic planner;
// Runtimes holds both; implementations in internal/agent/llm) and takes a
// ModelRequest. The engine's drivers are definition.Invoker (agents made
// in admin) and workflow.Runtime (durable workflows, each attempt one
// engine run).
//
// One engine. Every run, whatever drives it, executes on an Exec: the
// assignment template below, a chat turn, and the engine's drivers through
// Orchestrator.Execute with a Driver (declarative definitions in
// internal/agent/definition, workflow steps in internal/workflow; no other
// package may, see TestOnlyTheEngineStartsRuns). An Exec records phases and timings, loads working
// memory once per agent, and reasons through Exec.Reason, the one
// reasoning loop: a model slot from the global limit
// (Options.MaxConcurrentModelCalls, HEARTH_MODEL_CONCURRENCY),
// usage and cost booked on the run, the reply checked, failures sent back
// with their errors (the reply as the assistant's turn, then the errors) up
// to the allowed retries; what the runtime adapted to on the way (a schema
// or tools the server refused, a trimmed prompt) is kept as the run's
// ModelNotes. Exec.NoModelReason says when the model cannot be used
// (none configured, or the day's Budget spent). The run then commits in one
// transaction: the writes its tools staged, the driver's own write (an
// assignment's Act, a chat reply), every loaded memory and the run row.
//
// Side effects. A tool that writes (schedule a follow-up, remember a fact,
// log a note) does not write when it runs: it checks the call, stages an
// Effect with Scope.Stage and tells the model the write is staged. The
// commit applies the staged effects only when the output is the model's
// accepted one, each once per (run, key): the key is the tool and its
// canonical arguments, so the same call made in several attempts stages one
// effect, and the agent_run_effects ledger keeps a retried commit from
// applying one twice. An effect the domain refuses at commit time (a limit
// reached meanwhile) rolls back to its savepoint and is recorded as refused.
// A run that fell back to the heuristic, failed or was interrupted applies
// none of the model's staged writes; Run.Effects says what became of each.
//
// Tools. NewTool builds a tool from a typed function: the strict JSON
// Schema (every property required, none other allowed, pointers nullable)
// is derived from the argument struct and its tags, and arguments are
// decoded strictly. Scope (the member a tool acts for) always comes from
// the run, never from arguments.
//
// An assignment run follows a fixed template:
//
//	load memory → prune → gather → prompt → reason → validate → act → save memory
//
// Gather calls tools by name with a scope that cannot write. Prompt renders
// the gathered data and Memory.Serialize() into text. Reason asks the model
// through Exec.Reason (the heuristic runtime, which calls the assignment's
// Plan, without a model); the output is checked against the assignment's
// JSON Schema and its domain rules. If the model still fails (or the day's
// budget is spent) the heuristic Plan output is used and the run ends as
// fell_back; if that is invalid too, nothing is written and the run fails.
// When the gathered data and memory hash to the same value as the last
// successful run's, that run's output is reused without calling the model.
//
// A freeform run is a chat turn on a persisted thread: the member's message,
// the thread history and the serialized memory go to the model with the
// agent's tools; the reply, the staged writes and the memory commit
// together. A runtime may trim the oldest history to the model's context
// window (Message.Pinned keeps an assignment's task), and streams the
// reply when Request.OnDelta is set.
//
// Concurrency: at most one run per (agent, assignment, member) is active; a
// second request joins it. Assignment and driven runs share a bounded pool
// of workers, and model calls the global limit. Runs execute on the
// orchestrator's own context, so a caller that stops waiting does not
// cancel them; Close does.
package agent
