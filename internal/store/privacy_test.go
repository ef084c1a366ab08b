package store_test

import (
	"context"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/store/storetest"
)

func TestSetPrivateFigures(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	ctx := context.Background()
	for _, on := range []bool{true, false} {
		if err := db.SetPrivateFigures(ctx, "ada", on); err != nil {
			t.Fatal(err)
		}
		m, err := db.Member(ctx, "ada")
		if err != nil || m.PrivateFigures != on {
			t.Fatalf("PrivateFigures = %v (%v), want %v", m.PrivateFigures, err, on)
		}
	}
	if err := db.SetPrivateFigures(ctx, "nobody", true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown member: err = %v, want NotFound", err)
	}
}
