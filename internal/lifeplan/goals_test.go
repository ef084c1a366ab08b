package lifeplan_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// clock is a fake clock the tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }
func (c *clock) tick()          { c.t = c.t.Add(time.Minute) }

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// env is a migrated database with members ada and bo, and a service on a
// fake clock.
func env(t *testing.T) (*lifeplan.Service, *store.DB, *clock) {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bo")
	c := &clock{t: t0}
	return lifeplan.NewService(db, c.now), db, c
}

// wantCode fails unless err carries code.
func wantCode(t *testing.T, err error, code apperr.Code, what string) *apperr.Error {
	t.Helper()
	if !apperr.Is(err, code) {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
	return apperr.As(err)
}

// wantField fails unless err is Invalid with a message for field containing msg.
func wantField(t *testing.T, err error, field, msg string) {
	t.Helper()
	e := wantCode(t, err, apperr.Invalid, field)
	if !strings.Contains(e.Fields[field], msg) {
		t.Fatalf("field %s: got %q (all: %v), want it to contain %q", field, e.Fields[field], e.Fields, msg)
	}
}

// graph is the goal state graph as the issue and the design decided it,
// written out here independently of lifeplan.Transitions, so a change to
// the table in the code fails the test.
var graph = map[lifeplan.GoalState][]lifeplan.GoalState{
	lifeplan.Dream:      {lifeplan.Considered, lifeplan.Abandoned},
	lifeplan.Considered: {lifeplan.Ready, lifeplan.Dream, lifeplan.Abandoned},
	lifeplan.Ready:      {lifeplan.Committed, lifeplan.Considered, lifeplan.Abandoned},
	lifeplan.Committed:  {lifeplan.Paused, lifeplan.Achieved, lifeplan.Failed, lifeplan.Abandoned},
	lifeplan.Paused:     {lifeplan.Committed, lifeplan.Abandoned},
	lifeplan.Failed:     {lifeplan.Considered, lifeplan.Abandoned},
	lifeplan.Achieved:   {},
	lifeplan.Abandoned:  {lifeplan.Considered},
}

// pathTo is the shortest way from dream to state in graph.
func pathTo(state lifeplan.GoalState) []lifeplan.GoalState {
	prev := map[lifeplan.GoalState]lifeplan.GoalState{lifeplan.Dream: ""}
	queue := []lifeplan.GoalState{lifeplan.Dream}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, n := range graph[s] {
			if _, seen := prev[n]; !seen {
				prev[n] = s
				queue = append(queue, n)
			}
		}
	}
	var path []lifeplan.GoalState
	for s := state; s != lifeplan.Dream; s = prev[s] {
		path = append([]lifeplan.GoalState{s}, path...)
	}
	return path
}

// goalIn adds a goal for member and walks it to state through the service.
func goalIn(t *testing.T, s *lifeplan.Service, member string, state lifeplan.GoalState) lifeplan.Goal {
	t.Helper()
	ctx := context.Background()
	g, err := s.AddGoal(ctx, member, lifeplan.GoalInput{Name: "goal toward " + string(state)}, "member")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range pathTo(state) {
		if g, err = s.TransitionGoal(ctx, member, g.ID, step, "on the way to "+string(state), "member"); err != nil {
			t.Fatalf("walking a goal to %s: %v", state, err)
		}
	}
	if g.State != state {
		t.Fatalf("walked to %s, got %s", state, g.State)
	}
	return g
}

