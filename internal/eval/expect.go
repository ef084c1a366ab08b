package eval

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// Expectation checks: what a scenario's plan must (or must not) do.
const (
	// CheckUpNext: the primary pick (ids: one of; reason; kinds / not_kinds;
	// max_minutes; context: program_context pattern; program; absent).
	CheckUpNext = "up_next"
	// CheckAlternates: min/max count; kinds or not_kinds for every
	// alternate; ids: one of them is among; reason: one has it.
	CheckAlternates = "alternates"
	// CheckPlaylist: kinds is the exact sequence of kinds ("*" any);
	// not_kinds none; min/max length.
	CheckPlaylist = "playlist"
	// CheckNoContent: no pick (Up Next, alternates, playlist) has any of
	// tags, kinds, ids, areas (body areas it loads, from the catalog's
	// metadata or its kind), impact or intensity (its metadata's level:
	// low, moderate, high) or a title matching pattern.
	CheckNoContent = "no_content"
	// CheckOffers: Up Next or an alternate is one of ids, of one of kinds,
	// has one of tags, or belongs to program.
	CheckOffers = "offers"
	// CheckCTA: a CTA of type / action / message (pattern) / subject
	// (record, record_day, macro: what answers it) is there, or with
	// absent none is.
	CheckCTA = "cta"
	// CheckCTACount: min/max calls to action.
	CheckCTACount = "cta_count"
	// CheckPrompt: a prompt with id / type / message (question pattern) /
	// option (some option matches) is there, or with absent none is.
	CheckPrompt = "prompt"
	// CheckPromptCount: min/max prompts.
	CheckPromptCount = "prompt_count"
	// CheckMentions: field's text matches pattern, or with absent does not.
	// Fields: briefing, feedback, cta, prompts, coach (all of them), chat
	// (the coach's replies to the timeline's chat messages). For
	// what a plan states, use the fact checks below: a pattern written
	// from one coach's sentence fails every other wording of the fact.
	CheckMentions = "mentions"
	// CheckFigure: a sentence of field (default coach) states number in
	// unit (kg, lb, kcal, kj, g, days, weeks, sessions, min, %; written
	// right after it, one word between allowed: "2 rest days"), equal at
	// the precision written ("207 lb" states 206.8) or within tolerance;
	// digits or a number word up to twenty. about: that sentence matches
	// this pattern too. With absent and no number: no figure in unit.
	CheckFigure = "figure"
	// CheckDate: a sentence of field states date (YYYY-MM-DD) or the day
	// in_days from today, within within_days, in any common format ("Mar
	// 14", "14 March", "March 14th", "2026-03-14", "14/03", "Saturday",
	// "tomorrow", "in 3 weeks"); with_year: the year is written. about as
	// for figure.
	CheckDate = "date"
	// CheckEntity: a sentence of field names one of names (whole words,
	// any case, a plural too) and, with day, that program day ("Day 4",
	// "day four", "the fourth day", "session 4"); any_day: some day.
	CheckEntity = "entity"
	// CheckStance: field takes stance, one of a small vocabulary
	// (StanceNames: over_target, toward_goal, away_from_goal, plateau,
	// …), not negated just before ("not moving toward your goal").
	CheckStance = "stance"
	// CheckWords: field's text has at most max (at least min) words.
	CheckWords = "words"
	// CheckRun: the run's status, fallback reason (prefix) and model.
	CheckRun = "run"
	// CheckMemory: after the run the coach's memory has an entry whose key
	// matches id (a pattern) and value matches value, or with absent none.
	CheckMemory = "memory"
	// CheckProgram: after the run the member's program has status, day,
	// program id; with absent the member has no program.
	CheckProgram = "program"
	// CheckGoal: after the run an active goal's description matches
	// pattern, or with absent none does.
	CheckGoal = "goal"
)

