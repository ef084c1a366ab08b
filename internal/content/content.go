// Package content is the catalog of workout content: items (videos and
// sessions a member can play), programs with day-by-day schedules, the
// catalog file importer, the Plex source and the embedded demo catalog.
//
// Items and programs live in SQLite (migration 00020). Imports upsert by id
// and never delete, so dashboards and workouts that name an item keep working.
package content

import (
	"slices"
	"strconv"
	"strings"
)

// Kind says what role an item plays in a session.
type Kind = string

// Known item kinds; imports reject any other.
const (
	KindWarmUp   Kind = "warm-up"
	KindMain     Kind = "main"
	KindCoolDown Kind = "cool-down"
	KindStretch  Kind = "stretch"
	KindCardio   Kind = "cardio"
	KindYoga     Kind = "yoga"
	KindStrength Kind = "strength"
	KindHIIT     Kind = "hiit"
	KindMobility Kind = "mobility"
	KindCore     Kind = "core"
	KindPilates  Kind = "pilates"
	KindRecovery Kind = "recovery"
	KindDance    Kind = "dance"
	KindWalk     Kind = "walk"
)

var kinds = []Kind{KindWarmUp, KindMain, KindCoolDown, KindStretch, KindCardio, KindYoga, KindStrength,
	KindHIIT, KindMobility, KindCore, KindPilates, KindRecovery, KindDance, KindWalk}

// Kinds returns the known kinds in a stable order.
func Kinds() []Kind { return slices.Clone(kinds) }

// ValidKind reports whether k is a known kind.
func ValidKind(k string) bool { return slices.Contains(kinds, k) }

// Sources an item or program can come from (set by the importer).
const (
	SourceFile = "file"
	SourceDemo = "demo"
	SourcePlex = "plex"
)

// Item is one playable piece of content.
type Item struct {
	// ID is "local:<name>" or "plex:<ratingKey>".
	ID    string `json:"id"`
	Title string `json:"title"`
	// Program is the id of the program the item belongs to, "" for standalone items.
	Program string `json:"program,omitempty"`
	// Day is the episode or day number within Program, 0 if none.
	Day int `json:"day,omitempty"`
	// DurationMin is the length in whole minutes, > 0.
	DurationMin int  `json:"duration"`
	Kind        Kind `json:"kind"`
	// Thumbnail is a URL or a /static path the kiosk can render; never carries a secret.
	Thumbnail string `json:"thumbnail,omitempty"`
	// PlayURL opens the content: /content/<id> for local items, the Plex web app for Plex items.
	PlayURL string   `json:"play_url,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Summary string   `json:"summary,omitempty"`
	// Intensity (low, moderate, high), Impact (low, high) and Areas (the
	// body areas it loads) are what the catalog states; "" and nil are
	// unstated and guessed from the kind by Meta.
	Intensity string   `json:"intensity,omitempty"`
	Impact    string   `json:"impact,omitempty"`
	Areas     []string `json:"areas,omitempty"`
	// MetaEdited is set when an admin edited the metadata in the catalog
	// page: imports and Plex syncs then keep it.
	MetaEdited bool `json:"-"`
	// Source is where the item came from (file, demo, plex); set by the importer.
	Source string `json:"source,omitempty"`
	// SourceThumb is the token-free thumbnail path on the source server (Plex).
	// Server-side only: fetch it with PlexClient.OpenThumb, never render it.
	SourceThumb string `json:"-"`
	// MediaPath is the token-free media part path on the source server (Plex).
	MediaPath string `json:"-"`
}

// Day is one day of a program's schedule.
type Day struct {
	Day int `json:"day"`
	// ContentID names the item for the day; empty on rest days.
	ContentID string `json:"content_id,omitempty"`
	Rest      bool   `json:"rest,omitempty"`
	Note      string `json:"note,omitempty"`
}

// Program is a named day-by-day schedule over catalog items.
type Program struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Days        []Day  `json:"days"`
	// Source is where the program came from; set by the importer.
	Source string `json:"source,omitempty"`
}

// TrainingDays counts the program's non-rest days.
func (p Program) TrainingDays() int {
	n := 0
	for _, d := range p.Days {
		if !d.Rest {
			n++
		}
	}
	return n
}

// ProgramInfo summarises a program without its schedule.
type ProgramInfo struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Description  string `json:"description,omitempty"`
	Source       string `json:"source,omitempty"`
	TotalDays    int    `json:"total_days"`
	TrainingDays int    `json:"training_days"`
}

// ScheduledDay is one program day resolved against the catalog.
type ScheduledDay struct {
	ProgramID    string `json:"program_id"`
	ProgramTitle string `json:"program_title"`
	Day          int    `json:"day"`
	TotalDays    int    `json:"total_days"`
	Rest         bool   `json:"rest,omitempty"`
	Note         string `json:"note,omitempty"`
	// Item is the day's content; nil on rest days.
	Item *Item `json:"item,omitempty"`
}

// WeekLabel renders a program day as "Week 4, Day 2" (7-day weeks).
func WeekLabel(day int) string {
	if day < 1 {
		return ""
	}
	return "Week " + strconv.Itoa((day-1)/7+1) + ", Day " + strconv.Itoa((day-1)%7+1)
}

// Slug turns a title into an id fragment: lower case, [a-z0-9-], at most 60 runes.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if b.Len() >= 60 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