// Every pair of goal states: the moves in the graph are made and recorded
// in the history with their reason and who made them; every other move is
// refused as a Conflict that names the moves allowed from the goal's state,
// and changes nothing.
func TestEveryGoalTransitionIsGuarded(t *testing.T) {
	s, _, c := env(t)
	ctx := context.Background()
	for _, from := range lifeplan.GoalStates {
		for _, to := range lifeplan.GoalStates {
			t.Run(string(from)+"→"+string(to), func(t *testing.T) {
				g := goalIn(t, s, "ada", from)
				before, err := s.GoalHistory(ctx, "ada", g.ID)
				if err != nil {
					t.Fatal(err)
				}
				c.tick()
				got, err := s.TransitionGoal(ctx, "ada", g.ID, to, "because "+string(to), "agent:lifeplan-coach")
				after, herr := s.GoalHistory(ctx, "ada", g.ID)
				if herr != nil {
					t.Fatal(herr)
				}
				if slices.Contains(graph[from], to) {
					if err != nil {
						t.Fatalf("allowed move refused: %v", err)
					}
					if got.State != to || !got.UpdatedAt.Equal(c.now()) {
						t.Fatalf("state %s at %v, want %s at %v", got.State, got.UpdatedAt, to, c.now())
					}
					if !slices.Equal(got.Next, graph[to]) {
						t.Errorf("next %v, want %v", got.Next, graph[to])
					}
					want := lifeplan.Transition{From: from, To: to, Reason: "because " + string(to), By: "agent:lifeplan-coach", At: c.now()}
					if len(after) != len(before)+1 || after[len(after)-1] != want {
						t.Fatalf("history %+v, want %+v appended to %d entries", after, want, len(before))
					}
					return
				}
				e := wantCode(t, err, apperr.Conflict, "refused move")
				allowed := make([]string, len(graph[from]))
				for i, s := range graph[from] {
					allowed[i] = string(s)
				}
				switch {
				case from == to && !strings.Contains(e.Message, "the goal is already "+string(from)):
					t.Errorf("refusal %q does not say the goal is already %s", e.Message, from)
				case len(allowed) > 0 && !strings.Contains(e.Message, fmt.Sprintf("from %s it can move to %s", from, strings.Join(allowed, ", "))):
					t.Errorf("refusal %q does not name the allowed moves %v", e.Message, allowed)
				case from != to && len(allowed) == 0 && !strings.Contains(e.Message, "is final"):
					t.Errorf("refusal %q does not say %s is final", e.Message, from)
				}
				still, err := s.Goals(ctx, "ada")
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range still {
					if o.ID == g.ID && o.State != from {
						t.Errorf("a refused move changed the state to %s", o.State)
					}
				}
				if len(after) != len(before) {
					t.Errorf("a refused move was recorded: %+v", after)
				}
			})
		}
	}
	// The table a tool describes is the graph.
	for _, from := range lifeplan.GoalStates {
		if got := lifeplan.Next(from); !slices.Equal(got, graph[from]) {
			t.Errorf("Next(%s) = %v, want %v", from, got, graph[from])
		}
	}
}

// The example: a dream cannot be ticked off as achieved; the
// refusal says why and what to do instead. The history shows every step of
// a goal that got there properly, with reasons, who and when.
func TestDreamToAchievedRefusedAndHistoryKept(t *testing.T) {
	s, _, c := env(t)
	ctx := context.Background()
	g, err := s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Hike the Pennine Way with the kids", Why: "to share it with them"}, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Achieved, "we did it", "member")
	e := wantCode(t, err, apperr.Conflict, "dream → achieved")
	if want := "a goal cannot move from dream to achieved; from dream it can move to considered, abandoned"; e.Message != want {
		t.Fatalf("message %q, want %q", e.Message, want)
	}
	if e.Fields["state"] != e.Message {
		t.Errorf("the refusal's field: %v", e.Fields)
	}
	steps := []struct {
		to     lifeplan.GoalState
		reason string
	}{
		{lifeplan.Considered, "talked it over"},
		{lifeplan.Ready, "first step: a 10 km walk"},
		{lifeplan.Committed, "booked the week"},
		{lifeplan.Paused, "knee injury"},
		{lifeplan.Committed, "knee is better"},
		{lifeplan.Achieved, "walked it in August"},
	}
	want := []lifeplan.Transition{{To: lifeplan.Dream, Reason: "added", By: "member", At: t0}}
	for _, st := range steps {
		c.tick()
		if _, err := s.TransitionGoal(ctx, "ada", g.ID, st.to, st.reason, "ada"); err != nil {
			t.Fatalf("→ %s: %v", st.to, err)
		}
		want = append(want, lifeplan.Transition{From: want[len(want)-1].To, To: st.to, Reason: st.reason, By: "ada", At: c.now()})
	}
	got, err := s.GoalHistory(ctx, "ada", g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("history\n got %+v\nwant %+v", got, want)
	}
	// Achieved is final, with its own message.
	_, err = s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Committed, "again", "ada")
	if e := wantCode(t, err, apperr.Conflict, "achieved → committed"); !strings.Contains(e.Message, "achieved is final") {
		t.Errorf("message %q", e.Message)
	}
	_, err = s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Achieved, "again", "ada")
	if e := wantCode(t, err, apperr.Conflict, "achieved → achieved"); e.Message != "the goal is already achieved" {
		t.Errorf("message %q", e.Message)
	}
}