var checkKinds = []string{CheckUpNext, CheckAlternates, CheckPlaylist, CheckNoContent, CheckOffers, CheckCTA, CheckCTACount,
	CheckPrompt, CheckPromptCount, CheckMentions, CheckFigure, CheckDate, CheckEntity, CheckStance, CheckWords, CheckRun,
	CheckMemory, CheckProgram, CheckGoal}

// Runtimes an expectation can be limited to.
const (
	RuntimeHeuristic = "heuristic"
	RuntimeModel     = "model"
)

// Expectation is one check of a scenario's plan. Which fields apply
// depends on Check (see the Check constants).
type Expectation struct {
	Check string `json:"check"`
	// Why says what a good coach does here; shown when the check fails.
	Why string `json:"why,omitempty"`
	// KnownGap: the heuristic coach is not designed to meet this (yet),
	// and why. It is reported, never counted against the thresholds.
	KnownGap string `json:"known_gap,omitempty"`
	// Runtime limits the check to one runtime ("heuristic" or "model").
	Runtime string `json:"runtime,omitempty"`

	Absent     bool     `json:"absent,omitempty"`
	ID         string   `json:"id,omitempty"`
	IDs        []string `json:"ids,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Kinds      []string `json:"kinds,omitempty"`
	NotKinds   []string `json:"not_kinds,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	MaxMinutes int      `json:"max_minutes,omitempty"`
	Context    string   `json:"context,omitempty"`
	Program    string   `json:"program,omitempty"`
	Type       string   `json:"type,omitempty"`
	Action     string   `json:"action,omitempty"`
	Message    string   `json:"message,omitempty"`
	Option     string   `json:"option,omitempty"`
	Field      string   `json:"field,omitempty"`
	Pattern    string   `json:"pattern,omitempty"`
	Min        *int     `json:"min,omitempty"`
	Max        *int     `json:"max,omitempty"`
	Status     string   `json:"status,omitempty"`
	Fallback   string   `json:"fallback,omitempty"`
	Model      string   `json:"model,omitempty"`
	Value      string   `json:"value,omitempty"`
	Day        int      `json:"day,omitempty"`
	Areas      []string `json:"areas,omitempty"`
	Impact     []string `json:"impact,omitempty"`
	Intensity  []string `json:"intensity,omitempty"`
	Record     string   `json:"record,omitempty"`
	RecordDay  string   `json:"record_day,omitempty"`
	Macro      string   `json:"macro,omitempty"`
	// Fact checks (claims.go).
	Number     *float64 `json:"number,omitempty"`
	Unit       string   `json:"unit,omitempty"`
	Tolerance  float64  `json:"tolerance,omitempty"`
	About      string   `json:"about,omitempty"`
	Date       string   `json:"date,omitempty"`
	InDays     *int     `json:"in_days,omitempty"`
	WithinDays int      `json:"within_days,omitempty"`
	WithYear   bool     `json:"with_year,omitempty"`
	Names      []string `json:"names,omitempty"`
	AnyDay     bool     `json:"any_day,omitempty"`
	Stance     string   `json:"stance,omitempty"`

	res   map[string]*regexp.Regexp // compiled patterns by field
	names []*regexp.Regexp          // entity names
	today time.Time                 // the scenario's planned day (setToday)
	when  time.Time                 // a date check's date
}

var textFields = []string{"briefing", "feedback", "cta", "prompts", "coach", fieldChat}

// fieldChat is the text of the coach's chat replies (After.Chat), not of
// the plan.
const fieldChat = "chat"

