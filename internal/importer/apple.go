package importer

import (
	"bufio"
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/internal/text"
)

// appleParser streams an export.xml: one token at a time, keeping only the
// record and workout being read (their metadata and statistics are child
// elements), the records of the food correlation being read, and a reused
// record.
type appleParser struct {
	d       *xml.Decoder
	src     *readErr
	filter  *xmlCharFilter
	out     emitter
	k       keyer
	rec     record
	pend    pendingRecord
	corr    foodCorrelation
	wk      appleWorkout
	depth   int
	dropped int // characters text.Clean removed from meal names
}

// pendingRecord is a Record whose MetadataEntry children are still to come:
// it is emitted at its end tag.
type pendingRecord struct {
	active bool
	depth  int
	rec    record
	local  time.Time // the record's wall clock (its offset applied), for meal slots
	meal   string    // its meal metadata ("Meal", "meal" or "HKFoodMeal"), as written
	source string    // its sourceName: a dietary sample's food entry is its source and start
}

// foodCorrelation is a HKCorrelationTypeIdentifierFood being read: its
// records (which repeat top-level ones) are one food entry, one meal's.
type foodCorrelation struct {
	active   bool
	depth    int
	meal     string
	key      string    // the entry's group key: "c:" and a hash of its source, start, end and food
	local    time.Time // its startDate's wall clock, for its meal by time of day
	hasLocal bool
	recs     []pendingRecord
}

// maxCorrelationRecords bounds the records one correlation may hold back; a
// larger one passes them on as they come.
const maxCorrelationRecords = 64

// parseApple streams an Apple Health export.xml into out. A file that is not
// a complete, well-formed export stops with a Problem error; I/O failures and
// cancellation are returned as they are. Characters XML 1.0 forbids (real
// exports carry U+000B in metadata values) are dropped while reading and
// counted.
func parseApple(ctx context.Context, r io.Reader, out emitter) error {
	src := &readErr{r: &tokenGuard{r: r}}
	filter := &xmlCharFilter{r: src}
	p := &appleParser{d: xml.NewDecoder(skipDoctype(bufio.NewReaderSize(filter, 256<<10))), src: src, filter: filter, out: out}
	defer func() {
		if n := int(filter.dropped) + p.dropped; n > 0 {
			out.cleaned(n)
		}
	}()
	sawRoot := false
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tok, err := p.d.Token()
		if err == io.EOF {
			if !sawRoot {
				return Problem{Message: "not an Apple Health export: the file has no <HealthData> element"}
			}
			return nil
		}
		if err != nil {
			return p.syntaxProblem(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.depth++
			if p.depth == 1 {
				if t.Name.Local != "HealthData" {
					return Problem{Line: p.line(), Message: fmt.Sprintf("not an Apple Health export: the root element is <%s>, want <HealthData>", t.Name.Local)}
				}
				sawRoot = true
				continue
			}
			if err := p.start(t); err != nil {
				return err
			}
		case xml.EndElement:
			if err := p.end(); err != nil {
				return err
			}
			p.depth--
		}
	}
}

func (p *appleParser) line() int {
	l, _ := p.d.InputPos()
	return l
}

// readErr remembers the last read error, so a decoder error can be told
// apart from a failing disk or a damaged zip.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// syntaxProblem explains a decoder error; a file cut short gets its own words
// because that is what a failed copy or download looks like.
func (p *appleParser) syntaxProblem(err error) error {
	if p.src.err != nil && errors.Is(err, p.src.err) {
		return fmt.Errorf("importer: read export: %w", err)
	}
	var se *xml.SyntaxError
	if !errors.As(err, &se) { // e.g. an unsupported XML version or encoding
		return Problem{Line: p.line(), Message: "XML error: " + strings.TrimPrefix(err.Error(), "xml: ")}
	}
	if se.Msg == "unexpected EOF" {
		return Problem{Line: se.Line, Message: "the file is truncated: it ends in the middle of the export (was the copy or download interrupted?)"}
	}
	return Problem{Line: se.Line, Message: "XML syntax error: " + se.Msg}
}