// A transition needs a known state and a reason; a new goal starts as a
// dream or a considered one.
func TestGoalValidation(t *testing.T) {
	s, _, _ := env(t)
	ctx := context.Background()
	g := goalIn(t, s, "ada", lifeplan.Dream)
	_, err := s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Considered, "  ", "member")
	wantField(t, err, "reason", "is required")
	_, err = s.TransitionGoal(ctx, "ada", g.ID, "done", "because", "member")
	wantField(t, err, "state", "must be one of dream, considered, ready, committed, paused, achieved, failed, abandoned")
	_, err = s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Considered, "ok", "agent\x1b")
	wantField(t, err, "by", "control character")
	_, err = s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Considered, strings.Repeat("x", 501), "member")
	wantField(t, err, "reason", "at most 500 characters")
	_, err = s.TransitionGoal(ctx, "ada", 9999, lifeplan.Considered, "ok", "member")
	wantCode(t, err, apperr.NotFound, "unknown goal")

	_, err = s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Run a marathon", State: lifeplan.Committed}, "member")
	wantField(t, err, "state", "a new goal starts as dream or considered")
	_, err = s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: ""}, "member")
	wantField(t, err, "name", "is required")
	_, err = s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "two\nlines"}, "member")
	wantField(t, err, "name", "must be a single line")
	_, err = s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: strings.Repeat("é", 81)}, "member")
	wantField(t, err, "name", "at most 80 characters")
	_, err = s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "x", ParentID: ptr(int64(9999))}, "member")
	wantCode(t, err, apperr.NotFound, "unknown parent")

	child, err := s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Run a 10k", State: lifeplan.Considered, ParentID: &g.ID}, "agent:lifeplan-coach")
	if err != nil {
		t.Fatal(err)
	}
	if child.State != lifeplan.Considered || child.ParentID == nil || *child.ParentID != g.ID {
		t.Fatalf("child %+v", child)
	}
	h, err := s.GoalHistory(ctx, "ada", child.ID)
	if err != nil || len(h) != 1 || h[0].From != "" || h[0].To != lifeplan.Considered || h[0].By != "agent:lifeplan-coach" {
		t.Fatalf("a new goal's history: %+v %v", h, err)
	}
}

func ptr[T any](v T) *T { return &v }

