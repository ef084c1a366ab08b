package lifeplan_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
)

func names(vs []lifeplan.Value) string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%d:%s", v.Rank, v.Name))
	}
	return strings.Join(out, " ")
}

func TestPurpose(t *testing.T) {
	s, _, c := env(t)
	ctx := context.Background()
	p, err := s.GetPurpose(ctx, "ada")
	if err != nil || p.Statement != "" || p.UpdatedAt != nil {
		t.Fatalf("unset purpose: %+v %v", p, err)
	}
	if _, err := s.SetPurpose(ctx, "ada", "To raise kind, curious children\r\nand stay strong for them."); err != nil {
		t.Fatal(err)
	}
	c.tick()
	if p, err = s.SetPurpose(ctx, "ada", "  To raise kind, curious children\r\nand stay strong enough to keep up.  "); err != nil {
		t.Fatal(err)
	}
	if p.Statement != "To raise kind, curious children\nand stay strong enough to keep up." || !p.UpdatedAt.Equal(c.now()) {
		t.Fatalf("purpose %+v", p)
	}
	if got, _ := s.GetPurpose(ctx, "ada"); got.Statement != p.Statement {
		t.Fatalf("read back %q", got.Statement)
	}
	_, err = s.SetPurpose(ctx, "ada", " ")
	wantField(t, err, "statement", "is required")
	_, err = s.SetPurpose(ctx, "ada", "bell\a")
	wantField(t, err, "statement", "contains a control character (U+0007)")
	_, err = s.SetPurpose(ctx, "ada", strings.Repeat("a", 1001))
	wantField(t, err, "statement", "at most 1000 characters")
	_, err = s.SetPurpose(ctx, "nobody", "x")
	wantCode(t, err, apperr.NotFound, "unknown member")
}

// Values are ranked in the order given; a set keeps the ids of the names it
// keeps; ranking names some values (ignoring case) and the rest follow.
func TestValuesAndRanking(t *testing.T) {
	s, _, _ := env(t)
	ctx := context.Background()
	vs, err := s.SetValues(ctx, "ada", []lifeplan.ValueInput{
		{Name: "Family", Description: "time with the kids"}, {Name: "Health"}, {Name: "Curiosity"}, {Name: "Craft"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if names(vs) != "1:Family 2:Health 3:Curiosity 4:Craft" || vs[0].Description != "time with the kids" {
		t.Fatalf("set: %s", names(vs))
	}
	family := vs[0].ID
	if vs, err = s.RankValues(ctx, "ada", []string{"craft", "HEALTH"}); err != nil {
		t.Fatal(err)
	}
	if names(vs) != "1:Craft 2:Health 3:Family 4:Curiosity" {
		t.Fatalf("ranked: %s", names(vs))
	}
	if vs, err = s.RankValues(ctx, "ada", []string{"Family", "Health", "Curiosity", "Craft"}); err != nil {
		t.Fatal(err)
	}
	if names(vs) != "1:Family 2:Health 3:Curiosity 4:Craft" {
		t.Fatalf("ranked in full: %s", names(vs))
	}
	_, err = s.RankValues(ctx, "ada", []string{"Health", "Wealth"})
	wantField(t, err, "ranking[1]", `"Wealth" is not one of the values (Family, Health, Curiosity, Craft)`)
	_, err = s.RankValues(ctx, "ada", []string{"Health", "health"})
	wantField(t, err, "ranking[1]", `repeats ranking[0] ("Health")`)
	_, err = s.RankValues(ctx, "ada", nil)
	wantField(t, err, "ranking", "is required")
	if got, _ := s.Values(ctx, "ada"); names(got) != "1:Family 2:Health 3:Curiosity 4:Craft" {
		t.Fatalf("a refused ranking changed the order: %s", names(got))
	}

	// A new set: "family" is the same value (its id stays), Craft and
	// Curiosity go, Courage comes.
	if vs, err = s.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "Courage"}, {Name: "family", Description: "first"}, {Name: "Health"}}); err != nil {
		t.Fatal(err)
	}
	if names(vs) != "1:Courage 2:family 3:Health" || vs[1].ID != family || vs[1].Description != "first" {
		t.Fatalf("reset: %s %+v", names(vs), vs)
	}
	_, err = s.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "Health"}, {Name: " HEALTH "}})
	wantField(t, err, "values[1].name", `repeats values[0] ("Health")`)
	_, err = s.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "Health"}, {Name: ""}})
	wantField(t, err, "values[1].name", "is required")
	_, err = s.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "Health", Description: strings.Repeat("d", 301)}})
	wantField(t, err, "values[0].description", "at most 300 characters")
	many := make([]lifeplan.ValueInput, lifeplan.MaxValues+1)
	for i := range many {
		many[i].Name = fmt.Sprintf("v%d", i)
	}
	_, err = s.SetValues(ctx, "ada", many)
	wantField(t, err, "values", "at most 20 values")
	if vs, err = s.SetValues(ctx, "ada", nil); err != nil || len(vs) != 0 {
		t.Fatalf("clearing: %v %v", vs, err)
	}
}

