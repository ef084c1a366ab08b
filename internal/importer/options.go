package importer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
)

// Kind says what a file holds.
type Kind string

// File kinds; KindAuto detects the kind from the content.
const (
	KindAuto        Kind = "auto"
	KindApple       Kind = "apple"
	KindCSVWeight   Kind = "csv-weight"
	KindCSVMeals    Kind = "csv-meals"
	KindCSVWorkouts Kind = "csv-workouts"
	// KindCSVBodyScans reads body scans (Hearth's own export writes them).
	KindCSVBodyScans Kind = "csv-body-scans"
	// KindZip is the summary of a zip of CSV files (zip.go): each file is
	// imported as a file of its own. It is not a kind to choose.
	KindZip Kind = "zip"
)

// Record sources written by the importer.
const (
	SourceApple = "apple_health"
	SourceCSV   = "csv"
)

// ParseKind reads a kind name; "" and "csv" mean auto-detection.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case "", "csv":
		return KindAuto, nil
	case KindAuto, KindApple, KindCSVWeight, KindCSVMeals, KindCSVWorkouts, KindCSVBodyScans:
		return k, nil
	}
	return "", apperr.Invalidf("unknown import kind %q (want auto, apple, csv-weight, csv-meals, csv-workouts or csv-body-scans)", s)
}

func (k Kind) isCSV() bool {
	return k == KindCSVWeight || k == KindCSVMeals || k == KindCSVWorkouts || k == KindCSVBodyScans
}

// Options say whose data a file is and how to read it.
type Options struct {
	// Member is the id of an existing member who receives the records.
	Member string
	// Kind is the file kind; "" means KindAuto.
	Kind Kind
	// Location is the household time zone for CSV times written without an
	// offset; nil means time.Local. Apple records carry their own offsets.
	Location *time.Location
	// Unit is the weight unit of a CSV file that does not state its own
	// (MyFitnessPal's Measurement-Summary, Strong's bare Weight and Distance
	// columns); "" means the member's unit. The summary says which was used.
	Unit health.Unit
	// Strict keeps the all-or-nothing rule: a file with any bad record
	// imports nothing. By default bad records are rejected one by one,
	// listed with their lines, and the others import.
	Strict bool
	// Progress, when set, is called at most about ten times a second while
	// the file is read, and once more when it is done.
	Progress func(Progress)
	// Publisher, when set, tells the member's screens and the household
	// view once records were committed (a CLI import has none: another
	// process).
	Publisher live.Publisher
	// MaxBytes caps the uncompressed size read (0: DefaultMaxBytes).
	MaxBytes int64
}

// ParseUnit reads a weight unit option: "kg", "lb" (or "lbs"), or "" /
// "auto" for the member's unit.
func ParseUnit(s string) (health.Unit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto", "member":
		return "", nil
	case "kg", "kgs":
		return health.KG, nil
	case "lb", "lbs":
		return health.LB, nil
	}
	return "", apperr.Invalidf("unknown unit %q (want kg or lb)", s)
}

// Progress reports how far an import has come.
type Progress struct {
	File       string `json:"file"`
	BytesRead  int64  `json:"bytes_read"`
	BytesTotal int64  `json:"bytes_total"` // 0 when unknown
	Records    int64  `json:"records"`     // elements or rows seen so far
	Done       bool   `json:"done"`
}

// Percent is the share of bytes read, 0-100, or -1 when the total is unknown.
func (p Progress) Percent() float64 {
	if p.BytesTotal <= 0 {
		return -1
	}
	return min(100, float64(p.BytesRead)*100/float64(p.BytesTotal))
}

// TypeCount counts one record type of a file.
type TypeCount struct {
	Added     int `json:"added"`
	Updated   int `json:"updated,omitempty"`
	Duplicate int `json:"duplicate"`
	Repeated  int `json:"repeated,omitempty"`
	Kept      int `json:"kept,omitempty"`
	Rejected  int `json:"rejected"`
}

