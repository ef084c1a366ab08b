package importer

import (
	"strings"
	"testing"

	"hearth/internal/store"
)

// The finalize statements run over every staged sample of a member; a full
// scan inside a join there made 100k records take minutes. Guard the plans.
func TestFinalizeQueriesUseIndexes(t *testing.T) {
	db := newDB(t)
	derived := map[string]bool{"t": true, "totals": true, "best": true, "g": true, "c": true, "choice": true}
	for name, q := range map[string]string{"update meals": updateSlotMeals, "insert meals": insertSlotMeals,
		"link body fat": linkBodyFat, "link lean mass": linkLeanMass, "count linkable": countLinkable,
		"delete emptied meals": deleteEmptySlotMeals, "mark entries' slots": touchEntrySlots, "join entries": joinEntrySlots,
		"joined counts": joinedCounts,
		"body entries":  insertBodyEntries, "delete body entries": deleteBodyEntries} {
		plan := queryPlan(t, db, q, 1, "ada", "2024-01-01T00:00:00.000Z", "2024-01-02T00:00:00.000Z")
		for _, detail := range plan {
			if rest, ok := strings.CutPrefix(detail, "SCAN "); ok && !derived[strings.Fields(rest)[0]] && !strings.HasPrefix(rest, "(subquery-") {
				t.Errorf("%s: full scan %q", name, detail)
			}
		}
		if !strings.Contains(strings.Join(plan, "\n"), "SEARCH") {
			t.Errorf("%s: no index search in plan %q", name, plan)
		}
		// A food entry's samples are found by their instant, never by a
		// walk over every dietary sample of the member.
		for _, detail := range plan {
			if strings.HasPrefix(name, "join") || strings.HasPrefix(name, "mark") {
				if strings.Contains(detail, "import_samples USING PRIMARY KEY") && !strings.Contains(detail, "at=?") {
					t.Errorf("%s: %q", name, detail)
				}
			}
		}
	}
}

// The ledger's per-entry statements must each be an index search: a legacy
// lookup on the source-key index scanned every row of the member and made
// a 100,000-row CSV take nine minutes.
func TestLedgerQueriesUseIndexes(t *testing.T) {
	db := newDB(t)
	queries := map[string]string{"ledger": selectLedgerSQL}
	for k, q := range selectRowSQL {
		queries["row "+ledgerKind[k]] = q
	}
	for k, q := range legacyRowSQL {
		queries["legacy "+ledgerKind[k]] = q
	}
	for name, q := range queries {
		p := strings.Join(queryPlan(t, db, q, []any{"ada", "csv", "x", "y"}[:strings.Count(q, "?")]...), "\n")
		if strings.Contains(p, "SCAN") || !strings.Contains(p, "SEARCH") {
			t.Errorf("%s: plan %q", name, p)
		}
		if strings.HasPrefix(name, "legacy") && !strings.Contains(p, "_time (member_id=? AND") {
			t.Errorf("%s: not searched by time: %q", name, p)
		}
	}
}

// queryPlan returns the detail lines of EXPLAIN QUERY PLAN for q.
func queryPlan(t *testing.T, db *store.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Read.Query(`EXPLAIN QUERY PLAN `+q, args...)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}