// check validates the expectation and compiles its patterns.
func (e *Expectation) check() error {
	if !slices.Contains(checkKinds, e.Check) {
		return fmt.Errorf("unknown check %q (one of %s)", e.Check, strings.Join(checkKinds, ", "))
	}
	if e.Runtime != "" && e.Runtime != RuntimeHeuristic && e.Runtime != RuntimeModel {
		return fmt.Errorf("runtime %q: heuristic or model", e.Runtime)
	}
	e.res = map[string]*regexp.Regexp{}
	for name, p := range map[string]string{"context": e.Context, "message": e.Message, "option": e.Option,
		"pattern": e.Pattern, "id": e.ID, "value": e.Value, "about": e.About} {
		if p == "" || (name == "id" && e.Check != CheckMemory) {
			continue
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		e.res[name] = re
	}
	for _, k := range append(slices.Clone(e.Kinds), e.NotKinds...) {
		if k != "*" && !content.ValidKind(k) {
			return fmt.Errorf("kind %q is not a catalog kind", k)
		}
	}
	for _, a := range e.Areas {
		if !content.ValidArea(a) {
			return fmt.Errorf("area %q: one of %s", a, strings.Join(content.Areas(), ", "))
		}
	}
	need := func(ok bool, what string) error {
		if !ok {
			return errors.New(what)
		}
		return nil
	}
	switch e.Check {
	case CheckMentions, CheckWords:
		if !slices.Contains(textFields, e.Field) {
			return fmt.Errorf("field %q: one of %s", e.Field, strings.Join(textFields, ", "))
		}
		if e.Check == CheckMentions {
			return need(e.Pattern != "", "pattern is required")
		}
		return need(e.Min != nil || e.Max != nil, "min or max is required")
	case CheckFigure, CheckDate, CheckEntity, CheckStance:
		return e.checkClaim()
	case CheckCTACount, CheckPromptCount:
		return need(e.Min != nil || e.Max != nil, "min or max is required")
	case CheckNoContent:
		return need(len(e.Tags)+len(e.Kinds)+len(e.IDs)+len(e.Areas)+len(e.Impact)+len(e.Intensity) > 0 || e.Pattern != "",
			"tags, kinds, ids, areas, impact, intensity or pattern is required")
	case CheckOffers:
		return need(len(e.Tags)+len(e.Kinds)+len(e.IDs) > 0 || e.Program != "", "tags, kinds, ids or program is required")
	case CheckRun:
		return need(e.Status != "" || e.Fallback != "" || e.Model != "", "status, fallback or model is required")
	case CheckMemory:
		return need(e.ID != "", "id (a key pattern) is required")
	case CheckGoal:
		return need(e.Pattern != "", "pattern is required")
	case CheckProgram:
		return need(e.Absent || e.Status != "" || e.Day != 0 || e.Program != "", "status, day, program or absent is required")
	}
	return nil
}

// Label names the expectation in reports: check and its main argument.
func (e *Expectation) Label() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if e.Absent {
		parts = append(parts, "absent")
	}
	add("id", e.ID)
	add("ids", strings.Join(e.IDs, "|"))
	add("type", e.Type)
	add("action", e.Action)
	add("field", e.Field)
	add("reason", e.Reason)
	add("kinds", strings.Join(e.Kinds, ","))
	add("not_kinds", strings.Join(e.NotKinds, ","))
	add("tags", strings.Join(e.Tags, ","))
	add("context", e.Context)
	add("message", e.Message)
	add("option", e.Option)
	add("pattern", e.Pattern)
	add("status", e.Status)
	add("fallback", e.Fallback)
	add("program", e.Program)
	add("value", e.Value)
	add("areas", strings.Join(e.Areas, ","))
	add("impact", strings.Join(e.Impact, ","))
	add("intensity", strings.Join(e.Intensity, ","))
	add("record", e.Record)
	add("record_day", e.RecordDay)
	add("macro", e.Macro)
	if e.Number != nil {
		add("number", strconv.FormatFloat(*e.Number, 'f', -1, 64))
	}
	add("unit", e.Unit)
	if e.Tolerance > 0 {
		add("tolerance", strconv.FormatFloat(e.Tolerance, 'f', -1, 64))
	}
	add("date", e.Date)
	if e.InDays != nil {
		add("in_days", strconv.Itoa(*e.InDays))
	}
	if e.WithinDays > 0 {
		add("within_days", strconv.Itoa(e.WithinDays))
	}
	if e.WithYear {
		parts = append(parts, "with_year")
	}
	add("names", strings.Join(e.Names, "|"))
	if e.AnyDay {
		parts = append(parts, "any_day")
	}
	add("stance", e.Stance)
	add("about", e.About)
	if e.Min != nil {
		add("min", fmt.Sprint(*e.Min))
	}
	if e.Max != nil {
		add("max", fmt.Sprint(*e.Max))
	}
	if e.MaxMinutes > 0 {
		add("max_minutes", fmt.Sprint(e.MaxMinutes))
	}
	if e.Day > 0 {
		add("day", fmt.Sprint(e.Day))
	}
	label := e.Check
	if len(parts) > 0 {
		label += " " + strings.Join(parts, " ")
	}
	return label
}