// Summary is the outcome of importing one file. When the import failed the
// added and duplicate counts are zero (nothing was kept) and Problems says why.
//
// Added, Updated, SkippedDuplicate and KeptEdits count entries (a meal, a
// workout, a weigh-in; for Apple, each record): new, changed in place from a
// corrected file, already imported with the same values, or left as the
// member edited (or deleted) it. RepeatedInFile counts records that were
// exact repeats of another inside the same file.
type Summary struct {
	ImportID         int64                `json:"import_id"`
	File             string               `json:"file"`
	Kind             Kind                 `json:"kind"`
	Profile          string               `json:"profile,omitempty"` // the app whose export this is, e.g. "Strong"
	Unit             health.Unit          `json:"unit,omitempty"`    // weight unit assumed for a file that does not state it
	Added            int                  `json:"added"`
	Updated          int                  `json:"updated"`
	SkippedDuplicate int                  `json:"skipped_duplicate"`
	KeptEdits        int                  `json:"kept_edits"`
	RepeatedInFile   int                  `json:"repeated_in_file"`
	SkippedUnknown   int                  `json:"skipped_unknown"`
	Rejected         int                  `json:"rejected"`
	Types            map[string]TypeCount `json:"types,omitempty"`   // by Apple type or CSV kind
	Unknown          map[string]int       `json:"unknown,omitempty"` // skipped types (first 100 distinct names)
	MealsCreated     int                  `json:"meals_created"`     // Apple nutrition entries (see package doc)
	MealsUpdated     int                  `json:"meals_updated"`
	NutrientSamples  int                  `json:"nutrient_samples,omitempty"` // Apple dietary samples this file added,
	FoodEntries      int                  `json:"food_entries,omitempty"`     // the food entries they belong to,
	NutrientMeals    int                  `json:"nutrient_meals,omitempty"`   // and the meals they were joined into
	BodyCompLinked   int                  `json:"body_comp_linked"`           // weigh-ins that received body fat or lean mass (each counted once)
	BodyCompEntries  int                  `json:"body_comp_entries"`          // body-composition readings without a weigh-in nearby
	CharsDropped     int                  `json:"chars_dropped"`              // control characters and undecodable bytes removed
	Notes            []string             `json:"notes,omitempty"`
	Warnings         []Problem            `json:"warnings,omitempty"`
	Corrections      []Correction         `json:"corrections,omitempty"` // rows stored other than they said, by what was done
	MoreNotes        int                  `json:"more_notes,omitempty"`  // notes and warnings past the listed ones
	MoreWarnings     int                  `json:"more_warnings,omitempty"`
	Bytes            int64                `json:"bytes"`
	Records          int64                `json:"records"`
	Duration         time.Duration        `json:"duration_ns"`
	Problems         []Problem            `json:"problems,omitempty"`
	TotalProblems    int                  `json:"total_problems,omitempty"`
	// A zip of CSV files (Kind KindZip): the summary of each CSV file
	// imported (its own run), and the files not imported with why.
	Files   []Summary     `json:"files,omitempty"`
	Skipped []SkippedFile `json:"skipped_files,omitempty"`
	// Error is why a file of a zip imported nothing (the zip's other files
	// may have imported).
	Error string `json:"error,omitempty"`
}

// SkippedFile is a file of a zip that was not imported, and why.
type SkippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// maxUnknownNames bounds Summary.Unknown so a hostile file cannot grow it.
const maxUnknownNames = 100

// maxProblems is how many problems (rejected records) a report lists in detail.
const maxProblems = 10

// maxNotes bounds the notes and warnings of one report.
const maxNotes = 20

func (s *Summary) count(label string, f func(*TypeCount)) {
	if s.Types == nil {
		s.Types = map[string]TypeCount{}
	}
	c := s.Types[label]
	f(&c)
	s.Types[label] = c
}

func (s *Summary) unknown(name string) {
	s.SkippedUnknown++
	if s.Unknown == nil {
		s.Unknown = map[string]int{}
	}
	if _, ok := s.Unknown[name]; ok || len(s.Unknown) < maxUnknownNames {
		s.Unknown[name]++
	}
}

// discard forgets what a failed transaction would have kept.
func (s *Summary) discard() {
	s.Added, s.Updated, s.SkippedDuplicate, s.KeptEdits, s.RepeatedInFile = 0, 0, 0, 0, 0
	s.MealsCreated, s.MealsUpdated, s.BodyCompLinked, s.BodyCompEntries = 0, 0, 0, 0
	s.NutrientSamples, s.FoodEntries, s.NutrientMeals = 0, 0, 0
	for k, c := range s.Types {
		c.Added, c.Updated, c.Duplicate, c.Repeated, c.Kept = 0, 0, 0, 0, 0
		s.Types[k] = c
	}
	s.Corrections = nil // nothing was stored, corrected or not
}

