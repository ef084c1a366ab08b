package eval

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/coach"
	"hearth/internal/health"
)

// Scenario is one household situation, the day the coach plans, and what
// a good plan must and must not do. One JSON file each under scenarios/.
type Scenario struct {
	// ID is the file name without ".json".
	ID          string `json:"-"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Covers names what the scenario exercises: "stress:N" (the seed
	// design's review, stress test N), "rule:…" (a heuristic planner
	// rule), "issue:N" (an observation of that issue), "mutant:NAME" (a
	// broken coach, coach.Mutant, it must fail: TestCoachMutantsAreKilled).
	Covers []string `json:"covers"`
	// Today is the planned day (default DefaultToday), Time the run's time
	// of day (default "04:00", the daily schedule), TZ the household time
	// zone (default UTC).
	Today string `json:"today,omitempty"`
	Time  string `json:"time,omitempty"`
	TZ    string `json:"tz,omitempty"`
	// Catalog is the content catalog (default: the demo catalog).
	Catalog CatalogSpec `json:"catalog"`
	// Members are the household; Subject is whose plan is graded (default
	// the first member).
	Members []MemberSpec `json:"members"`
	Subject string       `json:"subject,omitempty"`
	// Timeline are things that happened before the graded run, in order:
	// earlier coach runs, answers to their prompts, voice memos, memory.
	Timeline []Event `json:"timeline,omitempty"`
	// BudgetTokens sets the day's model token budget (0 = unlimited).
	BudgetTokens int64 `json:"budget_tokens,omitempty"`
	// KnownGaps marks generic graders (GraderSchema, …) the heuristic coach
	// is known to miss in this scenario: grader name → why.
	KnownGaps map[string]string `json:"known_gaps,omitempty"`
	// Expect are the scenario's own checks.
	Expect []Expectation `json:"expect"`
	// Paraphrase is the built-in coach's plan in other words, which must
	// pass, with one wrong fact, which must fail (RunParaphrases).
	Paraphrase *Paraphrase `json:"paraphrase,omitempty"`

	today time.Time // Today at Time in TZ
	loc   *time.Location
}

// DefaultToday is the day scenarios plan unless they say otherwise: a
// Wednesday, so "this week" has history and the week is not over.
const DefaultToday = "2026-02-18"

// CatalogSpec says which content the household has.
type CatalogSpec struct {
	// NoDemo leaves the demo catalog out.
	NoDemo bool `json:"no_demo,omitempty"`
	// DropKinds removes the demo catalog's standalone items of these kinds
	// ("a catalog without cool-downs").
	DropKinds []string `json:"drop_kinds,omitempty"`
	// Add is a catalog file (internal/content/README.md) imported on top.
	Add json.RawMessage `json:"add,omitempty"`
}

// MemberSpec is one member and their history. Days count back from
// today (0 = today, 1 = yesterday).
type MemberSpec struct {
	ID            string      `json:"id"`
	Name          string      `json:"name"`
	Unit          health.Unit `json:"unit,omitempty"`
	Sex           string      `json:"sex,omitempty"`
	HeightCm      *float64    `json:"height_cm,omitempty"`
	BirthDate     string      `json:"birth_date,omitempty"`
	ActivityLevel string      `json:"activity_level,omitempty"`
	// GoalWeight is in the member's unit.
	GoalWeight *float64       `json:"goal_weight,omitempty"`
	Targets    health.Targets `json:"targets"`
	Goals      []GoalSpec     `json:"goals,omitempty"`
	Weights    []WeightSeries `json:"weights,omitempty"`
	Meals      []MealSeries   `json:"meals,omitempty"`
	Workouts   []WorkoutSpec  `json:"workouts,omitempty"`
	BodyScans  []ScanSpec     `json:"body_scans,omitempty"`
	Program    *ProgramSpec   `json:"program,omitempty"`
	// Memory are working-memory entries the coach holds (as an admin sets them).
	Memory []MemorySpec `json:"memory,omitempty"`
	// Imports are files imported through the real importer.
	Imports []ImportSpec `json:"imports,omitempty"`
}

// Days is a run of days back from today: From down to To (From >= To),
// every Every days (default 1), without Skip.
type Days struct {
	Day   *int  `json:"day,omitempty"`
	From  int   `json:"from,omitempty"`
	To    int   `json:"to,omitempty"`
	Every int   `json:"every,omitempty"`
	Skip  []int `json:"skip,omitempty"`
}

// list returns the days ago, oldest first.
func (d Days) list() []int {
	if d.Day != nil {
		return []int{*d.Day}
	}
	step := max(d.Every, 1)
	var out []int
	for n := d.From; n >= d.To; n -= step {
		if !slices.Contains(d.Skip, n) {
			out = append(out, n)
		}
	}
	return out
}

func (d Days) check() error {
	switch {
	case d.Day != nil && (d.From != 0 || d.To != 0):
		return errors.New("give day or from/to, not both")
	case d.Day != nil && *d.Day < 0, d.From < 0, d.To < 0:
		return errors.New("days count back from today and cannot be negative")
	case d.Day == nil && d.From < d.To:
		return fmt.Errorf("from (%d days ago) must not be after to (%d)", d.From, d.To)
	case d.Every < 0:
		return errors.New("every must be positive")
	}
	return nil
}

// WeightSeries are weigh-ins on Days, at At (default 07:00): Value on the
// first day moving linearly to ToValue (default Value) on the last, in Unit
// (default the member's).
type WeightSeries struct {
	Days
	Value   float64     `json:"value"`
	ToValue *float64    `json:"to_value,omitempty"`
	Unit    health.Unit `json:"unit,omitempty"`
	At      string      `json:"at,omitempty"`
}

// MealSeries is one meal on each of Days, at At (default 12:30).
type MealSeries struct {
	Days
	Name     string  `json:"name"`
	Calories float64 `json:"kcal"`
	ProteinG float64 `json:"protein_g"`
	CarbsG   float64 `json:"carbs_g"`
	FatG     float64 `json:"fat_g"`
	At       string  `json:"at,omitempty"`
}

// WorkoutSpec is a workout on each of Days, at At (default 18:00).
type WorkoutSpec struct {
	Days
	Type      string  `json:"type"`
	Title     string  `json:"title,omitempty"`
	Minutes   float64 `json:"minutes"`
	ContentID string  `json:"content_id,omitempty"`
	AvgHR     *int    `json:"avg_hr,omitempty"`
	At        string  `json:"at,omitempty"`
}

// ScanSpec is a body-composition scan (kg figures).
type ScanSpec struct {
	Days
	BodyFatPct float64 `json:"body_fat_pct"`
	LeanMassKg float64 `json:"lean_mass_kg"`
}

// GoalSpec is a goal; TargetDate counts days from today (negative: past).
type GoalSpec struct {
	Kind        string   `json:"kind"`
	Description string   `json:"description"`
	Target      *float64 `json:"target,omitempty"`
	Unit        string   `json:"unit,omitempty"`
	TargetDate  *int     `json:"target_in_days,omitempty"`
	Status      string   `json:"status,omitempty"`
}

// ProgramSpec puts the member on a program: declared to start Start days
// ago (negative: ahead) on Pattern, then (the day before today unless SetAgo
// says) moved to Day, paused PausedAgo days ago, or completed.
type ProgramSpec struct {
	ID        string `json:"id"`
	Start     int    `json:"start_days_ago"`
	Pattern   string `json:"pattern,omitempty"`
	Day       int    `json:"day,omitempty"`
	SetAgo    *int   `json:"set_days_ago,omitempty"`
	PausedAgo *int   `json:"paused_days_ago,omitempty"`
	Completed bool   `json:"completed,omitempty"`
}

// MemorySpec is one working-memory entry of the coach, written an hour
// before the run or SetAgo days before (at 09:00), with a TTL in hours (0:
// none).
type MemorySpec struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	TTLHours int    `json:"ttl_hours,omitempty"`
	SetAgo   *int   `json:"set_days_ago,omitempty"`
}

// ImportSpec is a file imported for the member. In CSV text, {{date:-N}}
// is the date N days before today (YYYY-MM-DD).
type ImportSpec struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
	CSV  string `json:"csv"`
}

// Event is one thing that happened before the graded run: Day days ago at
// At (default 04:00 for runs, 08:00 otherwise), exactly one of Run,
// Answer, Memo, Chat.
type Event struct {
	Day    int          `json:"day"`
	At     string       `json:"at,omitempty"`
	Member string       `json:"member,omitempty"`
	Run    bool         `json:"run,omitempty"`
	Answer *AnswerEvent `json:"answer,omitempty"`
	Memo   *MemoEvent   `json:"memo,omitempty"`
	Chat   *ChatEvent   `json:"chat,omitempty"`
}

// AnswerEvent answers a prompt of the member's newest plan.
type AnswerEvent struct {
	Prompt string `json:"prompt"`
	Answer string `json:"answer"`
	// Kind is tap (default), text or voice.
	Kind string `json:"kind,omitempty"`
}

// MemoEvent is a transcribed voice memo (Prompt "" = recorded on its own).
type MemoEvent struct {
	Prompt     string `json:"prompt,omitempty"`
	Transcript string `json:"transcript"`
}

// ChatEvent is a message the member types in their chat on the household
// screen (one conversation per member through the timeline). The coach's
// replies are field "chat" of the fact checks.
type ChatEvent struct {
	Message string `json:"message"`
}

//go:embed scenarios/*.json
var builtin embed.FS

// Scenarios loads the built-in suite (internal/eval/scenarios).
func Scenarios() ([]*Scenario, error) {
	sub, err := fs.Sub(builtin, "scenarios")
	if err != nil {
		return nil, err
	}
	return LoadDir(sub)
}

// LoadDir loads every *.json scenario in fsys, sorted by id.
func LoadDir(fsys fs.FS) ([]*Scenario, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*Scenario
	var errs []error
	for _, n := range names {
		raw, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		sc, err := Parse(strings.TrimSuffix(path.Base(n), ".json"), raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sc)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

var scenarioID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,79}$`)

