package store_test

import (
	"context"
	"reflect"
	"testing"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func TestWhereSkipsBlankFilters(t *testing.T) {
	var w store.Where
	if w.String() != "" || len(w.Args()) != 0 {
		t.Fatalf("empty where = %q %v", w.String(), w.Args())
	}
	w.Eq("agent_id", "coach").Eq("member_id", "").And("id < ?", 9).And("status <> 'done'")
	if got, want := w.String(), " WHERE agent_id = ? AND id < ? AND status <> 'done'"; got != want {
		t.Fatalf("where = %q, want %q", got, want)
	}
	if got := w.Args(50); !reflect.DeepEqual(got, []any{"coach", 9, 50}) {
		t.Fatalf("args = %v", got)
	}
}

func TestAllAndOneScanRows(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	for _, id := range []string{"ada", "bo"} {
		storetest.Member(t, db, id)
	}
	ids, err := store.All(ctx, db.Read, store.Value[string], `SELECT id FROM members ORDER BY id`)
	if err != nil || !reflect.DeepEqual(ids, []string{"ada", "bo"}) {
		t.Fatalf("all = %v, %v", ids, err)
	}
	none, err := store.All(ctx, db.Read, store.Value[string], `SELECT id FROM members WHERE id = 'zed'`)
	if err != nil || none == nil || len(none) != 0 {
		t.Fatalf("no rows = %#v, %v; want an empty, non-nil slice", none, err)
	}
	n, err := store.One(ctx, db.Read, store.Value[int], `SELECT count(*) FROM members`)
	if err != nil || n != 2 {
		t.Fatalf("one = %d, %v", n, err)
	}
}