// A Hearth fitness goal links to one of the member's life-plan goals; a
// fitness goal of another member is NotFound, as an unknown one, and links
// nothing.
func TestLinkFitnessGoal(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	hike := goalIn(t, s, "ada", lifeplan.Committed)
	other := goalIn(t, s, "ada", lifeplan.Dream)
	tenK, err := db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	kg, err := db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "weight", Description: "Reach 68 kg", Target: ptr(68.0)})
	if err != nil {
		t.Fatal(err)
	}
	bos, err := db.AddGoal(ctx, health.Goal{MemberID: "bo", Kind: "custom", Description: "bo's goal"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.LinkFitnessGoal(ctx, "ada", hike.ID, tenK.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g, err = s.LinkFitnessGoal(ctx, "ada", hike.ID, kg.ID); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.FitnessGoalIDs, []int64{tenK.ID, kg.ID}) {
		t.Fatalf("linked %v", g.FitnessGoalIDs)
	}
	_, err = s.LinkFitnessGoal(ctx, "ada", hike.ID, bos.ID)
	if e := wantCode(t, err, apperr.NotFound, "another member's fitness goal"); e.Message != fmt.Sprintf("no fitness goal %d", bos.ID) {
		t.Errorf("message %q", e.Message)
	}
	_, err = s.LinkFitnessGoal(ctx, "ada", hike.ID, 9999)
	wantCode(t, err, apperr.NotFound, "unknown fitness goal")
	// A fitness goal serves one life-plan goal: linking it again moves it.
	if _, err := s.LinkFitnessGoal(ctx, "ada", other.ID, kg.ID); err != nil {
		t.Fatal(err)
	}
	gs, err := s.Goals(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	links := map[int64][]int64{}
	for _, g := range gs {
		links[g.ID] = g.FitnessGoalIDs
	}
	if !slices.Equal(links[hike.ID], []int64{tenK.ID}) || !slices.Equal(links[other.ID], []int64{kg.ID}) {
		t.Fatalf("after moving: %v", links)
	}
	if err := s.UnlinkFitnessGoal(ctx, "ada", kg.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.UnlinkFitnessGoal(ctx, "ada", kg.ID), apperr.NotFound, "unlinking twice")
	// Deleting the fitness goal deletes its link.
	if _, err := db.Write.ExecContext(ctx, `DELETE FROM goals WHERE id = ?`, tenK.ID); err != nil {
		t.Fatal(err)
	}
	if gs, err = s.Goals(ctx, "ada"); err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if len(g.FitnessGoalIDs) != 0 {
			t.Errorf("goal %d still links %v", g.ID, g.FitnessGoalIDs)
		}
	}
}

// Check tries a write and rolls it back (what a tool does before staging);
// InTx writes in the caller's transaction, kept or rolled back with it.
func TestCheckAndInTx(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	g := goalIn(t, s, "ada", lifeplan.Dream)
	err := s.Check(ctx, func(s *lifeplan.Service) error {
		_, err := s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Achieved, "done", "agent:lifeplan-coach")
		return err
	})
	wantCode(t, err, apperr.Conflict, "Check of dream → achieved")
	if err := s.Check(ctx, func(s *lifeplan.Service) error {
		_, err := s.TransitionGoal(ctx, "ada", g.ID, lifeplan.Considered, "weighing it", "agent:lifeplan-coach")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if gs, _ := s.Goals(ctx, "ada"); gs[0].State != lifeplan.Dream {
		t.Fatalf("Check wrote: %s", gs[0].State)
	}
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		got, err := s.InTx(tx).TransitionGoal(ctx, "ada", g.ID, lifeplan.Considered, "weighing it", "agent:lifeplan-coach")
		if err != nil || got.State != lifeplan.Considered {
			t.Fatalf("in tx: %+v %v", got, err)
		}
		if _, err := s.InTx(tx).SetPurpose(ctx, "ada", "To be there for my people"); err != nil {
			t.Fatal(err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Plan(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if p.Goals[0].State != lifeplan.Considered || p.Purpose.Statement != "To be there for my people" {
		t.Fatalf("InTx writes not kept: %+v", p)
	}
	rollback := fmt.Errorf("roll back")
	if err := db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := s.InTx(tx).SetPurpose(ctx, "ada", "something else"); err != nil {
			t.Fatal(err)
		}
		return rollback
	}); err != rollback {
		t.Fatal(err)
	}
	if p, _ := s.GetPurpose(ctx, "ada"); p.Statement != "To be there for my people" {
		t.Fatalf("a rolled-back InTx write stayed: %q", p.Statement)
	}
}
