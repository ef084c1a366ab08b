// Package eval measures how good the coach's daily plans are, for the
// heuristic coach and for any model or definition version (`hearth eval`,
// Admin → Evals).
//
// Scenarios (scenarios/*.json, one household situation each; Scenario)
// describe members and their history, a "today", earlier coach runs and
// answers (the timeline), and expectations. Run builds a fresh Hearth per
// scenario through a Factory (internal/app.EvalFactory: the server's own
// wiring over a temporary database, on a clock the eval moves through the
// scenario), seeds it through the real services (the importer for CSV
// files), gathers the facts the run will see, runs the daily-dashboard
// assignment for the scenario's member through the orchestrator (the
// production path: model or heuristic, validation retries, fallback,
// budget) and grades:
//
//   - every output the run produced (rejected model replies, kept on the
//     run with their validation errors, and the accepted output) with the
//     generic graders (GenericGraders): schema, content, numbers, units,
//     stale calls to action, the CTA limit; these make the hallucination,
//     numeric-fidelity and stale-CTA rates;
//   - the plan the member sees (the stored document) with the generic
//     graders and the scenario's expectations (Expectation: up next,
//     alternates, playlist, content to avoid, CTAs, prompts, what the
//     words say, the run, memory, program and goals afterwards).
//
// An expectation (or a generic grader, Scenario.KnownGaps) marked as a
// known gap is one the heuristic coach is not yet designed to meet: it is
// reported (gap, or gap_met once it holds) and excuses the heuristic's
// plans only; a model's plan is held to it. Facts for the numbers grader
// are the coach's gathered data (its own gather, run once more before the
// run on the same tools, memory and clock), the prompt and the tool
// results; the stale-CTA grader reads the member's records itself (Truth)
// rather than trusting the coach's view of them.
//
// The optional Judge scores tone and helpfulness with a model; its scores
// are reported apart from the deterministic ones. Report, Compare and
// Thresholds are the CLI's table, --compare and exit status; Service runs
// the suite in the background for the admin page and keeps its reports
// in eval_runs.
package eval
