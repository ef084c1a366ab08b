package content_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func asAppErr(err error, target **apperr.Error) bool { return errors.As(err, target) }

// newCatalog returns a catalog over a fresh migrated database.
func newCatalog(t *testing.T) (*content.Catalog, *store.DB) {
	t.Helper()
	db := storetest.Open(t)
	return content.NewCatalog(db, nil), db
}

// importGood loads testdata/good.json into c.
func importGood(t *testing.T, c *content.Catalog) content.Summary {
	t.Helper()
	sum, err := c.ImportFile(context.Background(), bytes.NewReader(readGood(t)))
	if err != nil {
		t.Fatalf("ImportFile(good): %v", err)
	}
	return sum
}

// tableCounts returns the row counts of the three catalog tables.
func tableCounts(t *testing.T, db *store.DB) [3]int {
	t.Helper()
	var n [3]int
	for i, table := range []string{"content_items", "content_programs", "content_program_days"} {
		if err := db.Read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n[i]); err != nil {
			t.Fatal(err)
		}
	}
	return n
}