func (p *appleParser) start(t xml.StartElement) error {
	switch t.Name.Local {
	case "Record":
		p.record(t)
	case "MetadataEntry":
		p.metadata(t)
	case "Workout":
		p.startWorkout(t)
	case "WorkoutStatistics":
		if p.wk.active {
			p.workoutStats(t)
		}
	case "Correlation":
		if p.depth != 2 {
			break
		}
		if typ := attr(t, "type"); typ == "HKCorrelationTypeIdentifierFood" {
			p.startCorrelation(t)
		} else {
			p.out.unknown(cmp.Or(typ, "Correlation")) // blood pressure, …
		}
	case "ExportDate", "Me":
	default:
		if p.depth == 2 { // ActivitySummary, ClinicalRecord, …
			p.out.unknown(t.Name.Local)
		}
	}
	return nil
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// end handles an end tag at p.depth.
func (p *appleParser) end() error {
	switch {
	case p.pend.active && p.depth == p.pend.depth:
		p.pend.active = false
		if !p.corr.active {
			return p.emitPending(&p.pend, nil)
		}
		if len(p.corr.recs) < maxCorrelationRecords {
			p.corr.recs = append(p.corr.recs, p.pend)
			return nil
		}
		return p.emitPending(&p.pend, &p.corr) // its meal as known so far; finalize joins the entry
	case p.corr.active && p.depth == p.corr.depth:
		p.corr.active = false
		for i := range p.corr.recs {
			p.corr.meal = cmp.Or(p.corr.meal, p.corr.recs[i].meal)
		}
		for i := range p.corr.recs {
			if err := p.emitPending(&p.corr.recs[i], &p.corr); err != nil {
				return err
			}
		}
		p.corr.recs = p.corr.recs[:0]
	case p.wk.active && p.depth == p.wk.depth:
		return p.endWorkout()
	}
	return nil
}

// metadata reads the meal a nutrition record or food correlation names:
// "Meal" (any case), as MyFitnessPal and others write it, or "HKFoodMeal",
// as HealthKit libraries write it (react-native-health's saveFood,
// code search `@"HKFoodMeal": mealName`); and a correlation's food
// (HKMetadataKeyFoodType, "HKFoodType"), which tells two foods at one time
// apart.
func (p *appleParser) metadata(t xml.StartElement) {
	key := attr(t, "key")
	meal := strings.EqualFold(key, "meal") || key == "HKFoodMeal"
	switch {
	case meal && p.pend.active && p.depth == p.pend.depth+1:
		p.pend.meal = cmp.Or(p.pend.meal, attr(t, "value"))
	case meal && p.corr.active && p.depth == p.corr.depth+1:
		p.corr.meal = cmp.Or(p.corr.meal, attr(t, "value"))
	case key == "HKFoodType" && p.corr.active && p.depth == p.corr.depth+1 && p.corr.key != "":
		p.corr.key = "c:" + p.k.reset(p.corr.key).str(attr(t, "value")).sum()[:16]
	}
}

// startCorrelation begins a food correlation: one food entry, whose
// records go to one meal (the one it or its records name, else the one of
// its start's time of day).
func (p *appleParser) startCorrelation(t xml.StartElement) {
	p.corr = foodCorrelation{active: true, depth: p.depth, recs: p.corr.recs[:0]}
	st, off, ok := parseAppleTime(attr(t, "startDate"))
	if !ok {
		return // its records keep their own times
	}
	en, _, _ := parseAppleTime(attr(t, "endDate"))
	p.corr.local, p.corr.hasLocal = st.Add(time.Duration(off)*time.Second), true
	p.corr.key = "c:" + p.k.reset("HKCorrelationTypeIdentifierFood").str(attr(t, "sourceName")).time(st).time(en).sum()[:16]
}

// emitPending emits a finished record. A dietary sample belongs to a food
// entry: its food correlation (corr), else its source's samples at its
// start instant; the entry's samples go to one meal: the one named by the
// record or its correlation, else the one of the entry's time of day.
func (p *appleParser) emitPending(pr *pendingRecord, corr *foodCorrelation) error {
	r := &pr.rec
	if r.kind == recSample && r.sample.slot != "" {
		local, meal := pr.local, pr.meal
		r.sample.group = "s:" + p.k.reset("s").str(pr.source).time(r.sample.at).sum()[:16]
		if corr != nil {
			meal = cmp.Or(meal, corr.meal)
			if corr.hasLocal {
				local = corr.local
				r.sample.group = corr.key
			}
		}
		r.sample.slot, r.sample.explicit = p.slot(local, meal)
	}
	return p.out.emit(r)
}

// slot names a dietary sample's meal slot: "2024-01-05:dinner" for a known
// meal, "2024-01-05:=Post-Workout" for one the member named, or by the time
// of day when the record names none.
func (p *appleParser) slot(local time.Time, meal string) (string, bool) {
	day := local.Format(time.DateOnly) + ":"
	name, n := text.Clean(text.Line, strings.TrimSpace(meal))
	p.dropped += n
	switch strings.ToLower(name) {
	case "":
		return day + slotOf(local.Hour()), false
	case "breakfast":
		return day + "breakfast", true
	case "lunch":
		return day + "lunch", true
	case "dinner", "supper":
		return day + "dinner", true
	case "snack", "snacks":
		return day + "snack", true
	}
	return day + "=" + truncate(name, 40), true
}

func (p *appleParser) reject(label, element string, format string, args ...any) {
	p.out.reject(label, Problem{Line: p.line(), Element: element, Message: fmt.Sprintf(format, args...)})
}

// record handles a Record element, wherever it is: Records nested in a food
// Correlation repeat top-level ones and are counted as repeated in the file.
// A valid record waits for its end tag (its metadata may name its meal).
func (p *appleParser) record(t xml.StartElement) {
	var typ, unit, value, start, end, source string
	for _, a := range t.Attr {
		switch a.Name.Local {
		case "type":
			typ = a.Value
		case "unit":
			unit = a.Value
		case "value":
			value = a.Value
		case "startDate":
			start = a.Value
		case "endDate":
			end = a.Value
		case "sourceName":
			source = a.Value
		}
	}
	q, ok := appleTypes[typ]
	if !ok {
		if typ == "" {
			typ = "Record"
		}
		p.out.unknown(typ)
		return
	}
	el := "Record " + typ
	v, ok := parseNumber(value)
	if !ok {
		p.reject(typ, el, "value %q is not a number", value)
		return
	}
	var canon float64
	if q.pct {
		if unit != "%" && unit != "" {
			p.reject(typ, el, "unknown unit %q (want %%)", unit)
			return
		}
		if v < 0 || v > 1 {
			p.reject(typ, el, "value %v is outside 0-1 (Apple writes body fat as a fraction)", v)
			return
		}
		canon = v * 100
	} else {
		f, ok := q.units[unit]
		if !ok {
			p.reject(typ, el, "unknown unit %q", unit)
			return
		}
		canon = v * f
	}
	if canon < q.min || (q.minEx && canon == q.min) || canon > q.max {
		p.reject(typ, el, "value %v %s is out of range", v, unit)
		return
	}
	st, off, ok := parseAppleTime(start)
	if !ok {
		p.reject(typ, el, "startDate %q is not a time like 2024-01-05 07:31:12 -0800", start)
		return
	}
	en := st
	if end != "" {
		if en, _, ok = parseAppleTime(end); !ok {
			p.reject(typ, el, "endDate %q is not a time like 2024-01-05 07:31:12 -0800", end)
			return
		}
		if en.Before(st) {
			p.reject(typ, el, "endDate is before startDate")
			return
		}
	}
	p.pend = pendingRecord{active: true, depth: p.depth, source: source}
	r := &p.pend.rec
	*r = record{kind: q.kind, label: typ, line: p.line(),
		key: p.k.reset(typ).time(st).time(en).num(canon).str(source).sum()}
	switch q.kind {
	case recWeight:
		r.weight = health.WeightReading{MeasuredAt: st, WeightKg: canon}
	case recSample:
		r.sample = sample{kind: q.stage, at: st, value: canon}
		if q.meal {
			p.pend.local = st.Add(time.Duration(off) * time.Second) // wall clock, read in UTC
			r.sample.slot = "pending"                               // set at the end tag, by meal or time
		}
	}
}
