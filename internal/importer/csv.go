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
)

// csvSniffSize is how much of a CSV file is looked at to pick the delimiter.
const csvSniffSize = 32 << 10

// parseCSV reads a weight, meals or workouts CSV into out and returns the kind
// it read (detected from the header, or from the column count without one,
// when kind is KindAuto). A file it cannot make sense of stops with a Problem.
func parseCSV(ctx context.Context, r io.Reader, kind Kind, loc *time.Location, out emitter) (Kind, error) {
	br := bufio.NewReaderSize(r, 64<<10)
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
			return kind, fmt.Errorf("importer: read csv: %w", err)
		}
		delim = sniffDelimiter(sample, err != nil)
	}
	cr := csv.NewReader(br)
	cr.Comma, cr.FieldsPerRecord, cr.ReuseRecord, cr.TrimLeadingSpace = delim, -1, true, true
	p := &csvParser{out: out, loc: loc, decimalComma: delim != ',', lineOffset: startLine - 1}

	first, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return kind, Problem{Message: "the file is empty"}
	}
	if err != nil {
		return kind, p.readProblem(err)
	}
	line, _ := cr.FieldPos(0)
	line += p.lineOffset
	_, isData := parseCSVTime(first[0], loc)
	if isData {
		if kind, err = kindByCount(kind, len(first), line); err != nil {
			return kind, err
		}
		p.cols = positional(kind)
	} else {
		if kind, err = kindByHeader(kind, first, line); err != nil {
			return kind, err
		}
		if p.cols, err = headerColumns(kind, first, line); err != nil {
			return kind, err
		}
	}
	p.kind = kind
	if isData {
		if err := p.row(first, line); err != nil {
			return kind, err
		}
	}
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return kind, err
			}
		}
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return kind, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return kind, fmt.Errorf("importer: read csv: %w", err)
			}
			p.out.reject(string(kind), p.readProblem(err))
			continue
		}
		line, _ := cr.FieldPos(0)
		if err := p.row(rec, line+p.lineOffset); err != nil {
			return kind, err
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

func kindByCount(kind Kind, n, line int) (Kind, error) {
	if kind.isCSV() {
		return kind, nil
	}
	switch n {
	case 3, 4:
		return KindCSVWeight, nil
	case 5:
		return KindCSVWorkouts, nil
	case 6:
		return KindCSVMeals, nil
	}
	return kind, Problem{Line: line, Message: fmt.Sprintf("cannot tell what this CSV holds: no header row and %d columns "+
		"(weight has 3-4, workouts 5, meals 6); add a header or choose the kind", n)}
}

func kindByHeader(kind Kind, header []string, line int) (Kind, error) {
	if kind.isCSV() {
		return kind, nil
	}
	has := map[string]bool{}
	for _, h := range header {
		has[normalizeHeader(h)] = true
	}
	for _, try := range []Kind{KindCSVWeight, KindCSVWorkouts, KindCSVMeals, KindCSVBodyScans} {
		for _, name := range csvLayouts[try].detect {
			if has[name] {
				return try, nil
			}
		}
	}
	return kind, Problem{Line: line, Message: fmt.Sprintf("cannot tell what this CSV holds from its header %q "+
		"(expected columns like date,weight,unit or datetime,name,calories or datetime,type,duration_min)",
		strings.Join(header, ","))}
}
