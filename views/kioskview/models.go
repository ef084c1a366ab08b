// Package kioskview holds the kiosk's templ components and their view
// models (household view, dashboard, widgets, sheets, chat, content pages),
// over the shared views core (layout, page frame, form state, program card).
// Components receive plain view models built by web/kiosk; the safety rules
// of the core hold here too: member- and model-written text is only ever
// element text or a plain attribute value, never inside a Datastar
// expression.
package kioskview

import (
	"github.com/a-h/templ"

	"hearth/views"
)

// MemberTile is one member on the household screen.
type MemberTile struct {
	ID, Name, Color, Avatar string
	Glance                  string // one figure, e.g. "81.4 kg"
	GlanceLabel             string // what the figure is, e.g. "−0.6 kg this week"
	Private                 bool
}

// HouseholdPage is the household screen.
type HouseholdPage struct {
	views.Page
	Clock   string // initial clock text, e.g. "07:42"
	Date    string // e.g. "Saturday 14 February"
	Members []MemberTile
	// Alert is the admin badge: something an admin should look at (a
	// failed backup); "" shows nothing.
	Alert string
}

// MemberHead is the member a dashboard belongs to.
type MemberHead struct {
	ID, Name, Color, Avatar, Unit string
	Private                       bool
	// HasPIN: the member unlocks a shared screen with a PIN (else a tap).
	HasPIN bool
	// Locked: this screen leaves the member's private figures out (they
	// are private and not unlocked here); the page carries none of them.
	Locked bool
}

// Dashboard is a member's full dashboard page.
type Dashboard struct {
	views.Page
	Member   MemberHead
	Members  []MemberTile // the switcher
	Tiles    []MemberTile // the household tiles widget (with glance figures)
	Date     string
	Clock    string // the clock widget's first text (hearth.js keeps it current)
	State    StateArea
	Curated  CuratedArea
	Playlist PlaylistWidget
	Catalog  CatalogResults
	Coach    CoachArea
	Sheets   Sheets
	// Screen is the layout the page is arranged by (per screen, not part
	// of the shared model).
	Screen ScreenView
}

// ScreenView is a screen layout as the page uses it: the grid's custom
// properties per orientation and one cell per placed widget.
type ScreenView struct {
	Key   string // slug@version: what the page was rendered with
	Grid  templ.SafeCSS
	Cells []CellView
	// More are the widgets on none of the layout's grids: a tap away in
	// the More sheet.
	More []string
	// MembersCSS hides the switcher's members the screen does not show (a
	// rule, not a filtered list: the switcher is patched from the shared
	// model, the same for every screen). Built from validated member ids.
	MembersCSS string
}

// CellView places one widget: its grid area on each orientation.
type CellView struct {
	Widget string
	Style  templ.SafeCSS
}

// StateArea holds the live-data widgets.
type StateArea struct {
	Weight    WeightWidget
	Nutrition NutritionWidget
	Body      BodyWidget
	Workouts  WorkoutsWidget
}

// WeightWidget is the weight trend.
type WeightWidget struct {
	Locked  bool // private on this screen: nothing else is set
	HasData bool
	// Stale: the newest weigh-in is older than board.StaleDays; Current
	// is that reading and LastWeighIn says when ("Last weighed 14 Mar 2024").
	Stale     bool
	Current   string // "81.4"
	Unit      string // "kg"
	Change7d  string // "−0.6 kg in 7 days"
	Direction string // down | up | flat | ""
	Trend     string // "trend 81.2 kg"
	Goal      string // "goal 75 kg"
	ETA       string // "on pace for Sun 24 Jan" or a note
	// Questioned says a newer reading was set aside as far from the trend
	// (it is not the current weight until confirmed); "" when none.
	Questioned  string
	LastWeighIn string
	History     string // the member's history page, at its weight section
	Chart       Chart
	// Recent are the last weigh-ins, each a row to tap to correct it.
	Recent []EntryRow
}

// EntryRow is a logged entry shown as a row; tapping it opens the sheet
// to correct or delete it (Edit is its validated URL path, "" = not
// editable).
type EntryRow struct {
	When, Text string
	Edit       string
	// Source names where a reading came from when not typed in Hearth
	// ("Home Assistant", "Apple Health"); "" for the member's own.
	Source string
	// Questioned marks a weigh-in the plausibility rule set aside.
	Questioned bool
}

