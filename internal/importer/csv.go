package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"hearth/internal/health"
)

// csvSniffSize is how much of a CSV file is looked at to pick the delimiter.
const csvSniffSize = 32 << 10

// csvOptions say how to read a CSV file.
type csvOptions struct {
	kind     Kind           // KindAuto or a CSV kind
	loc      *time.Location // household zone for times without an offset
	unit     health.Unit    // weight unit when the file states none
	unitFrom string         // where unit came from, for the report
}

// csvResult is what a CSV parse found out, read after it returns.
type csvResult struct {
	kind    Kind
	profile string
	unit    health.Unit // set when unit was used for a file that states none
}

// parseCSV reads a weight, meals or workouts CSV (a generic one, or one of
// the app exports in csvProfiles) into out. A file it cannot make sense of
// stops with a Problem; a bad row is rejected and reading goes on.
func parseCSV(ctx context.Context, r io.Reader, o csvOptions, out emitter, res *csvResult) error {
	res.kind = o.kind
	utf8Text, transcoded, err := csvText(&lineGuard{r: r})
	if err != nil {
		return fmt.Errorf("importer: read csv: %w", err)
	}
	if transcoded != "" {
		out.note("the file is not UTF-8: " + transcoded)
	}
	br := bufio.NewReaderSize(utf8Text, 64<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\ufeff")) {
		_, _ = br.Discard(3)
	}
	startLine := 1
	delim, skip := excelSep(br)
	if skip {
		startLine = 2
	} else {
		sample, err := br.Peek(csvSniffSize)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("importer: read csv: %w", err)
		}
		delim = sniffDelimiter(sample, err != nil)
	}
	cr := csv.NewReader(br)
	cr.Comma, cr.FieldsPerRecord, cr.ReuseRecord, cr.TrimLeadingSpace = delim, -1, true, true
	p := &csvParser{out: out, o: o, res: res, decimalComma: delim != ',', thousandsComma: delim == ',', lineOffset: startLine - 1}
	defer p.finish()

	first, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Problem{Message: "the file is empty"}
	}
	if err != nil {
		return p.readProblem(err)
	}
	line, _ := cr.FieldPos(0)
	line += p.lineOffset
	if _, isData := parseCSVTime(first[0], o.loc); isData {
		if err := p.headerless(len(first), line); err != nil {
			return err
		}
		if err := p.rowErr(first, line); err != nil {
			return err
		}
	} else if err := p.header(first, line); err != nil {
		return err
	}
	res.kind = p.kind
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return p.flush()
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return fmt.Errorf("importer: read csv: %w", err)
			}
			p.out.reject(string(p.kind), p.readProblem(err))
			continue
		}
		line, _ := cr.FieldPos(0)
		if err := p.rowErr(rec, line+p.lineOffset); err != nil {
			return err
		}
	}
}

// excelSep reads Excel's optional first line "sep=;".
func excelSep(br *bufio.Reader) (rune, bool) {
	b, _ := br.Peek(7)
	if len(b) < 5 || !bytes.EqualFold(b[:4], []byte("sep=")) {
		return 0, false
	}
	rest := b[5:]
	if len(rest) > 0 && rest[0] == '\r' {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0] != '\n' {
		return 0, false
	}
	d := rune(b[4])
	if d != ',' && d != ';' && d != '\t' {
		return 0, false
	}
	_, _ = br.Discard(len(b) - len(rest) + 1)
	return d, true
}

