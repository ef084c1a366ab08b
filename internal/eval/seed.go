package eval

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/importer"
)

// seedLead is how long before today the household is created, before any
// of its history.
const seedLead = 400 * 24 * time.Hour

// seed builds the scenario's household in inst, moving clk through its
// history, and plays its timeline (earlier coach runs through the real
// assignment, answers, memos). It returns the timeline's runs.
func seed(ctx context.Context, sc *Scenario, inst *Instance, clk *Clock) ([]agent.Run, error) {
	clk.Set(sc.today.Add(-seedLead))
	if err := seedCatalog(ctx, sc.Catalog, inst.Catalog); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	for _, m := range sc.Members {
		if err := seedMember(ctx, sc, m, inst, clk); err != nil {
			return nil, fmt.Errorf("member %s: %w", m.ID, err)
		}
	}
	// Programs and memory after all records: program changes are stamped
	// with the clock, and a workout counts for a program day only when it
	// comes after the state's last change.
	for _, m := range sc.Members {
		if err := seedProgram(ctx, sc, m, inst, clk); err != nil {
			return nil, fmt.Errorf("member %s: program: %w", m.ID, err)
		}
		for _, e := range m.Memory {
			clk.Set(sc.today.Add(-time.Hour))
			if e.SetAgo != nil {
				clk.Set(sc.at(*e.SetAgo, "", "09:00"))
			}
			if _, err := inst.Agents.Memory().Set(ctx, coach.AgentID, m.ID, e.Key, e.Value,
				time.Duration(e.TTLHours)*time.Hour, agent.AdminActor("eval")); err != nil {
				return nil, fmt.Errorf("member %s: memory %s: %w", m.ID, e.Key, err)
			}
		}
	}
	var runs []agent.Run
	threads := map[string]int64{} // each member's chat
	for i, ev := range sc.Timeline {
		clk.Set(ev.when(sc))
		member := ev.Member
		if member == "" {
			member = sc.Subject
		}
		r, err := play(ctx, inst, member, ev, threads)
		if err != nil {
			return runs, fmt.Errorf("timeline[%d]: %w", i, err)
		}
		if r != nil {
			runs = append(runs, *r)
		}
	}
	clk.Set(sc.today)
	return runs, nil
}

func seedCatalog(ctx context.Context, spec CatalogSpec, cat *content.Catalog) error {
	if !spec.NoDemo {
		f, err := content.DemoFile()
		if err != nil {
			return err
		}
		f.Items = slices.DeleteFunc(f.Items, func(it content.Item) bool {
			return it.Program == "" && slices.Contains(spec.DropKinds, it.Kind)
		})
		if _, err := cat.Import(ctx, f, content.SourceDemo); err != nil {
			return err
		}
	}
	if len(spec.Add) > 0 {
		if _, err := cat.ImportFile(ctx, strings.NewReader(string(spec.Add))); err != nil {
			return err
		}
	}
	return nil
}

// beforeRun refuses a record the run could not have seen: the household's
// history ends when the graded run starts.
func beforeRun(sc *Scenario, what string, t time.Time) error {
	if !t.Before(sc.today) {
		return fmt.Errorf("%s at %s is not before the run (%s)", what, t.Format(time.DateTime), sc.today.Format(time.DateTime))
	}
	return nil
}

func seedMember(ctx context.Context, sc *Scenario, m MemberSpec, inst *Instance, clk *Clock) error {
	unit := m.Unit
	if unit == "" {
		unit = health.KG
	}
	hm := health.Member{ID: m.ID, Name: m.Name, Unit: unit, Targets: m.Targets, HeightCm: m.HeightCm, Sex: m.Sex,
		ActivityLevel: m.ActivityLevel}
	if hm.Name == "" {
		hm.Name = strings.ToUpper(m.ID[:1]) + m.ID[1:]
	}
	if m.GoalWeight != nil {
		kg := unit.ToKg(*m.GoalWeight)
		hm.GoalWeightKg = &kg
	}
	if m.BirthDate != "" {
		b, err := time.Parse(time.DateOnly, m.BirthDate)
		if err != nil {
			return fmt.Errorf("birth_date: %w", err)
		}
		hm.BirthDate = &b
	}
	db := inst.DB
	if _, err := db.CreateMember(ctx, hm); err != nil {
		return err
	}
	for _, g := range m.Goals {
		hg := health.Goal{MemberID: m.ID, Kind: g.Kind, Description: g.Description, Target: g.Target, Unit: g.Unit, Status: g.Status}
		if g.TargetDate != nil {
			t := sc.dayStart(-*g.TargetDate)
			hg.TargetDate = &t
		}
		if _, err := db.AddGoal(ctx, hg); err != nil {
			return fmt.Errorf("goal %q: %w", g.Description, err)
		}
	}
	for _, w := range m.Weights {
		days := w.list()
		wu := w.Unit
		if wu == "" {
			wu = unit
		}
		for i, n := range days {
			v := w.Value
			if w.ToValue != nil && len(days) > 1 {
				v += (*w.ToValue - w.Value) * float64(i) / float64(len(days)-1)
			}
			kg := float64(int64(wu.ToKg(v)*100+0.5)) / 100
			at := sc.at(n, w.At, "07:00")
			if err := beforeRun(sc, "a weigh-in", at); err != nil {
				return err
			}
			if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: m.ID, MeasuredAt: at, WeightKg: kg}); err != nil {
				return err
			}
		}
	}
	for _, x := range m.Meals {
		for _, n := range x.list() {
			if err := beforeRun(sc, "a meal", sc.at(n, x.At, "12:30")); err != nil {
				return err
			}
			if _, err := db.AddMeal(ctx, health.Meal{MemberID: m.ID, EatenAt: sc.at(n, x.At, "12:30"), Name: x.Name,
				Calories: x.Calories, ProteinG: x.ProteinG, CarbsG: x.CarbsG, FatG: x.FatG}); err != nil {
				return err
			}
		}
	}
	for _, x := range m.Workouts {
		for _, n := range x.list() {
			if err := beforeRun(sc, "a workout", sc.at(n, x.At, "18:00")); err != nil {
				return err
			}
			title := x.Title
			if title == "" {
				title = strings.ToUpper(x.Type[:1]) + x.Type[1:]
			}
			if _, err := db.AddWorkout(ctx, health.Workout{MemberID: m.ID, StartedAt: sc.at(n, x.At, "18:00"), Type: x.Type,
				Title: title, DurationMin: x.Minutes, ContentID: x.ContentID, AvgHR: x.AvgHR}); err != nil {
				return err
			}
		}
	}
	for _, x := range m.BodyScans {
		for _, n := range x.list() {
			bf, lean := x.BodyFatPct, x.LeanMassKg
			if _, err := db.AddBodyScan(ctx, health.BodyScan{MemberID: m.ID, ScannedAt: sc.at(n, "", "09:00"),
				BodyFatPct: &bf, LeanMassKg: &lean}); err != nil {
				return err
			}
		}
	}
	for _, f := range m.Imports {
		kind, err := importer.ParseKind(f.Kind)
		if err != nil {
			return err
		}
		data := expandDates(sc, f.CSV)
		sum, err := importer.Import(ctx, db, importer.Options{Member: m.ID, Kind: kind, Location: sc.loc, Strict: true},
			f.Name, strings.NewReader(data), int64(len(data)))
		if err != nil {
			return fmt.Errorf("import %s: %w", f.Name, err)
		}
		if sum.Added == 0 {
			return fmt.Errorf("import %s added nothing: %+v", f.Name, sum.Problems)
		}
	}
	return nil
}

