package coach

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// ask sends the member's message from their own chat on the kiosk to the
// coach without a model and returns the answer, the tools it called and
// the thread.
func (f *fixture) ask(member, message string, thread int64) (string, []string, int64) {
	f.t.Helper()
	return f.askAs(true, member, message, thread)
}

// askAs is ask, by the member (fromMember) or by the admin as the member.
func (f *fixture) askAs(fromMember bool, member, message string, thread int64) (string, []string, int64) {
	f.t.Helper()
	surface := agent.SurfaceAdmin
	if fromMember {
		surface = agent.SurfaceKiosk
	}
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Member: member, Message: message, Thread: thread,
		Chat: true, FromMember: fromMember, Surface: surface})
	if err != nil {
		f.t.Fatal(err)
	}
	if r.Status != agent.StatusSucceeded {
		f.t.Fatalf("chat run %s: %s", r.Status, r.Error)
	}
	msgs, err := f.orch.Threads().Messages(f.ctx, *r.ThreadID, 0, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	var tools []string
	for _, m := range msgs {
		if m.Type == agent.MessageToolCall && *m.RunID == r.ID {
			tools = append(tools, m.ToolName)
		}
	}
	return msgs[len(msgs)-1].Content, tools, *r.ThreadID
}

// replans records the coach's re-plan requests.
type replans struct {
	mu   sync.Mutex
	reqs []string // "member after-run"
}

func (r *replans) request(member string, after int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, fmt.Sprintf("%s %d", member, after))
}

func (r *replans) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reqs
	r.reqs = nil
	return out
}

// The heuristic coach answers the common questions from its tools, with
// the member's real figures, and says plainly what it cannot answer.
func TestHeuristicChatAnswers(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya") // today's plan
	w := f.tool("maya", "get_weight_trend", nil).(WeightView)
	p := f.tool("maya", "get_program_state", nil).(ProgramView)
	doc := f.today("maya").Document
	for _, c := range []struct {
		ask   string
		want  []string
		tools []string
	}{
		{"How is my weight going?", []string{"Weight: " + w.Text + "."}, []string{"get_weight_trend"}},
		{"What's my plan for today?", []string{"Today's plan: " + doc.Curated.UpNext.Primary.Title, "Program: " + p.Text}, []string{"get_program_state"}},
		{"What's next in my program?", []string{"Next up: " + p.Upcoming[0].Title}, []string{"get_program_state"}},
		{"Am I on a streak?", []string{"Meals logged", "Training:"}, []string{"get_today_nutrition", "get_recent_workouts"}},
		{"Write me a poem about spring", []string{cannotAnswer}, nil},
	} {
		reply, tools, _ := f.ask("maya", c.ask, 0)
		for _, w := range c.want {
			if !strings.Contains(reply, w) {
				t.Errorf("%q: reply %q has no %q", c.ask, reply, w)
			}
		}
		if strings.Join(tools, ",") != strings.Join(c.tools, ",") {
			t.Errorf("%q: tools %v, want %v", c.ask, tools, c.tools)
		}
	}
}