// Parse reads and checks one scenario file. Unknown fields are errors.
func Parse(id string, raw []byte) (*Scenario, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("scenario %s: %s", id, fmt.Sprintf(format, args...))
	}
	if !scenarioID.MatchString(id) {
		return nil, fail("the file name must be lowercase letters, digits and dashes")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	sc := &Scenario{}
	if err := dec.Decode(sc); err != nil {
		return nil, fail("%v", err)
	}
	sc.ID = id
	if err := sc.prepare(); err != nil {
		return nil, fail("%v", err)
	}
	return sc, nil
}

// clockOf reads "HH:MM".
func clockOf(s, def string) (time.Duration, error) {
	if s == "" {
		s = def
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("time %q: want HH:MM", s)
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

func (sc *Scenario) prepare() error {
	if strings.TrimSpace(sc.Title) == "" {
		return errors.New("title is required")
	}
	if len(sc.Covers) == 0 {
		return errors.New("covers must name what the scenario exercises")
	}
	for _, c := range sc.Covers {
		if m, ok := strings.CutPrefix(c, MutantCover); ok && !slices.Contains(coach.Mutants(), coach.Mutant(m)) {
			return fmt.Errorf("covers %q: no such coach mutant", c)
		}
	}
	tz := sc.TZ
	if tz == "" {
		tz = "UTC"
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return fmt.Errorf("tz: %w", err)
	}
	sc.loc = loc
	day := sc.Today
	if day == "" {
		day = DefaultToday
	}
	d, err := time.ParseInLocation(time.DateOnly, day, loc)
	if err != nil {
		return fmt.Errorf("today %q: want YYYY-MM-DD", day)
	}
	at, err := clockOf(sc.Time, "04:00")
	if err != nil {
		return err
	}
	sc.today = d.Add(at)
	if len(sc.Members) == 0 {
		return errors.New("a household needs at least one member")
	}
	ids := map[string]bool{}
	for i, m := range sc.Members {
		if !health.ValidMemberID(m.ID) || ids[m.ID] {
			return fmt.Errorf("members[%d]: id %q is not a valid, unique member id", i, m.ID)
		}
		ids[m.ID] = true
		if err := m.check(); err != nil {
			return fmt.Errorf("member %s: %w", m.ID, err)
		}
	}
	if sc.Subject == "" {
		sc.Subject = sc.Members[0].ID
	}
	if !ids[sc.Subject] {
		return fmt.Errorf("subject %q is not a member", sc.Subject)
	}
	for i, ev := range sc.Timeline {
		if err := ev.check(ids); err != nil {
			return fmt.Errorf("timeline[%d]: %w", i, err)
		}
		if i > 0 && ev.when(sc).Before(sc.Timeline[i-1].when(sc)) {
			return fmt.Errorf("timeline[%d]: events must be in time order", i)
		}
		if !ev.when(sc).Before(sc.today) {
			return fmt.Errorf("timeline[%d]: events happen before the graded run (%s)", i, sc.today.Format(time.DateTime))
		}
	}
	for g := range sc.KnownGaps {
		if !slices.Contains(GenericGraders(), g) {
			return fmt.Errorf("known_gaps: %q is not a generic grader (%s)", g, strings.Join(GenericGraders(), ", "))
		}
		if strings.TrimSpace(sc.KnownGaps[g]) == "" {
			return fmt.Errorf("known_gaps: %q needs a reason", g)
		}
	}
	if len(sc.Expect) == 0 {
		return errors.New("expect must hold at least one expectation")
	}
	for i := range sc.Expect {
		if err := sc.Expect[i].check(); err != nil {
			return fmt.Errorf("expect[%d] (%s): %w", i, sc.Expect[i].Check, err)
		}
		sc.Expect[i].setToday(sc.today)
	}
	if p := sc.Paraphrase; p != nil {
		if err := p.check(); err != nil {
			return fmt.Errorf("paraphrase: %w", err)
		}
	}
	if len(sc.Catalog.Add) > 0 && !json.Valid(sc.Catalog.Add) {
		return errors.New("catalog.add is not JSON")
	}
	return nil
}

func (m MemberSpec) check() error {
	if m.Unit != "" && m.Unit != health.KG && m.Unit != health.LB {
		return fmt.Errorf("unit %q: kg or lb", m.Unit)
	}
	for i, w := range m.Weights {
		if err := w.check(); err != nil {
			return fmt.Errorf("weights[%d]: %w", i, err)
		}
		if w.Value <= 0 {
			return fmt.Errorf("weights[%d]: value is required", i)
		}
	}
	for i, x := range m.Meals {
		if err := x.check(); err != nil {
			return fmt.Errorf("meals[%d]: %w", i, err)
		}
	}
	for i, x := range m.Workouts {
		if err := x.check(); err != nil {
			return fmt.Errorf("workouts[%d]: %w", i, err)
		}
	}
	for i, x := range m.BodyScans {
		if err := x.check(); err != nil {
			return fmt.Errorf("body_scans[%d]: %w", i, err)
		}
	}
	if p := m.Program; p != nil && p.ID == "" {
		return errors.New("program: id is required")
	}
	return nil
}

func (ev Event) check(members map[string]bool) error {
	n := 0
	for _, set := range []bool{ev.Run, ev.Answer != nil, ev.Memo != nil, ev.Chat != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New("an event is exactly one of run, answer, memo or chat")
	}
	if ev.Member != "" && !members[ev.Member] {
		return fmt.Errorf("member %q is not in the household", ev.Member)
	}
	if ev.Day < 0 {
		return errors.New("day counts back from today")
	}
	if _, err := clockOf(ev.At, "04:00"); err != nil {
		return err
	}
	if a := ev.Answer; a != nil && (a.Prompt == "" || a.Answer == "") {
		return errors.New("an answer needs prompt and answer")
	}
	if m := ev.Memo; m != nil && strings.TrimSpace(m.Transcript) == "" {
		return errors.New("a memo needs a transcript")
	}
	if c := ev.Chat; c != nil && strings.TrimSpace(c.Message) == "" {
		return errors.New("a chat needs a message")
	}
	return nil
}

// when is the event's time.
func (ev Event) when(sc *Scenario) time.Time {
	def := "08:00"
	if ev.Run {
		def = "04:00"
	}
	at, _ := clockOf(ev.At, def)
	return sc.dayStart(ev.Day).Add(at)
}

// dayStart is midnight n days before today, household time.
func (sc *Scenario) dayStart(n int) time.Time {
	y, m, d := sc.today.Date()
	return time.Date(y, m, d-n, 0, 0, 0, 0, sc.loc)
}

// At is the scenario's time at clock on the day n days before today.
func (sc *Scenario) at(n int, clock, def string) time.Time {
	d, err := clockOf(clock, def)
	if err != nil {
		d, _ = clockOf(def, "00:00")
	}
	return sc.dayStart(n).Add(d)
}

// Now is when the graded run happens.
func (sc *Scenario) Now() time.Time { return sc.today }

// Location is the household time zone.
func (sc *Scenario) Location() *time.Location { return sc.loc }

// Member returns the member spec by id.
func (sc *Scenario) Member(id string) MemberSpec {
	for _, m := range sc.Members {
		if m.ID == id {
			return m
		}
	}
	return MemberSpec{}
}

// MaxFilter caps a scenario filter's length.
const MaxFilter = 200

// Select keeps the scenarios whose id matches the regular expression only
// ("" keeps all); Invalid when it does not compile or matches none.
func Select(scs []*Scenario, only string) ([]*Scenario, error) {
	if only == "" {
		return scs, nil
	}
	if len(only) > MaxFilter {
		return nil, apperr.Invalidf("the scenario filter is longer than %d characters", MaxFilter)
	}
	re, err := regexp.Compile(only)
	if err != nil {
		return nil, apperr.Invalidf("the scenario filter is not a regular expression: %v", err)
	}
	var keep []*Scenario
	for _, sc := range scs {
		if re.MatchString(sc.ID) {
			keep = append(keep, sc)
		}
	}
	if len(keep) == 0 {
		return nil, apperr.Invalidf("no scenario id matches %q", only)
	}
	return keep, nil
}
