// Package agent is the generic agent framework: tools, working memory, the
// runtime port, output validation, assignments, runs and the orchestrator.
// It knows nothing about health; internal/coach is its first consumer.
//
// An Agent bundles a system prompt, tool factories (merged into a Toolbox),
// assignments and default model settings. The Orchestrator registers agents
// and runs them; every run is a row in agent_runs (see Run) and its progress
// is published to the "admin" and "member:<id>" topics.
//
// An assignment run follows a fixed template:
//
//	load memory → prune → gather → prompt → reason → validate → act → save memory
//
// Gather calls tools by name (no model). Prompt renders the gathered data and
// Memory.Serialize() into text. Reason asks the Runtime (the language model,
// or the heuristic runtime, which calls the assignment's Plan); the output is
// checked against the assignment's JSON Schema and its domain rules, and on
// failure the errors plus the previous output go back to the model, up to
// ModelSettings.MaxRetries more times. If the model still fails (or the day's
// budget is spent) the heuristic Plan output is used and the run ends as
// fell_back; if that is invalid too, nothing is written and the run fails.
// Act and the memory save commit in one transaction. When the gathered data
// and memory hash to the same value as the last successful run's, that run's
// output is reused without calling the model.
//
// A freeform run is a chat turn on a persisted thread: the member's message,
// the thread history and the serialized memory go to the runtime with the
// agent's tools; the reply and the memory are saved together.
//
// Concurrency: at most one run per (agent, assignment, member) is active; a
// second request joins it. Assignment runs share a bounded pool of workers,
// and model calls a global semaphore. Runs execute on the orchestrator's own
// context, so a caller that stops waiting does not cancel them; Close does.
package agent
