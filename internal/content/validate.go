package content

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"hearth/internal/apperr"
	"hearth/internal/text"
)

var (
	idPattern      = regexp.MustCompile(`^(local|plex):[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$`)
	programPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
)

// Limits of catalog fields.
const (
	MaxDurationMin = 600
	maxDay         = 1000
	maxTitle       = 200
	maxSummary     = 2000
	maxNote        = 200
	maxTags        = 20
	maxTag         = 40
	maxURL         = 500
)

// ValidID reports whether id is a well-formed content id ("local:…" or "plex:…").
func ValidID(id string) bool { return idPattern.MatchString(id) }

// ValidProgramID reports whether id is a well-formed program id.
func ValidProgramID(id string) bool { return programPattern.MatchString(id) }

// problems collects validation failures as "path: message".
type problems struct {
	list   []string
	fields map[string]string
	more   int
}

func (p *problems) add(path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if len(p.list) >= maxProblems {
		p.more++
		return
	}
	if p.fields == nil {
		p.fields = map[string]string{}
	}
	p.list = append(p.list, path+": "+msg)
	p.fields[path] = msg
}

func (p *problems) err() error { return p.errPrefix("catalog file is invalid") }

func (p *problems) errPrefix(prefix string) error {
	if len(p.list) == 0 {
		return nil
	}
	msg := prefix + ": " + strings.Join(p.list, "; ")
	if p.more > 0 {
		msg += fmt.Sprintf("; and %d more", p.more)
	}
	return &apperr.Error{Code: apperr.Invalid, Message: msg, Fields: p.fields}
}

// validate normalises f in place (counting dropped characters in
// f.charsDropped) and checks it on its own.
func (f *File) validate() error {
	var p problems
	if len(f.Items) == 0 && len(f.Programs) == 0 {
		p.add("file", "no items and no programs")
	}
	firstItem := map[string]int{}
	for i := range f.Items {
		it := &f.Items[i]
		f.charsDropped += normItem(it)
		path := fmt.Sprintf("items[%d]", i)
		if it.ID != "" {
			path += " (" + it.ID + ")"
		}
		validateItem(&p, path, it)
		if j, dup := firstItem[it.ID]; dup && it.ID != "" {
			p.add(path, "duplicate id, first defined at items[%d]", j)
		} else {
			firstItem[it.ID] = i
		}
	}
	firstProg := map[string]int{}
	for i := range f.Programs {
		pr := &f.Programs[i]
		f.charsDropped += normProgram(pr)
		path := fmt.Sprintf("programs[%d]", i)
		if pr.ID != "" {
			path += " (" + pr.ID + ")"
		}
		validateProgram(&p, path, pr)
		if j, dup := firstProg[pr.ID]; dup && pr.ID != "" {
			p.add(path, "duplicate program id, first defined at programs[%d]", j)
		} else {
			firstProg[pr.ID] = i
		}
	}
	return p.err()
}

// normItem trims the item's fields and drops what text cannot use from its
// words (control characters, invalid UTF-8: see package text), returning
// how many characters it dropped.
func normItem(it *Item) int {
	n := 0
	it.ID = strings.TrimSpace(it.ID)
	it.Title = cleanText(text.Line, it.Title, &n)
	it.Program = strings.TrimSpace(it.Program)
	it.Kind = strings.ToLower(strings.TrimSpace(it.Kind))
	it.Thumbnail = strings.TrimSpace(it.Thumbnail)
	it.PlayURL = strings.TrimSpace(it.PlayURL)
	it.Summary = cleanText(text.Multi, it.Summary, &n)
	for i, t := range it.Tags {
		it.Tags[i] = cleanText(text.Line, t, &n)
	}
	normMeta(it)
	return n
}

// cleanText is text.Clean plus trimming, adding the dropped count to n.
func cleanText(m text.Mode, s string, n *int) string {
	s, k := text.Clean(m, s)
	*n += k
	return strings.TrimSpace(s)
}

