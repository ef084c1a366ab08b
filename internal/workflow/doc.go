// Package workflow runs durable workflows: steps with JSON Schemas for
// their input, output, state, suspend payload and resume data, composed
// with a builder (Then, Parallel, Branch, DoWhile/DoUntil, nested
// workflows), and a runtime that stores every step's result in SQLite as
// it completes.
//
// Durability is step checkpointing: a run's graph is walked from the
// start each time it continues, and a step already completed is not run
// again, its stored output (and the state it set) is used instead. So a
// run killed mid-step continues at the next start (Runtime.Recover) from
// its last completed step, the step that was in flight runs again (at
// least once: its outside writes go through Context.Complete or carry
// Context.Key), and the conditions between steps see only stored data,
// so they choose the same path.
//
// A step waits for a person by returning Context.Suspend(payload): the run
// is suspended, the payload (a question) is stored, and Runtime.Resume(run,
// path, answer) checks the answer against the step's Resume schema and
// runs that step again with it, then its successors; completed steps are
// never re-run, a second answer is a Conflict. A failed run continues with
// Restart from the failed step; Pause stops a run before its next step.
//
// A workflow bound to an agent (Workflow.Agent) runs each attempt as one
// run of the agent engine (agent.Orchestrator.StartExecute): steps reason,
// read memory and stage writes through Context.Exec, the ledger and the
// budget apply, and the engine runs of every attempt stay linked to the
// workflow run (an attempt killed by a crash is marked interrupted by the
// engine and the next one continues). A step whose domain writes end the
// engine run (agent.Phases.Act, agent.Exec.Commit) records its own success
// in that transaction with Context.Complete. The runtime is the engine's
// durable route for the assignment a workflow is bound to
// (Runtime.StartDurable, agent.Orchestrator.SetDurable): every path that
// starts the assignment then starts (or joins) a workflow run and follows
// its attempt's engine run.
//
// Statuses: running, suspended, success, failed, paused. Events (step
// started, finished, failed, suspended; run status) go to the live hub
// (live.KindWorkflow) on the admin topic, and on the member's topic for a
// workflow that can ask the member (a step with a Suspend schema): its
// question shows on their dashboard; another's progress shows nowhere
// there, and would only re-render their screens.
package workflow
