// Package program keeps each member's workout program state: which catalog
// program they follow, since when, on which weekdays, where they are, what
// they substituted, and whether the program is active, paused, completed or
// abandoned. It is tool-owned fact (the coach reads and writes it through
// tools), not agent memory. Past programs are kept as history.
//
// Schedule model: the member's position (CurrentDay) is the next program day
// to do; it moves only when Advance or SetDay is called, and never rests on a
// program rest day (rest days are passed by the calendar). The schedule says
// which program day falls on a date: each training weekday of the pattern,
// counted from an anchor (the start date, re-anchored on Resume and SetDay),
// is the next program day, rest days of the program included. Today compares
// the two and reports how far behind or ahead the member is. At the
// member's own pace (PaceOwn) today is always the next undone day and
// nothing is behind. Changes committed by Service tell the member's screens
// (Notify).
package program

import (
	"context"
	"time"

	"hearth/internal/content"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Status of a program run.
type Status string

// Program statuses.
const (
	Active    Status = "active"
	Paused    Status = "paused"
	Completed Status = "completed"
	Abandoned Status = "abandoned"
)

// Pace is how a member follows a program.
type Pace string

// Paces.
const (
	// PaceCalendar: each training weekday of the pattern is the next
	// program day; days not done count as behind.
	PaceCalendar Pace = "calendar"
	// PaceOwn: today is always the member's next undone day; nothing is
	// ever behind.
	PaceOwn Pace = "own"
)

// Valid reports whether p is a known pace.
func (p Pace) Valid() bool { return p == PaceCalendar || p == PaceOwn }

// Substitution records that the member did something else on a program day.
type Substitution struct {
	Day int `json:"day"`
	// Original is the program's content id for the day ("" on a rest day).
	Original string `json:"original,omitempty"`
	// Actual is a catalog id or a short free-text description ("30-min bike ride").
	Actual string    `json:"actual"`
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// State is one member's run through one program.
type State struct {
	ID           int64  `json:"id"`
	MemberID     string `json:"member"`
	ProgramID    string `json:"program_id"`
	ProgramTitle string `json:"program_title"`
	Status       Status `json:"status"`
	// StartDate is the declared first day (YYYY-MM-DD, household calendar).
	StartDate string `json:"start_date"`
	// StartsInDays is > 0 while StartDate is in the future.
	StartsInDays int `json:"starts_in_days,omitempty"`
	// CurrentDay is the next program day to do (1-based, never a rest day
	// while active); on completion it stays at the last day reached.
	CurrentDay int `json:"current_day"`
	// DaySince is when the member reached CurrentDay (declared, advanced
	// or set there): a session of that day done since finishes it.
	// Pattern, pace, pause and resume changes leave it alone.
	DaySince  time.Time `json:"day_since"`
	TotalDays int       `json:"total_days"`
	// Pattern is "daily" or the training weekdays, e.g. "mon,tue,thu,fri,sat".
	Pattern      string   `json:"pattern"`
	Pace         Pace     `json:"pace"`
	RestWeekdays []string `json:"rest_weekdays,omitempty"`
	// AnchorDate and AnchorDay pin the schedule: AnchorDay falls on AnchorDate.
	AnchorDate    string         `json:"anchor_date"`
	AnchorDay     int            `json:"anchor_day"`
	Substitutions []Substitution `json:"substitutions,omitempty"`
	Note          string         `json:"note,omitempty"`
	PausedAt      *time.Time     `json:"paused_at,omitempty"`
	EndedAt       *time.Time     `json:"ended_at,omitempty"`
	CreatedAt     time.Time      `json:"created_at"`
	UpdatedAt     time.Time      `json:"updated_at"`
}

// Catalog is what the service needs from the content catalog.
type Catalog interface {
	Program(ctx context.Context, id string) (content.Program, error)
	Get(ctx context.Context, id string) (content.Item, error)
}

var _ Catalog = (*content.Catalog)(nil)

// Service reads and changes program state.
type Service struct {
	db  *store.DB
	cat Catalog
	loc *time.Location
	pub live.Publisher // nil: screens are not told
}

// Notify makes the service tell the member's screens (live.KindProgram)
// after every change it commits, and returns it.
func (s *Service) Notify(pub live.Publisher) *Service {
	s.pub = pub
	return s
}

// changed tells the member's screens once tx has committed.
func (s *Service) changed(tx *store.Tx, member string) {
	if s.pub != nil && member != "" {
		tx.AfterCommit(func() { s.pub.Publish(live.MemberTopic(member), live.KindProgram, nil) })
	}
}

// New returns the service. loc is the household time zone (nil = UTC); it
// decides what "today" is for Declare, Resume and SetDay. Timestamps come
// from db.Now.
func New(db *store.DB, cat Catalog, loc *time.Location) *Service {
	if loc == nil {
		loc = time.UTC
	}
	return &Service{db: db, cat: cat, loc: loc}
}

func (s *Service) today() time.Time { return civil(s.db.Now(), s.loc) }