func validateItem(p *problems, path string, it *Item) {
	switch {
	case it.ID == "":
		p.add(path+".id", "missing")
	case !ValidID(it.ID):
		p.add(path+".id", "must be \"local:<name>\" or \"plex:<key>\" (letters, digits, . _ : -, at most 100 after the prefix)")
	}
	checkText(p, path+".title", it.Title, maxTitle, true)
	if it.Program != "" && !ValidProgramID(it.Program) {
		p.add(path+".program", "program id %q must be lower-case letters, digits and dashes", it.Program)
	}
	if it.Day < 0 || it.Day > maxDay {
		p.add(path+".day", "must be between 0 and %d", maxDay)
	}
	if it.DurationMin <= 0 || it.DurationMin > MaxDurationMin {
		p.add(path+".duration", "must be a whole number of minutes between 1 and %d, got %d", MaxDurationMin, it.DurationMin)
	}
	switch {
	case it.Kind == "":
		p.add(path+".kind", "missing (one of %s)", strings.Join(kinds, ", "))
	case !ValidKind(it.Kind):
		p.add(path+".kind", "unknown kind %q (one of %s)", it.Kind, strings.Join(kinds, ", "))
	}
	checkURL(p, path+".thumbnail", it.Thumbnail)
	checkURL(p, path+".play_url", it.PlayURL)
	checkText(p, path+".summary", it.Summary, maxSummary, false)
	if len(it.Tags) > maxTags {
		p.add(path+".tags", "at most %d tags", maxTags)
	}
	for i, t := range it.Tags {
		if t == "" || len(t) > maxTag || strings.ContainsFunc(t, unicode.IsControl) {
			p.add(fmt.Sprintf("%s.tags[%d]", path, i), "tags must be 1 to %d characters", maxTag)
		}
	}
	validateMeta(p, path, it)
}

func normProgram(pr *Program) int {
	n := 0
	pr.ID = strings.TrimSpace(pr.ID)
	pr.Title = cleanText(text.Line, pr.Title, &n)
	pr.Description = cleanText(text.Multi, pr.Description, &n)
	for i := range pr.Days {
		pr.Days[i].ContentID = strings.TrimSpace(pr.Days[i].ContentID)
		pr.Days[i].Note = cleanText(text.Multi, pr.Days[i].Note, &n)
	}
	return n
}

func validateProgram(p *problems, path string, pr *Program) {
	switch {
	case pr.ID == "":
		p.add(path+".id", "missing")
	case !ValidProgramID(pr.ID):
		p.add(path+".id", "must be lower-case letters, digits and dashes, at most 64")
	}
	checkText(p, path+".title", pr.Title, maxTitle, true)
	checkText(p, path+".description", pr.Description, maxSummary, false)
	n := len(pr.Days)
	if n == 0 {
		p.add(path+".days", "a program needs at least one day")
		return
	}
	if n > maxDay {
		p.add(path+".days", "at most %d days", maxDay)
		return
	}
	seen := make([]bool, n+1)
	training := 0
	for i, d := range pr.Days {
		dp := fmt.Sprintf("%s.days[%d]", path, i)
		switch {
		case d.Day < 1 || d.Day > n:
			p.add(dp+".day", "day %d is outside 1..%d (days must be numbered 1..N without gaps)", d.Day, n)
		case seen[d.Day]:
			p.add(dp+".day", "day %d appears twice", d.Day)
		default:
			seen[d.Day] = true
		}
		switch {
		case d.Rest && d.ContentID != "":
			p.add(dp, "day %d is a rest day but names content %q", d.Day, d.ContentID)
		case !d.Rest && d.ContentID == "":
			p.add(dp, "day %d has no content_id (mark it \"rest\": true for a rest day)", d.Day)
		case !d.Rest && !ValidID(d.ContentID):
			p.add(dp+".content_id", "%q is not a content id", d.ContentID)
		}
		if !d.Rest {
			training++
		}
		checkText(p, dp+".note", d.Note, maxNote, false)
	}
	if training == 0 {
		p.add(path+".days", "every day is a rest day")
	}
	slices.SortStableFunc(pr.Days, func(a, b Day) int { return a.Day - b.Day })
}

func checkText(p *problems, path, s string, limit int, required bool) {
	switch {
	case s == "" && required:
		p.add(path, "missing")
	case len(s) > limit:
		p.add(path, "longer than %d characters", limit)
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }):
		p.add(path, "contains control characters")
	}
}

// checkURL accepts "", an absolute path ("/static/…") or an http(s) URL.
func checkURL(p *problems, path, u string) {
	if u == "" {
		return
	}
	// A backslash is refused anywhere: browsers read "/\host" as the
	// protocol-relative "//host".
	ok := len(u) <= maxURL && !strings.ContainsFunc(u, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\\' })
	lower := strings.ToLower(u)
	ok = ok && (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") ||
		strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://"))
	if !ok {
		p.add(path, "must be a /path or an http(s) URL without spaces, at most %d characters", maxURL)
	}
}