// After is the state the run left: what the expectations on memory,
// program and goals look at.
type After struct {
	Run     agent.Run
	Memory  []agent.MemoryEntry
	Program *ProgramAfter
	Goals   []health.Goal
	// Chat are the coach's replies to the subject's chat messages of the
	// timeline, oldest first (field "chat").
	Chat []string
}

// ProgramAfter is the member's program after the run.
type ProgramAfter struct {
	ProgramID string `json:"program_id"`
	Status    string `json:"status"`
	Day       int    `json:"day"`
}

// evaluate runs the expectation on the final document d (nil: none) and
// returns "" when it holds, else what was seen.
func (e *Expectation) evaluate(d *dashboard.Document, catalog map[string]content.Item, after After) string {
	switch e.Check {
	case CheckRun:
		return e.runCheck(after.Run)
	case CheckMemory:
		return e.memoryCheck(after.Memory)
	case CheckProgram:
		return e.programCheck(after.Program)
	case CheckGoal:
		return e.goalCheck(after.Goals)
	}
	if e.Field == fieldChat {
		return e.onChat(after.Chat, catalog)
	}
	if d == nil {
		return "no plan was written"
	}
	switch e.Check {
	case CheckUpNext:
		return e.upNext(d, catalog)
	case CheckAlternates:
		return e.alternates(d, catalog)
	case CheckPlaylist:
		return e.playlist(d, catalog)
	case CheckNoContent:
		return e.noContent(d, catalog)
	case CheckOffers:
		return e.offers(d, catalog)
	case CheckCTA:
		return e.cta(d)
	case CheckCTACount:
		return count("calls to action", len(d.Coach.CTA), e.Min, e.Max)
	case CheckPrompt:
		return e.prompt(d)
	case CheckPromptCount:
		return count("prompts", len(d.Coach.Prompts), e.Min, e.Max)
	case CheckMentions:
		return e.mentions(d)
	case CheckFigure, CheckDate, CheckEntity, CheckStance:
		return e.claim(d, catalog)
	case CheckWords:
		return count("words in "+e.Field, len(strings.Fields(fieldText(d, e.Field))), e.Min, e.Max)
	}
	return "unknown check " + e.Check
}

func count(what string, n int, lo, hi *int) string {
	switch {
	case lo != nil && n < *lo:
		return fmt.Sprintf("%d %s, want at least %d", n, what, *lo)
	case hi != nil && n > *hi:
		return fmt.Sprintf("%d %s, want at most %d", n, what, *hi)
	}
	return ""
}

// describe is a content reference as reports show it.
func describe(c dashboard.ContentRef, catalog map[string]content.Item) string {
	kind := "?"
	if it, ok := catalog[c.ContentID]; ok {
		kind = it.Kind
	}
	s := fmt.Sprintf("%s (%s, %d min", c.ContentID, kind, c.Duration)
	if c.Reason != "" {
		s += ", " + c.Reason
	}
	if c.ProgramContext != "" {
		s += ", " + c.ProgramContext
	}
	return s + ")"
}

