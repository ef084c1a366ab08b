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
//     words state, the run, memory, program and goals afterwards).
//
// What the words state is graded as facts, not as one coach's sentences
// (claims.go), so a model that says the same thing in its own words
// passes and the heuristic passes by its facts, not by construction:
//
//	{"check": "figure", "number": 1200, "unit": "kcal"}       "1,200 kcal", "1200 calories", "1.2k kcal"
//	{"check": "figure", "number": 6, "unit": "days", "about": "(?i)weigh"}
//	                                                          "last weigh-in 6 days ago", "six days since you weighed in"
//	{"check": "figure", "unit": "kg", "absent": true}          no weight in kg (an lb member)
//	{"check": "date", "date": "2026-06-01", "within_days": 7}  "Mon 1 Jun", "June 1st", "1/6", "2026-06-01"
//	{"check": "date", "in_days": 3, "about": "(?i)start"}      "starts Sat 21 Feb", "starts this Saturday"
//	{"check": "entity", "names": ["Ember Core 30"], "day": 4} "Week 1, Day 4 of Ember Core 30", "Ember Core 30, day four"
//	{"check": "stance", "stance": "away_from_goal"}           "moving away from your goal", "creeping up"
//
// A scenario's timeline may include chat messages the member types on
// the kiosk ({"chat": {"message": "my knee hurts"}}); the fact checks read
// the coach's replies with "field": "chat", and the plan's checks see what
// the chat kept.
//
// A figure matches at the precision it is written with ("207 lb" states
// 206.8; "74.4 kg" does not state 74) or within tolerance; about binds
// it to its sentence (the goal's 70 kg is not the weight's 74 kg). A
// stance is one of a small vocabulary (StanceNames), not counted when a
// negation comes just before it. Catalog titles are masked first: "Tabata
// Twenty" states no figure, "Foam Roller Recovery" no recovery. The
// heuristic coach's exact sentences are tested where they belong, in
// internal/coach (TestHeuristicSentences). "mentions" (a pattern) stays
// for what must never be said in any words (another member's figures,
// a body-composition claim without a scan).
//
// Two self-checks keep the checks honest (hearth eval --paraphrases
// --mutants; TestParaphrasesPassAndWrongFactsFail, TestCoachMutantsAreKilled):
//
//   - a scenario's paraphrase (Scenario.Paraphrase) is the built-in
//     coach's plan with its words written another way, stating the same
//     facts; a scripted model serves it through the real client
//     (RunParaphrases) and it must pass, while the same plan with one
//     wrong fact (Paraphrase.Wrong) must fail the eval: a scenario check,
//     or the numbers grader on the reply the coach's validation rejected;
//   - a mutant (coach.Mutant) is the heuristic coach with one judgement
//     switched off (injuries, body areas, recovery days, the unit, a
//     passed goal date, logged program sessions, …); RunMutants runs each
//     and the mutation score says how many some scenario kills. A
//     scenario names the mutants it must kill in its covers
//     ("mutant:ignore-injuries").
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
