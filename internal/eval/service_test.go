package eval

import (
	"context"
	"testing"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/store/storetest"
)

type noVersions struct{}

func (noVersions) Active(context.Context, string) (definition.Version, error) {
	return definition.Version{}, apperr.NotFoundf("no definition")
}
func (noVersions) Version(context.Context, string, int) (definition.Version, error) {
	return definition.Version{}, apperr.NotFoundf("no definition")
}

// A run the server stopped during is interrupted at the next start, and
// an unknown version or filter starts nothing.
func TestServiceMarksStoppedRunsAndRefusesBadStarts(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO eval_runs (agent_id, definition_version, definition_label, runtime,
		status, started_at, scenarios) VALUES ('health-coach', 1, 'v1', 'heuristic', 'running', '2026-02-18T04:00:00.000Z', 52)`); err != nil {
		t.Fatal(err)
	}
	s, err := NewService(ctx, db, noVersions{}, ServiceOptions{Runtime: RuntimeHeuristic})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.List(ctx, 0)
	if err != nil || len(runs) != 1 || runs[0].Status != "interrupted" || runs[0].FinishedAt == nil || runs[0].Error == "" {
		t.Fatalf("runs after a restart: %+v, %v", runs, err)
	}
	if _, ok, err := s.Previous(ctx, runs[0].ID+1); ok || err != nil {
		t.Fatalf("an interrupted run is no comparison: ok=%v err=%v", ok, err)
	}
	if _, err := s.Start(ctx, 0, ""); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("start without a definition: %v", err)
	}
	if _, err := s.Start(ctx, 0, "zzz-no-such-scenario"); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("start with a filter matching nothing: %v", err)
	}
	if _, ok := s.Current(); ok {
		t.Fatal("a refused start left a run going")
	}
	if _, err := s.Get(ctx, 99); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("missing run: %v", err)
	}
}