var datePlaceholder = regexp.MustCompile(`\{\{date:(-?\d+)\}\}`)

// expandDates replaces {{date:-N}} with the date N days before today.
func expandDates(sc *Scenario, s string) string {
	return datePlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(datePlaceholder.FindStringSubmatch(m)[1])
		return sc.dayStart(-n).Format(time.DateOnly)
	})
}

func seedProgram(ctx context.Context, sc *Scenario, m MemberSpec, inst *Instance, clk *Clock) error {
	p := m.Program
	if p == nil {
		return nil
	}
	pattern := p.Pattern
	if pattern == "" {
		pattern = "daily"
	}
	// Declared on its first day at 03:00, or yesterday for a start ahead.
	clk.Set(sc.at(max(p.Start, 1), "", "03:00"))
	if _, err := inst.Programs.Declare(ctx, m.ID, p.ID, sc.dayStart(p.Start).Format(time.DateOnly), pattern); err != nil {
		return err
	}
	if p.Day > 0 {
		ago := 1
		if p.SetAgo != nil {
			ago = *p.SetAgo
		}
		clk.Set(sc.at(ago, "", "03:00"))
		if _, err := inst.Programs.SetDay(ctx, m.ID, p.Day); err != nil {
			return fmt.Errorf("day %d: %w", p.Day, err)
		}
	}
	if p.PausedAgo != nil {
		clk.Set(sc.at(*p.PausedAgo, "", "03:30"))
		if _, err := inst.Programs.Pause(ctx, m.ID, "paused by the member"); err != nil {
			return err
		}
	}
	if p.Completed {
		clk.Set(sc.at(1, "", "21:00"))
		if _, err := inst.Programs.Complete(ctx, m.ID); err != nil {
			return err
		}
	}
	return nil
}

// play performs one timeline event at the clock's time; threads are the
// members' chats so far.
func play(ctx context.Context, inst *Instance, member string, ev Event, threads map[string]int64) (*agent.Run, error) {
	switch {
	case ev.Run:
		r, err := inst.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
			Member: member, Trigger: agent.TriggerSchedule})
		if err != nil {
			return nil, err
		}
		if r.Status == agent.StatusFailed || r.Status == agent.StatusInterrupted {
			return &r, fmt.Errorf("earlier run %s: %s", r.Status, r.Error)
		}
		return &r, nil
	case ev.Answer != nil:
		kind := ev.Answer.Kind
		if kind == "" {
			kind = "tap"
		}
		_, err := inst.Dashboards.RecordAnswer(ctx, member, ev.Answer.Prompt, ev.Answer.Answer, kind, 0)
		return nil, err
	case ev.Memo != nil:
		m, err := inst.Dashboards.AddVoiceMemo(ctx, dashboard.VoiceMemo{MemberID: member, PromptID: ev.Memo.Prompt,
			Path: "voice/eval.webm", MIME: "audio/webm", Size: 1})
		if err != nil {
			return nil, err
		}
		return nil, inst.Dashboards.SetTranscript(ctx, m.ID, ev.Memo.Transcript, false)
	case ev.Chat != nil:
		// Typed by the member on the household screen: the production
		// chat path, Heard included.
		r, err := inst.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Member: member, Message: ev.Chat.Message,
			Thread: threads[member], Trigger: agent.TriggerManual, FromMember: true, Surface: agent.SurfaceKiosk})
		if err != nil {
			return nil, err
		}
		if r.Status != agent.StatusSucceeded && r.Status != agent.StatusFellBack {
			return &r, fmt.Errorf("chat turn %s: %s", r.Status, r.Error)
		}
		threads[member] = *r.ThreadID
		return &r, nil
	}
	return nil, nil
}