// sniffDelimiter picks ',', ';' or tab: the one that splits the first lines
// into the same number of fields (more than one), preferring more fields.
// complete says sample is the whole file; otherwise its last partial line is
// ignored.
func sniffDelimiter(sample []byte, complete bool) rune {
	if !complete {
		if i := bytes.LastIndexByte(sample, '\n'); i >= 0 {
			sample = sample[:i+1]
		}
	}
	best, bestScore := ',', 0
	for _, d := range []rune{',', ';', '\t'} {
		cr := csv.NewReader(bytes.NewReader(sample))
		cr.Comma, cr.FieldsPerRecord, cr.LazyQuotes = d, -1, true
		var counts []int
		for len(counts) < 10 {
			rec, err := cr.Read()
			if err != nil {
				break
			}
			counts = append(counts, len(rec))
		}
		if len(counts) == 0 || counts[0] < 2 {
			continue
		}
		score := counts[0]
		consistent := true
		for _, c := range counts {
			consistent = consistent && c == counts[0]
		}
		if consistent {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}

// headerless sets up a file whose first row is data: the columns are in the
// documented order and the kind follows from their count.
func (p *csvParser) headerless(n, line int) error {
	p.kind = p.o.kind
	if !p.kind.isCSV() {
		switch n {
		case 2, 3, 4:
			p.kind = KindCSVWeight
		case 5:
			p.kind = KindCSVWorkouts
		case 6:
			p.kind = KindCSVMeals
		default:
			return Problem{Line: line, Message: fmt.Sprintf("cannot tell what this CSV holds: no header row and %d columns "+
				"(weight has 2-4, workouts 5, meals 6); add a header or choose the kind", n)}
		}
	}
	for i := range p.cols {
		p.cols[i] = colRef{idx: -1}
	}
	for i, f := range headerlessOrder[p.kind] {
		p.cols[f] = colRef{idx: i}
	}
	p.merge = kindMerge[p.kind]
	return nil
}

// headerlessOrder is the column order of a file without a header.
var headerlessOrder = map[Kind][]csvField{
	KindCSVWeight:    {fTime, fWeight, fUnit, fBodyFat},
	KindCSVMeals:     {fTime, fName, fCalories, fProtein, fCarbs, fFat},
	KindCSVWorkouts:  {fTime, fType, fTitle, fDuration, fAvgHR},
	KindCSVBodyScans: {fTime, fBodyFat, fLeanMass, fFatMass, fBoneMass, fVisceral},
}

var kindMerge = map[Kind]mergeMode{KindCSVWeight: mergeLast, KindCSVMeals: mergeSum, KindCSVWorkouts: mergeSum}

// header reads the header row: an app's export is recognised by its
// columns (csvProfiles); otherwise the kind follows from the columns, or
// from the caller.
func (p *csvParser) header(row []string, line int) error {
	cols := make([]headerCol, len(row))
	has := map[string]bool{}
	for i, h := range row {
		cols[i] = parseHeaderCell(h)
		has[cols[i].base] = true
	}
	p.headerLine = line
	for _, prof := range csvProfiles {
		if !prof.detect(cols, has) {
			continue
		}
		if p.o.kind.isCSV() && p.o.kind != prof.kind {
			return Problem{Line: line, Message: fmt.Sprintf("this is a %s export, which holds %s, not %s",
				prof.name, kindNoun[prof.kind], kindNoun[p.o.kind])}
		}
		p.prof, p.kind, p.merge = prof, prof.kind, prof.merge
		p.res.profile = prof.name
		if prof.setup != nil {
			return prof.setup(p, cols, line)
		}
		return p.mapHeader(cols, line)
	}
	p.kind = p.o.kind
	if !p.kind.isCSV() {
		p.kind = kindOfHeader(cols)
		if p.kind == "" {
			return Problem{Line: line, Message: fmt.Sprintf("cannot tell what this CSV holds from its header %q "+
				"(expected columns like date,weight or datetime,name,calories or datetime,type,duration_min)",
				strings.Join(row, ","))}
		}
	}
	p.merge = kindMerge[p.kind]
	return p.mapHeader(cols, line)
}

var kindNoun = map[Kind]string{KindCSVWeight: "weigh-ins", KindCSVMeals: "meals", KindCSVWorkouts: "workouts",
	KindCSVBodyScans: "body scans"}

// kindOfHeader guesses a generic file's kind from its columns: a weight
// column makes weigh-ins, a duration workouts, calories meals, and body
// composition without a weight body scans (Hearth's own export).
func kindOfHeader(cols []headerCol) Kind {
	for _, try := range []struct {
		kind  Kind
		field csvField
	}{{KindCSVWeight, fWeight}, {KindCSVWorkouts, fDuration}, {KindCSVMeals, fCalories}, {KindCSVBodyScans, fBodyFat},
		{KindCSVBodyScans, fLeanMass}} {
		for _, c := range cols {
			if f, ok := kindFields[try.kind][c.base]; ok && f == try.field {
				return try.kind
			}
		}
	}
	return ""
}

// readProblem explains a CSV syntax error.
func (p *csvParser) readProblem(err error) Problem {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return Problem{Line: pe.StartLine + p.lineOffset, Column: pe.Column, Message: "CSV syntax error: " + pe.Err.Error()}
	}
	return Problem{Message: err.Error()}
}