// Chart is a server-rendered SVG line chart (viewBox units).
type Chart struct {
	W, H      float64
	Left      float64 // left edge of the plot (labels sit left of it)
	Empty     bool
	TrendPath string       // SVG path "M x y L x y …"
	Points    []ChartPoint // raw daily values
	Gaps      []ChartGap   // stretches without a weigh-in, shaded
	Goal      *ChartLine   // nil = no goal line
	YTicks    []ChartTick
	XTicks    []ChartTick
	Label     string // accessible summary
}

// ChartGap is a stretch of the plot with no weigh-ins: X and W across,
// Top and H down (viewBox units).
type ChartGap struct{ X, W, Top, H float64 }

// ChartPoint is one dot.
type ChartPoint struct{ X, Y float64 }

// ChartLine is a horizontal reference line.
type ChartLine struct {
	Y     float64
	Label string
	// Off is "above" or "below" when the goal lies outside the plotted range
	// and the line is pinned to that edge.
	Off string
}

// ChartTick is an axis label at a position (Y for the y axis, X for the x axis).
type ChartTick struct {
	Pos    float64
	Label  string
	Anchor string // SVG text-anchor of x labels: start, middle, end
}

// MacroBar is one nutrient against its target.
type MacroBar struct {
	Label  string // "Protein"
	Value  string // "96 g"
	Target string // "of 140 g" or ""
	Pct    int    // 0..100, bar width
	Over   bool
}

// NutritionWidget is today's nutrition.
type NutritionWidget struct {
	HasData bool
	Bars    []MacroBar
	Streak  int
	Meals   []MealRow
	History string // the history page's nutrition section ("" = no link)
}

// MealRow is one meal logged today; Edit opens its correction sheet.
type MealRow struct{ Time, Name, Calories, Edit string }

// BodyWidget is body composition.
type BodyWidget struct {
	Locked   bool // private on this screen: nothing else is set
	HasData  bool
	BodyFat  string
	Lean     string
	Changes  string // "−0.8 % body fat since 12 Nov"
	Measured string
	Edit     string // the latest scan's correction sheet ("" = from a weigh-in)
}

// WorkoutsWidget lists recent workouts.
type WorkoutsWidget struct {
	Rows     []WorkoutRow
	ThisWeek string
	History  string // the history page's workouts section ("" = no link)
}

// WorkoutRow is one workout; Edit opens its correction sheet.
type WorkoutRow struct{ When, Title, Detail, Edit string }

// Chip is the provenance chip of the curated and coach areas.
type Chip struct {
	Text  string
	Stale bool // not today's document
}

// ContentCard is a catalog item as shown on cards and lists.
type ContentCard struct {
	ID       string
	Title    string
	Duration string // "45 min"
	Context  string // program context
	Kind     string
	Thumb    string
	Href     string // the content page
}

// CuratedArea is the "invisible elf" content.
type CuratedArea struct {
	Chip       Chip
	HasDoc     bool
	UpNext     *ContentCard
	UpNextDone string // title of a completed Up Next ("" = not completed)
	Alternates []ContentCard
	Suggestion []ContentCard
	SuggestMin string
	Discover   []ContentCard // onboarding: a few catalog starting points
	// Program is the member's program with its controls (nil: none shown).
	Program *views.ProgramCard
}

// PlaylistWidget is the member's own playlist.
type PlaylistWidget struct {
	MemberID   string
	CSRF       string
	Items      []ContentCard
	Total      string
	CanSuggest bool
}

// CatalogResults is the playlist builder's search result list.
type CatalogResults struct {
	MemberID string
	CSRF     string
	Query    string
	Items    []ContentCard
	// Loaded: the list was searched (the sheet loads it when it opens).
	Loaded bool
}

// CTAView is a call to action with the sheet or page it opens.
type CTAView struct {
	Message string
	Label   string
	Sheet   string // weight | meal | workout | "" (then Href)
	// Day is the past day the CTA asks to fill (YYYY-MM-DD, "" for
	// today): its sheet opens dated on it.
	Day  string
	Href string
}

// PromptView is one coach question and its state.
type PromptView struct {
	ID        string
	Type      string
	Question  string
	Options   []string
	Answer    string // "" = unanswered
	AnswerVia string // tap | text | voice
	// Voice is the state of a recorded memo without an answer: stored | failed | "".
	Voice string
}

// WorkflowPrompt is a question a suspended workflow step asks the member
// (the weekly review's "harder, same or easier?"): a tap resumes the run.
type WorkflowPrompt struct {
	Run      int64
	Step     string // the suspended step's path
	Question string
	// Context is the summary the question refers to, a few short lines.
	Context []string
	Options []string // tapped by index
}

