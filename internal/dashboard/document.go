// Package dashboard holds the per-member daily dashboard document the coach
// writes (DESIGN §2), its JSON Schema (also the model's structured-output
// schema), domain validation, storage with history, prompt answers, voice
// memos, "consumed" marks for content and playlists.
//
// It is also the dashboard's read model: Store.Today returns a member's
// document for today with the staleness rules applied against live data
// (finished Up Next, workouts that finish content, every call to action
// re-checked for what it asks, quoted briefing figures brought up to date,
// answered prompts, voice memos awaiting a transcript, onboarding nudges
// before the first document; live.go); screens only map it to view models. Writes
// tell the member's screens after they commit (PutTx in the caller's
// transaction through store.Tx.AfterCommit); a playlist edit is one
// transaction (EditPlaylist), so two screens cannot lose each other's edit.
package dashboard

import (
	_ "embed"
	"encoding/json"
	"time"
)

// Document is one member's curated and coach content for one day.
type Document struct {
	GeneratedAt time.Time `json:"generated_at"`
	Curated     Curated   `json:"curated"`
	Coach       Coach     `json:"coach"`
	// GoalPaceHeld says the coach holds back any pace toward a lower goal
	// weight (a health condition, a minor, low body weight or intake), so
	// the screen's weight widget does too: one screen, one stance. The
	// coach's act step sets it; it is stored in its own column, never in
	// the JSON a model writes and schema.json describes.
	GoalPaceHeld bool `json:"-"`
}

// Curated is the "invisible elf" content: no agent voice.
type Curated struct {
	UpNext             UpNext       `json:"up_next"`
	PlaylistSuggestion []ContentRef `json:"playlist_suggestion"`
}

// UpNext is the main suggestion and its alternates.
type UpNext struct {
	Primary    *ContentRef  `json:"primary"`
	Alternates []ContentRef `json:"alternates"`
}

// ContentRef points at a catalog item. Title and Duration must match the catalog.
type ContentRef struct {
	ContentID      string `json:"content_id"`
	Title          string `json:"title"`
	Duration       int    `json:"duration"`
	ProgramContext string `json:"program_context"`
	Reason         string `json:"reason"`
}

// Coach is the coach's voice: briefing, calls to action, prompts, feedback.
type Coach struct {
	Briefing string   `json:"briefing"`
	CTA      []CTA    `json:"cta"`
	Prompts  []Prompt `json:"prompts"`
	Feedback []string `json:"feedback"`
}

// CTA types and actions the kiosk knows how to open.
const (
	CTADataGap = "data_gap"
	CTAHabit   = "habit"
	CTAProgram = "program"

	ActionOpenWeight    = "open_weight"
	ActionOpenNutrition = "open_nutrition"
	ActionOpenWorkout   = "open_workout"
	ActionPlayUpNext    = "play_up_next"
)

// MaxCTAs is the most calls to action a good plan holds, the most important
// first: more is nagging. The heuristic coach keeps to it, the model is told
// it, and the evals grade it (GraderCTALimit). schema.json allows one more
// (maxItems 4): a model's fourth call to action is marked down by the evals,
// not thrown away with the whole plan.
const MaxCTAs = 3

// MaxPrompts is the most prompts the coach column shows, the document's
// and waiting workflow questions together, taken in the coach's one
// priority (coach.PromptPriority): the coach writes at most this many, the
// model is told it, and the kiosk keeps to it when it adds workflow
// questions. schema.json allows one more, as for calls to action.
const MaxPrompts = 3

// CTA is a call to action with the screen action it opens. Record, Day
// and Macro say what it asks for, as data: the kiosk hides it once live
// data holds that (ctaDone), whatever the message's words. Documents
// stored before they existed leave them empty (Subject derives them).
type CTA struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Action  string `json:"action"`
	Record  string `json:"record"`
	Day     string `json:"day"`
	Macro   string `json:"macro"`
}

// MarshalJSON writes the subject fields, derived (Subject) when a CTA
// built in Go or read from an old document has none, so every stored or
// re-sent document carries them and validates against the schema.
func (c CTA) MarshalJSON() ([]byte, error) {
	type plain CTA
	s := c.Subject()
	c.Record, c.Day, c.Macro = s.Record, s.Day, s.Macro
	return json.Marshal(plain(c))
}

// CTA subjects: the kind of entry that answers a call to action (Record),
// the day it must be for (Day: the document's day or, for meals, the
// household's today; the day before the document's; or any entry at all),
// and for a nutrition call the macro whose daily target must be reached
// (Macro; none: any meal).
const (
	RecordWeight  = "weight"
	RecordMeal    = "meal"
	RecordWorkout = "workout"
	RecordUpNext  = "up_next"

	DayToday     = "today"
	DayYesterday = "yesterday"
	DayAny       = "any"

	MacroNone     = "none"
	MacroCalories = "calories"
	MacroProtein  = "protein"
	MacroCarbs    = "carbs"
	MacroFat      = "fat"
)

// Prompt types.
const (
	PromptMultipleChoice = "multiple_choice"
	PromptVoiceMemo      = "voice_memo"
	PromptText           = "text"
)

// Prompt is a question the member answers with a tap, text or a voice memo.
type Prompt struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Question string   `json:"question"`
	Options  []string `json:"options"`
}

// ContentIDs lists every content id the document references.
func (d Document) ContentIDs() []string {
	var ids []string
	if p := d.Curated.UpNext.Primary; p != nil {
		ids = append(ids, p.ContentID)
	}
	for _, a := range d.Curated.UpNext.Alternates {
		ids = append(ids, a.ContentID)
	}
	for _, p := range d.Curated.PlaylistSuggestion {
		ids = append(ids, p.ContentID)
	}
	return ids
}

// Prompt returns the prompt with the id.
func (d Document) Prompt(id string) (Prompt, bool) {
	for _, p := range d.Coach.Prompts {
		if p.ID == id {
			return p, true
		}
	}
	return Prompt{}, false
}

//go:embed schema.json
var schemaJSON []byte

// SchemaMap returns the document's JSON Schema (strict-mode compatible:
// every property required, no additional properties) as a map, the form
// runtimes take.
func SchemaMap() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(schemaJSON, &m); err != nil {
		panic("dashboard: embedded schema is not JSON: " + err.Error())
	}
	return m
}