// What the member says in their own chat is kept as typed notes (an
// injury by body part, with the day), each under its own key, so ten
// later messages do not overwrite it; it is acknowledged and asks for a
// re-plan after the turn. An admin chatting as the member, or a scheduled
// request, is not the member's words: nothing is kept, nothing re-planned.
// A later question about it is answered from the recalled message.
func TestChatIsHeardAndRecalled(t *testing.T) {
	rp := &replans{}
	f := newFixture(t, fixtureOpts{replan: rp.request})
	seedMaya(f)
	reply, _, _ := f.ask("maya", "What should I do today, my left knee hurts after long runs.", 0)
	if !strings.Contains(reply, "Noted — I'm re-planning today to go easy on your left knee.") ||
		!strings.Contains(reply, "Your dashboard shows today's new plan in a moment.") || strings.Contains(reply, "Today's plan:") {
		t.Errorf("reply %q: want the acknowledgement and no stale plan", reply)
	}
	e, ok := f.memory("maya")["injury:left-knee"]
	if !ok || e.Value != "sore left knee (said 2026-02-18)" && e.Value != "left knee hurts (said 2026-02-18)" || e.ExpiresAt != nil {
		t.Fatalf("injury note %+v", e)
	}
	runs, err := f.orch.Runs().List(f.ctx, agent.RunFilter{Member: "maya"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.take(); !slices.Equal(got, []string{fmt.Sprintf("maya %d", runs[0].ID)}) {
		t.Fatalf("re-plan requests %v, want one after the chat run %d", got, runs[0].ID)
	}
	for i := range 10 {
		f.ask("maya", fmt.Sprintf("How is my weight going, question %d?", i), 0)
	}
	mem := f.memory("maya")
	if e, ok := mem["injury:left-knee"]; !ok || !strings.Contains(e.Value, "left knee") {
		t.Fatalf("after 10 more messages the knee note is %+v", e)
	}
	for k := range mem {
		if strings.HasPrefix(k, "note:") {
			t.Errorf("a chat line was kept under %s", k)
		}
	}
	if got := rp.take(); len(got) != 0 {
		t.Errorf("questions asked for re-plans: %v", got)
	}

	// Not the member's words.
	f.askAs(false, "maya", "My right shoulder hurts", 0)
	if _, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Member: "maya",
		Message: "Remind Maya that her back hurts less when she stretches", Trigger: agent.TriggerSchedule}); err != nil {
		t.Fatal(err)
	}
	for k := range f.memory("maya") {
		if k == "injury:right-shoulder" || k == "injury:back" {
			t.Errorf("%s kept from words that are not the member's", k)
		}
	}
	if got := rp.take(); len(got) != 0 {
		t.Errorf("re-plans from words that are not the member's: %v", got)
	}

	f.clk.Advance(48 * time.Hour)
	reply, _, _ = f.ask("maya", "What did I say about my knee?", 0)
	if !strings.Contains(reply, "my left knee hurts after long runs.") {
		t.Errorf("recall reply %q", reply)
	}
	reply, _, _ = f.ask("maya", "What did I say about swimming?", 0)
	if !strings.Contains(reply, "I don't find anything") {
		t.Errorf("nothing to recall: %q", reply)
	}
}

// The re-plan the chat asked for sees the note: the knee is in the
// briefing and nothing that loads it is offered.
func TestChatInjuryReachesTheReplan(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya")
	f.ask("maya", "my knee hurts", 0)
	f.clk.Advance(time.Minute)
	mustStatus(t, f.run("maya"), agent.StatusSucceeded)
	d := f.today("maya").Document
	if !strings.Contains(d.Coach.Briefing, "sore knee") {
		t.Errorf("briefing %q does not name the knee", d.Coach.Briefing)
	}
	items, err := f.cat.Lookup(f.ctx, d.ContentIDs())
	if err != nil {
		t.Fatal(err)
	}
	for id, it := range items {
		if it.Meta().Loads(content.AreaKnee) {
			t.Errorf("%s (%s) loads the knees", id, it.Title)
		}
	}
}

// How the member feels, said in a chat: tired and sore make today light,
// sick the coming days, "better" lets it go; each acknowledged in words
// that say what was understood. Small talk changes nothing and asks for
// no re-plan.
func TestChatHearsHowTheMemberFeels(t *testing.T) {
	rp := &replans{}
	f := newFixture(t, fixtureOpts{replan: rp.request})
	f.member(health.Member{ID: "theo", Name: "Theo"})
	for _, c := range []struct {
		say, ack string
		key      string // memory key set ("-key": removed)
		replan   bool
	}{
		{"I'm absolutely knackered today", "Noted — today stays light.", keyRecovering, true},
		{"I've got a stinking cold", "Noted — rest up: I'll keep to light options until you feel better.", keyUnwell, true},
		{"Feeling much better now, thanks", "Glad you're feeling better — back to your usual plan.", "-" + keyUnwell, true},
		{"I'm not sick of salads at all", cannotAnswer, "", false},
		{"I love the mornings", cannotAnswer, "", false},
	} {
		reply, _, _ := f.ask("theo", c.say, 0)
		if !strings.HasPrefix(reply, c.ack) {
			t.Errorf("%q: reply %q, want %q", c.say, reply, c.ack)
		}
		mem := f.memory("theo")
		if k, gone := strings.CutPrefix(c.key, "-"); gone {
			if _, ok := mem[k]; ok {
				t.Errorf("%q: %s still held", c.say, k)
			}
		} else if c.key != "" {
			if _, ok := mem[c.key]; !ok {
				t.Errorf("%q: %s not kept", c.say, c.key)
			}
		}
		if got := rp.take(); (len(got) == 1) != c.replan {
			t.Errorf("%q: re-plan requests %v, want a re-plan %v", c.say, got, c.replan)
		}
	}
}