// CoachArea is the coach's voice.
type CoachArea struct {
	MemberID string
	// Locked: the member's figures are private on this screen: no
	// briefing, feedback or message text, no figures in suggestions or
	// question context.
	Locked bool
	// Questions are workflow questions waiting for the member; they share
	// the document prompts' limit of three and come after the first Ahead
	// prompts (those the coach's priority ranks above them: a reading to
	// confirm, an injury follow-up) and before the rest.
	Questions []WorkflowPrompt
	Ahead     int
	CSRF      string
	Chip      Chip
	HasDoc    bool
	Briefing  string
	// BriefingUpdated: a figure in the briefing changed since the coach
	// wrote it and shows its live value.
	BriefingUpdated bool
	CTAs            []CTAView
	Prompts         []PromptView
	Feedback        []string
	Onboarding      bool
	Transcribes     bool
	// CanPrepare offers "prepare my day now" (no plan for today yet).
	CanPrepare bool
	// Messages are the coach's messages not dismissed yet, newest first.
	Messages []MessageView
}

// Sheets are the logging forms over the dashboard.
type Sheets struct {
	MemberID string
	CSRF     string
	Open     string // the sheet shown on first render (after a failed plain post)
	Unit     string
	Weight   views.FormState
	Meal     views.FormState
	Workout  views.FormState
	Scan     views.FormState
	// Now is the household's local time for the date-and-time fields
	// ("2006-01-02T15:04"); hearth.js refreshes it when a sheet opens.
	Now string
	// Entry is the entry being corrected (the "entry" sheet).
	Entry EntrySheet
	// House offers the "Home & TV" sheet (Talos is on this server).
	House bool
	// Plan offers the member's Life plan page (the server keeps life plans).
	Plan bool
}

// EntrySheet corrects or deletes one entry.
type EntrySheet struct {
	Kind   string // weight | meal | workout | body-scan ("" = none open)
	Title  string // "Edit meal"
	Action string // the edit URL (validated path)
	Delete string // the delete URL
	Form   views.FormState
}

// ContentPage plays one catalog item.
type ContentPage struct {
	views.Page
	Item       ContentCard
	Summary    string
	Video      string // local video URL, "" = none
	External   string // external play URL (Plex…), "" = none
	MemberID   string // who taps Done ("" = nobody chosen)
	Members    []MemberTile
	Done       bool
	Next       string // next item in a playlist ("" = none)
	Position   string // "2 of 3" when playing a playlist
	InPlaylist bool
	Index      int // position in the member's playlist when InPlaylist
	Back       string
}

// MessageView is a message from the coach on the dashboard.
type MessageView struct {
	Text    string
	When    string // "today 07:12"
	Dismiss string // the dismiss URL (validated path)
}

// SealedPage is a member's page on a household-only screen before their
// PIN: who it is and the PIN form, nothing else.
type SealedPage struct {
	views.Page
	Member MemberHead
}

// HistoryPage is a member's history: weight, nutrition and workouts over
// a span (1, 3, 12 months or everything).
type HistoryPage struct {
	views.Page
	MemberID, Name, Color string
	Back                  string // the member's dashboard
	Tabs                  []HistoryTab
	Since                 string // "Records since 15 Mar 2014" ("" = none at all)
	Empty                 bool
	EmptyText             string
	AllURL                string // "see everything", when the span is empty but history is not
	Weight                HistoryWeight
	Nutrition, Workouts   HistoryBars
}

// HistoryTab is one span to choose.
type HistoryTab struct {
	Label, URL string
	Current    bool
}

// HistoryWeight is the weight section ("" Count: no weigh-ins in the span).
type HistoryWeight struct {
	Chart   Chart
	Summary string // "Trend 92 kg → 84.1 kg (−7.9 kg)"
	Count   string // "2,931 weigh-ins"
	Last    string // "last 13 Mar 2024"
	Grain   string // "one point per month" on long spans
}

// HistoryBars is a section drawn as bars with its rows (newest first).
type HistoryBars struct {
	Title   string
	Noun    string // what a row is: day, week, month
	Summary string // "" = nothing in the span
	Chart   BarChart
	Rows    []HistoryRow
}

// HistoryRow is one bucket in words.
type HistoryRow struct {
	When, Logged, Kcal, Protein string
	Over                        bool
}

// BarChart is bars over a span with an optional target line.
type BarChart struct {
	W, H, Left     float64
	Empty          bool
	Bars           []Bar
	Target         *ChartLine
	YTicks, XTicks []ChartTick
	Label          string
}

// Bar is one bar (viewBox units) with its value in words.
type Bar struct {
	X, Y, W, H float64
	Title      string
	Over       bool
}