// A coach's or the data's note is a suggestion until the member accepts
// it; a dismissed one is kept and not suggested again; the member's own
// note counts at once.
func TestEvidenceSuggestedThenDecided(t *testing.T) {
	s, _, c := env(t)
	ctx := context.Background()
	b, err := s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	if b.State != lifeplan.Hypothesized || b.Confidence != lifeplan.DefaultConfidence || len(b.Evidence) != 0 {
		t.Fatalf("new belief %+v", b)
	}
	c.tick()
	data, err := s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromData, "On the 9 mornings you trained, you slept 40 minutes longer.")
	if err != nil {
		t.Fatal(err)
	}
	coach, err := s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromCoach, "You said you felt rested after Tuesday's run.")
	if err != nil {
		t.Fatal(err)
	}
	own, err := s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromMember, "I fell asleep at once after the swim.")
	if err != nil {
		t.Fatal(err)
	}
	if data.Status != lifeplan.Suggested || coach.Status != lifeplan.Suggested || data.DecidedAt != nil {
		t.Fatalf("suggestions: %+v %+v", data, coach)
	}
	if own.Status != lifeplan.Accepted || own.DecidedAt == nil || !own.DecidedAt.Equal(c.now()) {
		t.Fatalf("the member's own note: %+v", own)
	}
	_, err = s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromCoach, data.Text)
	if e := wantCode(t, err, apperr.Conflict, "suggesting again"); e.Message != "this note is already on the belief (suggested)" {
		t.Errorf("message %q", e.Message)
	}
	c.tick()
	acc, err := s.DecideEvidence(ctx, "ada", data.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if acc.Status != lifeplan.Accepted || !acc.DecidedAt.Equal(c.now()) {
		t.Fatalf("accepted: %+v", acc)
	}
	dis, err := s.DecideEvidence(ctx, "ada", coach.ID, false)
	if err != nil || dis.Status != lifeplan.Dismissed {
		t.Fatalf("dismissed: %+v %v", dis, err)
	}
	_, err = s.DecideEvidence(ctx, "ada", coach.ID, true)
	if e := wantCode(t, err, apperr.Conflict, "deciding again"); e.Message != "this note was already dismissed" {
		t.Errorf("message %q", e.Message)
	}
	_, err = s.DecideEvidence(ctx, "ada", own.ID, false)
	wantCode(t, err, apperr.Conflict, "dismissing the member's own note")
	_, err = s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromData, coach.Text)
	if e := wantCode(t, err, apperr.Conflict, "suggesting a dismissed note"); !strings.Contains(e.Message, "dismissed") {
		t.Errorf("message %q", e.Message)
	}
	bs, err := s.Beliefs(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range bs[0].Evidence {
		got = append(got, string(e.Source)+"/"+string(e.Status))
	}
	if strings.Join(got, " ") != "data/accepted coach/dismissed member/accepted" || !bs[0].UpdatedAt.Equal(c.now()) {
		t.Fatalf("evidence %v, updated %v", got, bs[0].UpdatedAt)
	}

	_, err = s.SuggestEvidence(ctx, "ada", b.ID, "rumour", "x")
	wantField(t, err, "source", "must be member, coach or data")
	_, err = s.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromCoach, "")
	wantField(t, err, "text", "is required")
	_, err = s.SuggestEvidence(ctx, "ada", 9999, lifeplan.FromCoach, "x")
	wantCode(t, err, apperr.NotFound, "unknown belief")
	_, err = s.DecideEvidence(ctx, "ada", 9999, true)
	wantCode(t, err, apperr.NotFound, "unknown note")
}