// contentMismatch says how c differs from the kinds / not_kinds / tags /
// max_minutes / program of e ("" if it does not).
func (e *Expectation) contentMismatch(c dashboard.ContentRef, catalog map[string]content.Item) string {
	it, ok := catalog[c.ContentID]
	switch {
	case !ok && (len(e.Kinds) > 0 || len(e.NotKinds) > 0 || e.Program != ""):
		return "not in the catalog"
	case len(e.Kinds) > 0 && !slices.Contains(e.Kinds, it.Kind):
		return fmt.Sprintf("kind %s, want one of %s", it.Kind, strings.Join(e.Kinds, ", "))
	case slices.Contains(e.NotKinds, it.Kind):
		return fmt.Sprintf("kind %s is not wanted here", it.Kind)
	case e.MaxMinutes > 0 && c.Duration > e.MaxMinutes:
		return fmt.Sprintf("%d min, want at most %d", c.Duration, e.MaxMinutes)
	case e.Program != "" && it.Program != e.Program:
		return fmt.Sprintf("program %q, want %q", it.Program, e.Program)
	}
	return ""
}

func (e *Expectation) upNext(d *dashboard.Document, catalog map[string]content.Item) string {
	p := d.Curated.UpNext.Primary
	if e.Absent {
		if p != nil {
			return "Up Next is " + describe(*p, catalog) + ", want none"
		}
		return ""
	}
	if p == nil {
		return "no Up Next"
	}
	seen := describe(*p, catalog)
	switch {
	case len(e.IDs) > 0 && !slices.Contains(e.IDs, p.ContentID):
		return fmt.Sprintf("Up Next is %s, want %s", seen, strings.Join(e.IDs, " or "))
	case e.Reason != "" && p.Reason != e.Reason:
		return fmt.Sprintf("Up Next is %s, want reason %s", seen, e.Reason)
	case e.res["context"] != nil && !e.res["context"].MatchString(p.ProgramContext):
		return fmt.Sprintf("Up Next is %s, want program context matching %q", seen, e.Context)
	}
	if why := e.contentMismatch(*p, catalog); why != "" {
		return "Up Next is " + seen + ": " + why
	}
	return ""
}

func (e *Expectation) alternates(d *dashboard.Document, catalog map[string]content.Item) string {
	alts := d.Curated.UpNext.Alternates
	if s := count("alternates", len(alts), e.Min, e.Max); s != "" {
		return s
	}
	var seen []string
	foundID, foundReason := len(e.IDs) == 0, e.Reason == ""
	for _, a := range alts {
		seen = append(seen, describe(a, catalog))
		if why := e.contentMismatch(a, catalog); why != "" {
			return "alternate " + describe(a, catalog) + ": " + why
		}
		foundID = foundID || slices.Contains(e.IDs, a.ContentID)
		foundReason = foundReason || a.Reason == e.Reason
	}
	switch {
	case !foundID:
		return fmt.Sprintf("alternates %s, want one of %s", strings.Join(seen, "; "), strings.Join(e.IDs, ", "))
	case !foundReason:
		return fmt.Sprintf("alternates %s, want one with reason %s", strings.Join(seen, "; "), e.Reason)
	}
	return ""
}

func (e *Expectation) playlist(d *dashboard.Document, catalog map[string]content.Item) string {
	pl := d.Curated.PlaylistSuggestion
	var kinds []string
	for _, p := range pl {
		k := "?"
		if it, ok := catalog[p.ContentID]; ok {
			k = it.Kind
		}
		kinds = append(kinds, k)
		if slices.Contains(e.NotKinds, k) {
			return fmt.Sprintf("playlist has %s (%s), which is not wanted", p.ContentID, k)
		}
	}
	if s := count("playlist items", len(pl), e.Min, e.Max); s != "" {
		return s + " (" + strings.Join(kinds, " → ") + ")"
	}
	if len(e.Kinds) > 0 {
		ok := len(kinds) == len(e.Kinds)
		for i := 0; ok && i < len(kinds); i++ {
			ok = e.Kinds[i] == "*" || e.Kinds[i] == kinds[i]
		}
		if !ok {
			return fmt.Sprintf("playlist is %s, want %s", strings.Join(kinds, " → "), strings.Join(e.Kinds, " → "))
		}
	}
	return ""
}

