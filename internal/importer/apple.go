package importer

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"hearth/internal/health"
)

// appleParser streams an export.xml: one token at a time, keeping only the
// workout being read (its statistics are child elements) and a reused record.
type appleParser struct {
	d     *xml.Decoder
	src   *readErr
	out   emitter
	k     keyer
	rec   record
	wk    appleWorkout
	depth int
}

// parseApple streams an Apple Health export.xml into out. A file that is not
// a complete, well-formed export stops with a Problem error; I/O failures and
// cancellation are returned as they are.
func parseApple(ctx context.Context, r io.Reader, out emitter) error {
	src := &readErr{r: r}
	p := &appleParser{d: xml.NewDecoder(bufio.NewReaderSize(src, 256<<10)), src: src, out: out}
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
			if p.wk.active && p.depth == p.wk.depth {
				if err := p.endWorkout(); err != nil {
					return err
				}
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
		return p.record(t)
	case "Workout":
		p.startWorkout(t)
	case "WorkoutStatistics":
		if p.wk.active {
			p.workoutStats(t)
		}
	case "ExportDate", "Me":
	default:
		if p.depth == 2 { // ActivitySummary, Correlation, ClinicalRecord, …
			p.out.unknown(t.Name.Local)
		}
	}
	return nil
}

func (p *appleParser) reject(label, element string, format string, args ...any) {
	p.out.reject(label, Problem{Line: p.line(), Element: element, Message: fmt.Sprintf(format, args...)})
}

// record handles a Record element, wherever it is: Records nested in a food
// Correlation repeat top-level ones and deduplicate by key.
func (p *appleParser) record(t xml.StartElement) error {
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
		return nil
	}
	el := "Record " + typ
	v, ok := parseNumber(value)
	if !ok {
		p.reject(typ, el, "value %q is not a number", value)
		return nil
	}
	var canon float64
	if q.pct {
		if unit != "%" && unit != "" {
			p.reject(typ, el, "unknown unit %q (want %%)", unit)
			return nil
		}
		if v < 0 || v > 1 {
			p.reject(typ, el, "value %v is outside 0-1 (Apple writes body fat as a fraction)", v)
			return nil
		}
		canon = v * 100
	} else {
		f, ok := q.units[unit]
		if !ok {
			p.reject(typ, el, "unknown unit %q", unit)
			return nil
		}
		canon = v * f
	}
	if canon < q.min || (q.minEx && canon == q.min) || canon > q.max {
		p.reject(typ, el, "value %v %s is out of range", v, unit)
		return nil
	}
	st, off, ok := parseAppleTime(start)
	if !ok {
		p.reject(typ, el, "startDate %q is not a time like 2024-01-05 07:31:12 -0800", start)
		return nil
	}
	en := st
	if end != "" {
		if en, _, ok = parseAppleTime(end); !ok {
			p.reject(typ, el, "endDate %q is not a time like 2024-01-05 07:31:12 -0800", end)
			return nil
		}
		if en.Before(st) {
			p.reject(typ, el, "endDate is before startDate")
			return nil
		}
	}
	r := &p.rec
	*r = record{kind: q.kind, label: typ, line: p.line(),
		key: p.k.reset(typ).time(st).time(en).num(canon).str(source).sum()}
	switch q.kind {
	case recWeight:
		r.weight = health.WeightReading{MeasuredAt: st, WeightKg: canon}
	case recSample:
		r.sample = sample{kind: q.stage, at: st, value: canon}
		if q.meal {
			local := st.Add(time.Duration(off) * time.Second) // wall clock, read in UTC
			r.sample.slot = local.Format(time.DateOnly) + ":" + slotOf(local.Hour(), local.Minute())
		}
	}
	return p.out.emit(r)
}