func TestBeliefs(t *testing.T) {
	s, _, _ := env(t)
	ctx := context.Background()
	b, err := s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I cook on Sundays", Then: "I eat better all week", Confidence: ptr(0.7)})
	if err != nil || b.Confidence != 0.7 {
		t.Fatalf("%+v %v", b, err)
	}
	if b, err = s.SetBeliefState(ctx, "ada", b.ID, lifeplan.Testing, nil); err != nil || b.State != lifeplan.Testing || b.Confidence != 0.7 {
		t.Fatalf("testing: %+v %v", b, err)
	}
	if b, err = s.SetBeliefState(ctx, "ada", b.ID, lifeplan.Confirmed, ptr(0.9)); err != nil || b.State != lifeplan.Confirmed || b.Confidence != 0.9 {
		t.Fatalf("confirmed: %+v %v", b, err)
	}
	_, err = s.SetBeliefState(ctx, "ada", b.ID, "true", nil)
	wantField(t, err, "state", "must be one of hypothesized, testing, confirmed, uncertain, refuted")
	_, err = s.SetBeliefState(ctx, "ada", b.ID, lifeplan.Refuted, ptr(1.5))
	wantField(t, err, "confidence", "between 0 and 1")
	_, err = s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "x", Then: "y", Confidence: ptr(math.NaN())})
	wantField(t, err, "confidence", "between 0 and 1")
	_, err = s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "", Then: "y"})
	wantField(t, err, "if", "is required")
	_, err = s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "x", Then: "line\nbreak"})
	wantField(t, err, "then", "must be a single line")
	_, err = s.SetBeliefState(ctx, "ada", 9999, lifeplan.Testing, nil)
	wantCode(t, err, apperr.NotFound, "unknown belief")
}