func (e *Expectation) noContent(d *dashboard.Document, catalog map[string]content.Item) string {
	var bad []string
	forEachRef(*d, func(path string, c dashboard.ContentRef) {
		it := catalog[c.ContentID]
		hit := slices.Contains(e.IDs, c.ContentID) || slices.Contains(e.Kinds, it.Kind) ||
			(e.res["pattern"] != nil && e.res["pattern"].MatchString(c.Title))
		for _, t := range it.Tags {
			hit = hit || slices.Contains(e.Tags, t)
		}
		// The areas it loads as the coach reads them: the catalog's, or its
		// kind's guess (an unknown id has none; GraderContent reports it).
		loads := ""
		if _, ok := catalog[c.ContentID]; ok {
			m := it.Meta()
			for _, a := range m.Areas {
				if slices.Contains(e.Areas, a) {
					hit, loads = true, " loads the "+a
				}
			}
			// Impact and intensity as the coach reads them too.
			if slices.Contains(e.Impact, m.Impact) {
				hit, loads = true, loads+" is "+m.Impact+" impact"
			}
			if slices.Contains(e.Intensity, m.Intensity) {
				hit, loads = true, loads+" is "+m.Intensity+" intensity"
			}
		}
		if hit {
			bad = append(bad, path+" "+describe(c, catalog)+loads)
		}
	})
	if len(bad) > 0 {
		return "unwanted content: " + strings.Join(bad, "; ")
	}
	return ""
}

func (e *Expectation) offers(d *dashboard.Document, catalog map[string]content.Item) string {
	picks := slices.Clone(d.Curated.UpNext.Alternates)
	if p := d.Curated.UpNext.Primary; p != nil {
		picks = append([]dashboard.ContentRef{*p}, picks...)
	}
	var seen []string
	for _, c := range picks {
		it := catalog[c.ContentID]
		hit := slices.Contains(e.IDs, c.ContentID) || slices.Contains(e.Kinds, it.Kind) || (e.Program != "" && it.Program == e.Program)
		for _, t := range it.Tags {
			hit = hit || slices.Contains(e.Tags, t)
		}
		if hit {
			return ""
		}
		seen = append(seen, describe(c, catalog))
	}
	if len(seen) == 0 {
		return "nothing is offered"
	}
	return "offered: " + strings.Join(seen, "; ")
}

func (e *Expectation) cta(d *dashboard.Document) string {
	var seen, hits []string
	for _, c := range d.Coach.CTA {
		s := fmt.Sprintf("%s/%s %q", c.Type, c.Action, c.Message)
		seen = append(seen, s)
		sub := c.Subject()
		if (e.Type == "" || c.Type == e.Type) && (e.Action == "" || c.Action == e.Action) &&
			(e.Record == "" || sub.Record == e.Record) && (e.RecordDay == "" || sub.Day == e.RecordDay) &&
			(e.Macro == "" || sub.Macro == e.Macro) &&
			(e.res["message"] == nil || e.res["message"].MatchString(c.Message)) {
			hits = append(hits, s)
		}
	}
	return e.presence(hits, seen, "unwanted call to action: ", "no calls to action", "calls to action: ")
}

// presence is the verdict of a check that wants something (hits) there,
// or with absent not there: "" when it holds, else what was unwanted
// (unwanted + hits) or, when it is missing, what there is (none, or
// present + seen).
func (e *Expectation) presence(hits, seen []string, unwanted, none, present string) string {
	switch {
	case e.Absent && len(hits) > 0:
		return unwanted + strings.Join(hits, "; ")
	case !e.Absent && len(hits) == 0 && len(seen) == 0:
		return none
	case !e.Absent && len(hits) == 0:
		return present + strings.Join(seen, "; ")
	}
	return ""
}

