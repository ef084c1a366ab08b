// Package coach is the health-coach agent, the first consumer of package
// agent: its tools (compact read, analysis and write operations over the
// household's services), the daily-dashboard assignment, its prompts and the
// heuristic planner that is both the coach without a language model and the
// fallback when the model fails.
//
// The daily-dashboard assignment follows the agent template:
//
//	gather   read tools called by name (weight, nutrition, workouts, body
//	         composition, the whole history with imports, catalog menu,
//	         program, goals, prompt answers, voice memos), plus the
//	         follow-up state kept in working memory and the updates the
//	         new answers call for (program declarations, goals)
//	prompt   Tuning.SystemPrompt + Tuning.UserTemplate filled from the gathered
//	         sections (see Tuning for the variables)
//	reason   model or heuristic Plan; output = the dashboard document
//	validate dashboard schema, catalog ids and durations, numbers in the
//	         coach's words must come from the facts, no prompt re-asked that
//	         memory marks answered or dropped
//	act      in the run's transaction: program and goal updates, answers
//	         marked processed, coaching notes, memory (follow-ups with TTLs,
//	         data-quality flags, interpretations), today's document
//
// Writes in act go through the transaction only (the database has one
// writer connection, held by the transaction): program changes use the
// guarded Tx functions of internal/program (DeclareTx, AdvanceTx, …), goals
// store.InsertGoal, documents Dashboards.PutTx, which tells the member's
// screens once the transaction commits.
//
// Tools are typed (agent.NewTool: strict schemas derived from their
// argument structs). The write tools (update_program_state,
// write_dashboard, log_coaching_note, and the memory and scheduling tools
// the agent adds) check the call at once and stage the write: it happens in
// the run's commit, only when the model's output is accepted.
//
// The coach's declarative definition (internal/agent/definition) is
// seeded from its code defaults (Seed, SeedDefinition); its current version
// is the tuning of every run (DefinitionTuning), and Contexts provides the
// coach's context types (program_state, health_summary, catalog_menu,
// targets_goals) to definitions.
//
// Memory keys the coach owns (all values are short text):
//
//	followup:<prompt id>  a prompt shown and awaiting an answer (JSON: question,
//	                      asked_on, times), 7 days
//	answered:<prompt id>  the answer (JSON: question, answer); never asked again
//	                      while present (onboarding answers for good)
//	dropped:<prompt id>   ignored twice; not asked again for 14 days
//	flag:…, obs:…         data-quality flags (48 h) and observations (7 days)
//	checkin:…, context:…, program:…, note:…
//	                      interpretations of the member's answers, memos and
//	                      chat (checkin:<energy|sleep|soreness> from the daily
//	                      check-in, prompt checkin-<kind>-YYYYMMDD;
//	                      context:recovering / context:unwell also from
//	                      "I'm exhausted", "I've got the flu")
//	injury:<side-part>    an injury or limitation the member mentioned, kept
//	                      until they say it is better; named in every briefing
//	condition:<name>      pregnancy (280 days, asked again every 28),
//	                      osteoporosis, heart (asked again every 90 days): a
//	                      health condition the member stated (conditions.go)
//	preference:walking-only  "I only walk" (90 days): walks and a progression
//	proposal:goal         a goal the member named in passing (JSON: goal,
//	                      said), 7 days; asked about (goal-proposal-<hash>)
//	                      until they tap to add it or not
//
// Wiring (internal/app):
//
//	deps := coach.Deps{DB: db, Catalog: catalog, Programs: programs,
//		Dashboards: dashboards, Schedule: sched.AgentTools(), Location: loc, Logger: log}
//	box, _ := agent.NewToolbox(coach.Toolset(deps)...) // the definitions' tool registry
//	repo := definition.NewRepo(db, definition.Registry{Tools: box, Contexts: coach.Contexts(box, db.Now), …})
//	coach.Seed(ctx, repo, box.Names())
//	deps.Tuning = coach.DefinitionTuning(repo)
//	orchestrator.Register(coach.New(deps))
//
// The scheduler's default task runs coach.AgentID / coach.DailyDashboardID
// (DailyDashboardSchedule) for every member. Location must be the same
// household time zone the dashboard store and program service use.
package coach