func TestQualities(t *testing.T) {
	s, _, _ := env(t)
	ctx := context.Background()
	q, err := s.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: "Patience", Why: "with the kids at bedtime"})
	if err != nil || q.Name != "Patience" || q.Why != "with the kids at bedtime" || !q.CreatedAt.Equal(t0) {
		t.Fatalf("%+v %v", q, err)
	}
	_, err = s.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: "patience"})
	wantField(t, err, "name", `"Patience" is already listed`)
	_, err = s.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: "a\u009bb"})
	wantField(t, err, "name", "control character")
	for i := 1; i < lifeplan.MaxQualities; i++ {
		if _, err := s.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: fmt.Sprintf("q%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: "one too many"})
	if e := wantCode(t, err, apperr.Conflict, "full"); e.Message != "a life plan holds at most 30 qualities" {
		t.Errorf("message %q", e.Message)
	}
	// Another member's list is their own.
	if _, err := s.AddQuality(ctx, "bo", lifeplan.QualityInput{Name: "Patience"}); err != nil {
		t.Fatal(err)
	}
}

// Plan returns the whole life plan.
func TestPlan(t *testing.T) {
	s, _, _ := env(t)
	ctx := context.Background()
	p, err := s.Plan(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if p.Purpose.Statement != "" || len(p.Values)+len(p.Beliefs)+len(p.Goals)+len(p.Qualities) != 0 || p.Values == nil || p.Goals == nil {
		t.Fatalf("empty plan %+v", p)
	}
	fill(t, s, "ada")
	if p, err = s.Plan(ctx, "ada"); err != nil {
		t.Fatal(err)
	}
	if p.Purpose.Statement == "" || len(p.Values) != 2 || len(p.Beliefs) != 1 || len(p.Beliefs[0].Evidence) != 1 || len(p.Goals) != 2 || len(p.Qualities) != 1 {
		t.Fatalf("plan %+v", p)
	}
	_, err = s.Plan(ctx, "nobody")
	wantCode(t, err, apperr.NotFound, "unknown member")
}

// ids are one member's rows, for the isolation test.
type ids struct{ goal, child, belief, evidence int64 }

// fill gives member a whole life plan and returns its ids.
func fill(t *testing.T, s *lifeplan.Service, member string) ids {
	t.Helper()
	ctx := context.Background()
	if _, err := s.SetPurpose(ctx, member, "purpose of "+member); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetValues(ctx, member, []lifeplan.ValueInput{{Name: "Family"}, {Name: "Health"}}); err != nil {
		t.Fatal(err)
	}
	b, err := s.AddBelief(ctx, member, lifeplan.BeliefInput{If: "I walk after dinner", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.SuggestEvidence(ctx, member, b.ID, lifeplan.FromData, "slept 30 min more on walking days")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.AddGoal(ctx, member, lifeplan.GoalInput{Name: "Hike with my kids"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	child, err := s.AddGoal(ctx, member, lifeplan.GoalInput{Name: "Walk 10 km", ParentID: &g.ID}, "member")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddQuality(ctx, member, lifeplan.QualityInput{Name: "Patience"}); err != nil {
		t.Fatal(err)
	}
	return ids{goal: g.ID, child: child.ID, belief: b.ID, evidence: e.ID}
}

// No method lets one member read or change another's life plan by id: the
// other's rows are NotFound (as unknown ones), and stay as they were.
func TestMemberCannotReachAnothersPlan(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	a := fill(t, s, "ada")
	fg, err := db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.LinkFitnessGoal(ctx, "ada", a.goal, fg.ID); err != nil {
		t.Fatal(err)
	}
	bosFitness, err := db.AddGoal(ctx, health.Goal{MemberID: "bo", Kind: "custom", Description: "bo's"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := s.Plan(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	hist, err := s.GoalHistory(ctx, "ada", a.goal)
	if err != nil {
		t.Fatal(err)
	}

	for name, try := range map[string]func() error{
		"transition": func() error {
			_, err := s.TransitionGoal(ctx, "bo", a.goal, lifeplan.Considered, "mine now", "bo")
			return err
		},
		"history": func() error { _, err := s.GoalHistory(ctx, "bo", a.goal); return err },
		"link ada's goal to bo's fitness goal": func() error {
			_, err := s.LinkFitnessGoal(ctx, "bo", a.goal, bosFitness.ID)
			return err
		},
		"link ada's fitness goal to bo's goal": func() error {
			g, err := s.AddGoal(ctx, "bo", lifeplan.GoalInput{Name: "bo's own"}, "bo")
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.LinkFitnessGoal(ctx, "bo", g.ID, fg.ID)
			return err
		},
		"unlink ada's fitness goal": func() error { return s.UnlinkFitnessGoal(ctx, "bo", fg.ID) },
		"parent": func() error {
			_, err := s.AddGoal(ctx, "bo", lifeplan.GoalInput{Name: "x", ParentID: &a.goal}, "bo")
			return err
		},
		"belief state": func() error {
			_, err := s.SetBeliefState(ctx, "bo", a.belief, lifeplan.Refuted, ptr(0.0))
			return err
		},
		"suggest evidence": func() error {
			_, err := s.SuggestEvidence(ctx, "bo", a.belief, lifeplan.FromCoach, "nope")
			return err
		},
		"decide evidence": func() error { _, err := s.DecideEvidence(ctx, "bo", a.evidence, false); return err },
	} {
		if err := try(); !apperr.Is(err, apperr.NotFound) {
			t.Errorf("%s: %v, want NotFound", name, err)
		}
	}
	// Ranking by ada's value names: bo has none.
	_, err = s.RankValues(ctx, "bo", []string{"Family"})
	wantField(t, err, "ranking[0]", "there are none yet")

	after, err := s.Plan(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("ada's plan changed:\n%+v\n%+v", before, after)
	}
	if h, _ := s.GoalHistory(ctx, "ada", a.goal); len(h) != len(hist) {
		t.Fatalf("ada's history changed: %+v", h)
	}
	bo, err := s.Plan(ctx, "bo")
	if err != nil {
		t.Fatal(err)
	}
	if bo.Purpose.Statement != "" || len(bo.Values) != 0 || len(bo.Beliefs) != 0 || len(bo.Qualities) != 0 {
		t.Fatalf("bo sees %+v", bo)
	}
	for _, g := range bo.Goals {
		if g.ID == a.goal || g.ID == a.child || len(g.FitnessGoalIDs) != 0 {
			t.Fatalf("bo's goals hold ada's: %+v", bo.Goals)
		}
	}
}
