package definition

import (
	"context"
	"testing"

	"hearth/internal/apperr"
)

func TestDraftIsSavedButNotCurrentUntilActivated(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("writer", "You write v1."))
	d, err := f.repo.SaveDraft(ctx, def("writer", "You write v2, warmer."), "admin", "try a warmer tone")
	if err != nil {
		t.Fatal(err)
	}
	if d.Number != 2 || d.Active || !d.Draft || VersionLabel(d) != "v2 (draft)" {
		t.Fatalf("draft = %+v", d)
	}
	if cur, _ := f.repo.Active(ctx, "writer"); cur.Number != 1 {
		t.Fatalf("current after saving a draft = v%d, want v1", cur.Number)
	}
	stored, err := f.repo.Version(ctx, "writer", 2)
	if err != nil || !stored.Draft || stored.SystemPrompt != "You write v2, warmer." {
		t.Fatalf("stored draft = %+v, %v", stored, err)
	}
	list, _ := f.repo.List(ctx)
	if len(list) != 1 || list[0].Version != 1 || list[0].Versions != 2 || list[0].Drafts != 1 {
		t.Fatalf("list = %+v", list)
	}
	// A rollback ignores drafts: there is still only one active version.
	if _, err := f.repo.Rollback(ctx, "writer", "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("rollback with one active version and a draft: %v", err)
	}

	v, err := f.repo.Activate(ctx, "writer", 2, "admin")
	if err != nil {
		t.Fatal(err)
	}
	if v.Number != 2 || !v.Active || v.Draft || v.ActivatedBy != "admin" || v.ActivatedAt == nil {
		t.Fatalf("activated = %+v", v)
	}
	if cur, _ := f.repo.Active(ctx, "writer"); cur.Number != 2 || cur.SystemPrompt != "You write v2, warmer." {
		t.Fatalf("current after activating = %+v", cur)
	}
	if _, err := f.repo.Activate(ctx, "writer", 2, "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("activating a version that is no longer a draft: %v", err)
	}
	// The activated draft rolls back like any version (rolled back, not
	// discarded: it was active).
	if prev, err := f.repo.Rollback(ctx, "writer", "admin"); err != nil || prev.Number != 1 {
		t.Fatalf("rollback = %+v, %v", prev, err)
	}
	if v, _ := f.repo.Version(ctx, "writer", 2); v.Discarded || v.Draft || v.Active {
		t.Fatalf("rolled-back activated draft = %+v", v)
	}
	if v, _ := f.repo.Version(ctx, "writer", 1); v.ActivatedAt == nil || !v.ActivatedAt.Equal(v.CreatedAt) {
		t.Fatalf("a version saved active became active when saved: %+v", v)
	}
}

func TestOlderDraftIsActivatedAsTheNextVersion(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("writer", "v1"))
	if _, err := f.repo.SaveDraft(ctx, def("writer", "draft v2"), "admin", ""); err != nil {
		t.Fatal(err)
	}
	f.save(def("writer", "v3, saved while the draft waited"))
	v, err := f.repo.Activate(ctx, "writer", 2, "admin")
	if err != nil {
		t.Fatal(err)
	}
	// Activating v2 in place would leave v3 current: it becomes v4 instead.
	if v.Number != 4 || !v.Active || v.SystemPrompt != "draft v2" || v.ChangeNote != "activates draft v2" {
		t.Fatalf("activated = %+v", v)
	}
	if cur, _ := f.repo.Active(ctx, "writer"); cur.Number != 4 {
		t.Fatalf("current = v%d, want v4", cur.Number)
	}
	old, _ := f.repo.Version(ctx, "writer", 2)
	if old.Draft || old.Active || old.DeactivatedAt == nil {
		t.Fatalf("the old draft = %+v, want retired", old)
	}
}

func TestDiscardedDraftCannotBeActivated(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("writer", "v1"))
	if _, err := f.repo.SaveDraft(ctx, def("writer", "bad idea"), "admin", ""); err != nil {
		t.Fatal(err)
	}
	if err := f.repo.Discard(ctx, "writer", 2, "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.repo.Activate(ctx, "writer", 2, "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("activating a discarded draft: %v", err)
	}
	if v, _ := f.repo.Version(ctx, "writer", 2); !v.Discarded || v.Draft || v.DeactivatedBy != "admin" {
		t.Fatalf("discarded draft = %+v", v)
	}
	if err := f.repo.Discard(ctx, "writer", 1, "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("discarding an active version: %v", err)
	}
	if _, err := f.repo.Activate(ctx, "writer", 9, "admin"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("activating a missing version: %v", err)
	}
	if cur, _ := f.repo.Active(ctx, "writer"); cur.Number != 1 {
		t.Fatalf("current = v%d", cur.Number)
	}
}

func TestInvalidDraftIsRefused(t *testing.T) {
	f := newFixture(t)
	d := def("writer", "x")
	d.ToolIDs = []string{"no_such_tool"}
	if _, err := f.repo.SaveDraft(context.Background(), d, "admin", ""); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("draft with an unknown tool: %v", err)
	}
}