func (e *Expectation) prompt(d *dashboard.Document) string {
	var seen, hits []string
	for _, p := range d.Coach.Prompts {
		s := fmt.Sprintf("%s (%s) %q", p.ID, p.Type, p.Question)
		seen = append(seen, s)
		opt := e.res["option"] == nil
		for _, o := range p.Options {
			opt = opt || e.res["option"].MatchString(o)
		}
		if (e.ID == "" || p.ID == e.ID) && (e.Type == "" || p.Type == e.Type) && opt &&
			(e.res["message"] == nil || e.res["message"].MatchString(p.Question)) {
			hits = append(hits, s)
		}
	}
	return e.presence(hits, seen, "unwanted prompt: ", "no prompts", "prompts: ")
}

// fieldText joins the text of a field of the coach's words.
func fieldText(d *dashboard.Document, field string) string {
	var parts []string
	for _, t := range coachTexts(*d) {
		name, _, _ := strings.Cut(t.path, "[")
		switch {
		case field == "coach", field == name, field == "prompts" && name == "prompts":
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, "\n")
}

func (e *Expectation) mentions(d *dashboard.Document) string {
	return e.mentionsIn(fieldText(d, e.Field))
}

func (e *Expectation) mentionsIn(text string) string {
	hit := e.res["pattern"].MatchString(text)
	switch {
	case e.Absent && hit:
		return fmt.Sprintf("%s says %q", e.Field, e.res["pattern"].FindString(text))
	case !e.Absent && !hit:
		return fmt.Sprintf("%s: %q", e.Field, clip(text, 300))
	}
	return ""
}

func (e *Expectation) runCheck(r agent.Run) string {
	switch {
	case e.Status != "" && string(r.Status) != e.Status:
		return fmt.Sprintf("run %s (%s), want %s", r.Status, r.FallbackReason+r.Error, e.Status)
	case e.Fallback != "" && !strings.HasPrefix(r.FallbackReason, e.Fallback):
		return fmt.Sprintf("fallback reason %q, want %q", r.FallbackReason, e.Fallback)
	case e.Model != "" && r.Model != e.Model:
		return fmt.Sprintf("model %q, want %q", r.Model, e.Model)
	}
	return ""
}

func (e *Expectation) memoryCheck(mem []agent.MemoryEntry) string {
	var hits, keys []string
	for _, m := range mem {
		keys = append(keys, m.Key)
		if e.res["id"].MatchString(m.Key) && (e.res["value"] == nil || e.res["value"].MatchString(m.Value)) {
			hits = append(hits, fmt.Sprintf("%s=%q", m.Key, clip(m.Value, 80)))
		}
	}
	return e.presence(hits, keys, "memory holds ", "memory is empty", "memory keys: ")
}

func (e *Expectation) programCheck(p *ProgramAfter) string {
	switch {
	case e.Absent && p != nil:
		return fmt.Sprintf("the member is on %s (%s, day %d)", p.ProgramID, p.Status, p.Day)
	case e.Absent:
		return ""
	case p == nil:
		return "the member has no program"
	}
	seen := fmt.Sprintf("%s %s day %d", p.ProgramID, p.Status, p.Day)
	switch {
	case e.Program != "" && p.ProgramID != e.Program,
		e.Status != "" && p.Status != e.Status,
		e.Day != 0 && p.Day != e.Day:
		return "program is " + seen
	}
	return ""
}

func (e *Expectation) goalCheck(goals []health.Goal) string {
	var active, hits []string
	for _, g := range goals {
		if g.Status != "active" {
			continue
		}
		active = append(active, g.Description)
		if e.res["pattern"].MatchString(g.Description) {
			hits = append(hits, g.Description)
		}
	}
	return e.presence(hits, active, "goals include ", "no active goals", "active goals: ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