// "I want to run a 5k in March" proposes the goal (with its date): it is
// not a goal until the member taps to confirm on the dashboard, and then
// it is, with the date.
func TestChatGoalIsProposedUntilConfirmed(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "theo", Name: "Theo"})
	reply, _, _ := f.ask("theo", "I want to run a 5k in March", 0)
	if want := "Shall I add “Run a 5k” as a goal, by Tue 31 Mar 2026? Tap “Add the goal” on your dashboard to keep it."; !strings.Contains(reply, want) {
		t.Fatalf("reply %q, want %q", reply, want)
	}
	goals := func() []health.Goal {
		gs, err := f.db.Goals(f.ctx, "theo", true)
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	if gs := goals(); len(gs) != 0 {
		t.Fatalf("goals before the tap: %+v", gs)
	}
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	var pr dashboard.Prompt
	for _, p := range f.today("theo").Document.Coach.Prompts {
		if strings.HasPrefix(p.ID, promptGoalProposalPrefix) {
			pr = p
		}
	}
	if pr.Question != "You told me you'd like to run a 5k. Add it as a goal, by Tue 31 Mar 2026?" || !slices.Equal(pr.Options, []string{optAddGoal, optNotNow}) {
		t.Fatalf("proposal prompt %+v", pr)
	}
	if gs := goals(); len(gs) != 0 {
		t.Fatalf("goals before the tap: %+v", gs)
	}
	f.answer("theo", pr.ID, optAddGoal, "tap")
	f.clk.Advance(time.Minute)
	mustStatus(t, f.run("theo"), agent.StatusSucceeded)
	gs := goals()
	if len(gs) != 1 || gs[0].Description != "Run a 5k" || gs[0].TargetDate == nil || gs[0].TargetDate.Format(time.DateOnly) != "2026-03-31" {
		t.Fatalf("goals after the tap: %+v", gs)
	}
	if _, ok := f.memory("theo")[keyGoalProposal]; ok {
		t.Error("the proposal is still held after the tap")
	}
	if b := f.today("theo").Document.Coach.Briefing; !strings.Contains(b, "You told me your goal: run a 5k.") {
		t.Errorf("briefing %q does not acknowledge the goal", b)
	}
}

// Questions by day are answered from that day's records with the same
// figures the briefing quotes, not today's; a meal logged for yesterday
// afterwards is in the next answer.
func TestChatAnswersByDay(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f) // lunch 1,100 kcal and dinner 800 kcal on each of the last 7 days; nothing today
	f.run("maya")
	y := f.tool("maya", "get_today_nutrition", map[string]any{"date": "yesterday"}).(NutritionDayView)
	total := dashboard.KcalText(y.Totals.Calories)
	if b := f.today("maya").Document.Coach.Briefing; !strings.Contains(b, total) {
		t.Fatalf("briefing %q does not quote yesterday's %s (the test's premise)", b, total)
	}
	reply, tools, _ := f.ask("maya", "What did I eat yesterday?", 0)
	for _, want := range []string{"Yesterday (Tue 17 Feb) you logged " + total + " in 2 meals:", "Lunch (1,100 kcal)", "Dinner (800 kcal)"} {
		if !strings.Contains(reply, want) {
			t.Errorf("reply %q has no %q", reply, want)
		}
	}
	if strings.Contains(reply, "Today so far") || !slices.Contains(tools, "get_recent_meals") {
		t.Errorf("reply %q (tools %v) is about today", reply, tools)
	}
	if _, err := f.db.AddMeal(f.ctx, health.Meal{MemberID: "maya", EatenAt: f.at(1, 20), Name: "Late snack", Calories: 250, ProteinG: 10}); err != nil {
		t.Fatal(err)
	}
	reply, _, _ = f.ask("maya", "what did i eat yesterday", 0)
	if !strings.Contains(reply, "you logged 2,150 kcal in 3 meals") || !strings.Contains(reply, "Late snack (250 kcal)") {
		t.Errorf("after a meal backfilled for yesterday: %q", reply)
	}
	reply, _, _ = f.ask("maya", "What did I eat on Monday?", 0)
	if !strings.Contains(reply, "On Mon 16 Feb you logged 1,900 kcal in 2 meals") {
		t.Errorf("Monday: %q", reply)
	}
	reply, _, _ = f.ask("maya", "How did I eat last week?", 0)
	if !strings.Contains(reply, "In the 7 days to Tue 17 Feb: 7 days to Tue 17 Feb 2026: 7 logged") || !strings.Contains(reply, "Mon 16 Feb 1,900 kcal") {
		t.Errorf("last week: %q", reply)
	}
	reply, _, _ = f.ask("maya", "What did I do on Monday?", 0)
	if !strings.HasPrefix(reply, "On Mon 16 Feb: ") || strings.Count(reply, "Mon 16 Feb") != 1 || !strings.Contains(reply, "core session") || !strings.Contains(reply, "18 min.") {
		t.Errorf("Monday's workout: %q", reply)
	}
	reply, _, _ = f.ask("maya", "What did I eat today?", 0)
	if !strings.Contains(reply, "Today so far: nothing logged.") {
		t.Errorf("today: %q", reply)
	}
}

