// Package migrations embeds the numbered goose SQL migrations so the binary
// carries its schema. Version ranges are reserved per area to keep parallel
// work from colliding: 1-9 household, 10-19 agent, 20-29 content/program/
// dashboard/coach, 30-39 schedule, 40-49 imports, 50-59 kiosk, 60-69 definitions,
// 70-79 data safety (backups, export, erase), 90-99 workflows and
// conversations (90 workflows, 91 chat messages and their FTS5 index: the
// build tag sqlite_fts5 is required, 92 chat threads told from request
// threads), 120-129 evals (definition drafts,
// eval runs), 122 the origin of chat threads (kiosk or admin), 124 device
// tokens (internal/devices), 126 when a member reached their program day,
// 128 what started a workflow run (its origin).
// Version 9 is a Go migration in internal/store (repair_text: normalises
// control characters in text stored before package text existed); so is
// version 42 (bodyscans.go: body scans with one figure, rebuilt in Go to keep
// migration 70's index whichever runs first); so is version 28
// (triggers.go: agent_runs accepts the "demo" trigger); so is version 93
// (triggers.go: workflow_runs accepts it too).
package migrations

import "embed"

// FS holds every *.sql migration at its root, as goose expects.
//
//go:embed *.sql
var FS embed.FS