func (s *Summary) addNote(msg string) {
	switch {
	case slices.Contains(s.Notes, msg):
	case len(s.Notes) < maxNotes:
		s.Notes = append(s.Notes, msg)
	default:
		s.MoreNotes++ // counted, never dropped without a word
	}
}

func (s *Summary) addWarning(p Problem) {
	if len(s.Warnings) < maxNotes {
		s.Warnings = append(s.Warnings, p)
	} else {
		s.MoreWarnings++
	}
}

// Correction is one thing an import did to rows that said something it
// could not store as written (a duration it does not believe, stored as 0
// minutes; one of several weigh-ins at one time, kept): how many rows, and
// the first of them by line.
type Correction struct {
	What  string         `json:"what"`
	Count int            `json:"count"`
	Rows  []CorrectedRow `json:"rows"` // the first maxCorrectedRows
}

// CorrectedRow is one corrected row: its line and the value it had.
type CorrectedRow struct {
	Line  int    `json:"line"`
	Value string `json:"value,omitempty"`
}

// maxCorrectedRows is how many rows of one correction a report names.
const maxCorrectedRows = 10

func (s *Summary) correct(what string, line int, value string) {
	for i := range s.Corrections {
		if c := &s.Corrections[i]; c.What == what {
			c.Count++
			if len(c.Rows) < maxCorrectedRows {
				c.Rows = append(c.Rows, CorrectedRow{Line: line, Value: value})
			}
			return
		}
	}
	if len(s.Corrections) >= maxNotes {
		s.MoreWarnings++
		return
	}
	s.Corrections = append(s.Corrections, Correction{What: what, Count: 1, Rows: []CorrectedRow{{Line: line, Value: value}}})
}

// String is the correction as a report line: what was done, then every
// row it was done to by line, or the first ones and how many more.
func (c Correction) String() string {
	var b strings.Builder
	b.WriteString(c.What + ": ")
	for i, r := range c.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "line %d", r.Line)
		if r.Value != "" {
			fmt.Fprintf(&b, " (%s)", r.Value)
		}
	}
	if more := c.Count - len(c.Rows); more > 0 {
		fmt.Fprintf(&b, " and %d more (%d in all)", more, c.Count)
	}
	return b.String()
}

// Problem is one reason a file was refused.
type Problem struct {
	File    string `json:"file,omitempty"` // the file of a zip it is in
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Element string `json:"element,omitempty"` // XML element (and record type)
	Message string `json:"message"`
}

// Error renders the problem as "line 12: Record …: message" ("weights.csv,
// line 12: …" in a zip).
func (p Problem) Error() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			b.WriteString(", ")
		} else {
			b.WriteString(": ")
		}
	}
	if p.Line > 0 {
		b.WriteString("line " + strconv.Itoa(p.Line))
		if p.Column > 0 {
			b.WriteString(":" + strconv.Itoa(p.Column))
		}
		b.WriteString(": ")
	}
	if p.Element != "" {
		b.WriteString(p.Element + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// ValidationError lists why a file imported nothing. It unwraps to an
// apperr.Invalid error carrying the same message, so the web layer maps it
// to 400 and shows Error().
type ValidationError struct {
	File     string
	Problems []Problem // the first few
	Total    int       // all problems found
}

// Error names the file and its first problem.
func (e *ValidationError) Error() string {
	if len(e.Problems) == 0 {
		return e.File + ": nothing imported"
	}
	msg := fmt.Sprintf("%s: nothing imported: %s", e.File, e.Problems[0].Error())
	if more := e.Total - 1; more == 1 {
		msg += " (and 1 more problem)"
	} else if more > 1 {
		msg += fmt.Sprintf(" (and %d more problems)", more)
	}
	return msg
}

// Unwrap returns the apperr.Invalid form of e.
func (e *ValidationError) Unwrap() error {
	return &apperr.Error{Code: apperr.Invalid, Message: e.Error()}
}