// "Make me a plan for this week" lists the program's sessions of the
// next seven days with their dates, and says a fuller plan needs the
// model; without a program it says so.
func TestChatWeekPlan(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f) // Ember Core 30, daily, Day 4 due today (Wed 18 Feb)
	reply, _, _ := f.ask("maya", "Make me a plan for this week", 0)
	p := f.tool("maya", "get_program_state", nil).(ProgramView)
	lines := strings.Split(reply, "\n")
	if lines[0] != "Your program's next sessions:" || !strings.HasPrefix(lines[1], "- Wed 18 Feb: Day 4 of "+p.Title+", "+p.Item.Title) ||
		!strings.Contains(reply, "needs the language model") || strings.Contains(reply, "Today's plan") {
		t.Fatalf("week plan %q", reply)
	}
	var days int
	for _, l := range lines {
		if strings.HasPrefix(l, "- ") {
			days++
			d, err := time.Parse("Mon 2 Jan 2006", l[2:12]+" 2026")
			if err != nil || d.Before(f.at(0, 0)) || !d.Before(f.at(-7, 0)) {
				t.Errorf("a session outside the next seven days: %q", l)
			}
		}
	}
	if days < 5 || days > 7 {
		t.Errorf("%d sessions in the next 7 days of a daily program: %q", days, reply)
	}
	f.member(health.Member{ID: "theo", Name: "Theo"})
	reply, _, _ = f.ask("theo", "what's my weekly plan?", 0)
	if !strings.Contains(reply, "You're not following a program") || !strings.Contains(reply, "needs the language model") {
		t.Errorf("no program: %q", reply)
	}
}

// The coach's judgement holds in chat: a member it must not push toward a
// lower weight (a condition said now or before, their age) gets their
// weight without the ETA toward a lower goal, and why.
func TestChatWeightWithoutPushWhenRuledOut(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	goal := 50.0
	born := time.Date(2010, 9, 1, 0, 0, 0, 0, time.UTC)
	f.member(health.Member{ID: "lia", Name: "Lia", GoalWeightKg: &goal, BirthDate: &born})
	f.member(health.Member{ID: "ida", Name: "Ida", GoalWeightKg: &goal})
	for d := 21; d >= 1; d-- {
		f.weigh("lia", d, 54.5-float64(21-d)*0.06)
		f.weigh("ida", d, 54.5-float64(21-d)*0.06)
	}
	for _, c := range []struct{ member, ask, want string }{
		{"lia", "How is my weight going?", "At 15, what counts is being active, not a lower weight."},
		{"ida", "I'm pregnant. How is my weight going?", "With your pregnancy I won't push for a lower weight; your midwife's or doctor's advice comes first."},
		{"ida", "And now, how is my weight going?", "With your pregnancy I won't push"}, // kept from the last message
	} {
		reply, _, _ := f.ask(c.member, c.ask, 0)
		if !strings.Contains(reply, c.want) || strings.Contains(reply, "50 kg") || strings.Contains(reply, "ETA") {
			t.Errorf("%s %q: reply %q, want %q and no goal ETA", c.member, c.ask, reply, c.want)
		}
	}
}
