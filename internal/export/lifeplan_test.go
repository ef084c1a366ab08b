package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/export"
	"hearth/internal/lifeplan"
	"hearth/internal/store/storetest"
)

// A member's export carries their life plan (every part, the goal history
// and the evidence with its status) and none of another member's.
func TestExportCarriesTheLifePlan(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bob")
	lp := lifeplan.NewService(db, time.Now)
	for _, m := range []string{"ada", "bob"} {
		mark := "zq" + m
		if _, err := lp.SetPurpose(ctx, m, "purpose "+mark); err != nil {
			t.Fatal(err)
		}
		if _, err := lp.SetValues(ctx, m, []lifeplan.ValueInput{{Name: "value " + mark}}); err != nil {
			t.Fatal(err)
		}
		b, err := lp.AddBelief(ctx, m, lifeplan.BeliefInput{If: "if " + mark, Then: "then " + mark})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lp.SuggestEvidence(ctx, m, b.ID, lifeplan.FromCoach, "evidence "+mark); err != nil {
			t.Fatal(err)
		}
		g, err := lp.AddGoal(ctx, m, lifeplan.GoalInput{Name: "goal " + mark}, "member")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lp.TransitionGoal(ctx, m, g.ID, lifeplan.Considered, "reason "+mark, "member"); err != nil {
			t.Fatal(err)
		}
		if _, err := lp.AddQuality(ctx, m, lifeplan.QualityInput{Name: "quality " + mark}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := export.Member(ctx, db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, buf.Bytes())
	for f, want := range map[string]string{
		"lifeplan_purpose.csv":      "purpose zqada",
		"lifeplan_values.csv":       "value zqada",
		"lifeplan_beliefs.csv":      "then zqada",
		"lifeplan_evidence.csv":     "evidence zqada,coach,suggested",
		"lifeplan_goals.csv":        "goal zqada",
		"lifeplan_goal_history.csv": "dream,considered,reason zqada",
		"lifeplan_qualities.csv":    "quality zqada",
	} {
		if !strings.Contains(string(files[f]), want) {
			t.Errorf("%s lacks %q:\n%s", f, want, files[f])
		}
	}
	for f, b := range files {
		if bytes.Contains(b, []byte("zqbob")) {
			t.Errorf("%s holds bob's life plan", f)
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(files["member.json"], &doc); err != nil {
		t.Fatal(err)
	}
	if h, _ := doc["lifeplan_goal_history"].([]any); len(h) != 2 {
		t.Errorf("member.json goal history: %v", doc["lifeplan_goal_history"])
	}
}
