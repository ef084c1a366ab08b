package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"hearth/internal/export"
	"hearth/internal/store"
	"hearth/internal/text"
)

// A zip of CSV files (MyFitnessPal's and Withings' exports, Hearth's own
// hearth-<member>-<date>.zip, any zip of CSV files) is imported file by
// file: each CSV file's kind and app are detected on their own, each is
// imported in its own transaction and import run, named "<zip> › <file>",
// and the report lists each file. An Apple Health export.zip (an XML export
// inside) is read as one export, as before; its ECG CSV files are not
// Hearth's. Entry names are labels only: nothing is written to disk, so a
// name like "../x.csv" goes nowhere.

// Limits against crafted zips, besides the size and ratio caps of every
// import (limits.go), which hold for the zip's files together.
const (
	// maxZipEntries bounds the central directory, counted before it is
	// read into memory (a decade's Apple export with workout routes has a
	// few thousand entries).
	maxZipEntries = 50_000
	// maxZipCSVs is how many CSV files of one zip are imported.
	maxZipCSVs = 64
)

// zipSep joins a zip's name and a file in it, for runs and messages.
const zipSep = " › "

// isZip reports whether r starts like a zip file.
func isZip(r io.ReaderAt) bool {
	head := make([]byte, 4)
	n, _ := r.ReadAt(head, 0)
	return n == 4 && bytes.Equal(head, []byte("PK\x03\x04"))
}

// newZipReader opens a zip after counting its central directory's entries,
// which zip.NewReader would read into memory whatever their number.
func newZipReader(r io.ReaderAt, size int64) (*zip.Reader, error) {
	n, err := countZipEntries(r, size)
	if err != nil {
		return nil, fmt.Errorf("importer: read zip: %w", err)
	}
	if n > maxZipEntries {
		return nil, Problem{Message: fmt.Sprintf("the zip holds more than %d files: not an export Hearth can read; nothing was imported", maxZipEntries)}
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, Problem{Message: "not a readable zip file: " + err.Error()}
	}
	return zr, nil
}

// countZipEntries walks the central directory's headers (stopping past
// maxZipEntries); 0 when the end record cannot be found (zip.NewReader then
// says what is wrong). The count in the end record is not used: it is 16
// bits, and readers (Go's too) go on reading headers past it.
func countZipEntries(r io.ReaderAt, size int64) (int, error) {
	const endLen, locLen, end64Len, dirLen = 22, 20, 56, 46
	tail := min(size, 0xffff+endLen)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < endLen {
		return 0, nil
	}
	end, endAt := buf[i:], size-tail+int64(i)
	dirSize, dirOff := uint64(binary.LittleEndian.Uint32(end[12:])), uint64(binary.LittleEndian.Uint32(end[16:]))
	if binary.LittleEndian.Uint16(end[10:]) == 0xffff || dirSize == 0xffffffff || dirOff == 0xffffffff {
		loc := make([]byte, locLen)
		if endAt >= locLen {
			if _, err := r.ReadAt(loc, endAt-locLen); err == nil && bytes.HasPrefix(loc, []byte("PK\x06\x07")) {
				rec := make([]byte, end64Len)
				if off := binary.LittleEndian.Uint64(loc[8:]); off < uint64(size) {
					if _, err := r.ReadAt(rec, int64(off)); err == nil && bytes.HasPrefix(rec, []byte("PK\x06\x06")) {
						dirSize, dirOff = binary.LittleEndian.Uint64(rec[40:]), binary.LittleEndian.Uint64(rec[48:])
					}
				}
			}
		}
	}
	hdr := make([]byte, dirLen)
	at := func(off uint64) bool {
		if off > uint64(size) {
			return false
		}
		_, err := r.ReadAt(hdr, int64(off))
		return err == nil && bytes.HasPrefix(hdr, []byte("PK\x01\x02"))
	}
	off := dirOff
	// Data before the zip (a self-extracting archive) shifts the directory.
	if base := uint64(endAt) - dirSize - dirOff; !at(off) && uint64(endAt) >= dirSize+dirOff && at(base+dirOff) {
		off = base + dirOff
	}
	n := 0
	for at(off) && n <= maxZipEntries {
		n++
		off += dirLen + uint64(binary.LittleEndian.Uint16(hdr[28:])) + uint64(binary.LittleEndian.Uint16(hdr[30:])) +
			uint64(binary.LittleEndian.Uint16(hdr[32:]))
	}
	return n, nil
}

// csvZip returns r as a zip whose CSV files are to be imported one by one,
// or nil: not a zip, an Apple Health export.zip (read as one export), or
// a file openSource refuses with its reason.
func csvZip(r io.ReaderAt, size int64, kind Kind, maxBytes int64) *zip.Reader {
	if kind == KindApple || size > maxBytes || !isZip(r) {
		return nil
	}
	zr, err := newZipReader(r, size)
	if err != nil {
		return nil
	}
	if kind == KindAuto && appleEntry(zr) != nil {
		return nil
	}
	if files, _ := zipCSVs(zr); len(files) == 0 {
		return nil
	}
	return zr
}

// zipCSVs lists the CSV files of a zip in its order, leaving out folders,
// macOS's __MACOSX/ copies and hidden files; hearth says the zip is
// Hearth's own export (member.json beside its CSV files).
func zipCSVs(zr *zip.Reader) (files []*zip.File, hearth bool) {
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		hearth = hearth || name == "member.json"
		base := path.Base(name)
		if f.FileInfo().IsDir() || strings.HasPrefix(name, "__MACOSX/") || strings.HasPrefix(base, ".") {
			continue
		}
		if ext := strings.ToLower(path.Ext(base)); ext == ".csv" || ext == ".tsv" {
			files = append(files, f)
		}
	}
	return files, hearth
}

// zipLabel is an entry's name as shown: one line, at most 200 bytes.
func zipLabel(name string) string {
	s, _ := text.Clean(text.Line, strings.TrimPrefix(name, "/"))
	return truncate(s, 200)
}

// importZip imports each CSV file of zr (see the top of the file). It
// fails only when no file imported: then the error lists why.
func importZip(ctx context.Context, db *store.DB, opts Options, co csvOptions, name string, zr *zip.Reader, maxBytes int64) (Summary, error) {
	started := time.Now()
	sum := Summary{File: name, Kind: KindZip}
	files, hearth := zipCSVs(zr)
	budget := maxBytes // what every file of the zip may unpack to, together
	var forReading []string
	imported := 0
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		label := zipLabel(f.Name)
		if hearth && !slices.Contains(export.Reimported(), strings.TrimPrefix(f.Name, "/")) {
			forReading = append(forReading, label)
			continue
		}
		if len(sum.Files) >= maxZipCSVs {
			sum.Skipped = append(sum.Skipped, SkippedFile{File: label, Reason: fmt.Sprintf("only the first %d CSV files of a zip are imported", maxZipCSVs)})
			continue
		}
		part, skip, err := importZipFile(ctx, db, opts, co, name, label, f, &budget)
		switch {
		case skip != "":
			sum.Skipped = append(sum.Skipped, SkippedFile{File: label, Reason: skip})
			continue
		case err != nil && ctx.Err() != nil:
			return sum, err
		case err != nil:
			var ve *ValidationError
			if !errors.As(err, &ve) {
				return sum, err // storage failed: stop, as for any file
			}
			part.Error = strings.TrimPrefix(ve.Error(), ve.File+": ")
		default:
			imported++
		}
		sum.addPart(part, label)
	}
	if len(forReading) > 0 {
		sum.addNote(fmt.Sprintf("not imported, for reading only: %s (Hearth re-imports %s)", strings.Join(forReading, ", "),
			strings.Join(export.Reimported(), ", ")))
	}
	sum.Duration = time.Since(started)
	if imported > 0 {
		return sum, nil
	}
	ve := &ValidationError{File: name}
	for _, p := range sum.Problems {
		ve.Problems = append(ve.Problems, p)
	}
	for _, s := range sum.Skipped {
		ve.Problems = append(ve.Problems, Problem{File: s.File, Message: s.Reason})
	}
	if len(ve.Problems) == 0 {
		ve.Problems = []Problem{{Message: "the zip holds no CSV file Hearth imports"}}
	}
	ve.Total = max(len(ve.Problems), sum.TotalProblems+len(sum.Skipped))
	if len(ve.Problems) > maxProblems {
		ve.Problems = ve.Problems[:maxProblems]
	}
	return sum, ve
}

// importZipFile imports one CSV file of a zip as a run of its own. skip
// says why a file was not imported at all (no run): its kind cannot be
// told, or it does not fit what is left of the size limit.
func importZipFile(ctx context.Context, db *store.DB, opts Options, co csvOptions, zipName, label string, f *zip.File,
	budget *int64) (part Summary, skip string, err error) {
	part = Summary{File: zipName + zipSep + label, Kind: opts.Kind}
	if part.Kind == "" {
		part.Kind = KindAuto
	}
	switch {
	case f.Flags&0x1 != 0:
		return part, "it is encrypted", nil
	case f.UncompressedSize64 > uint64(*budget):
		return part, fmt.Sprintf("it unpacks to more than the %s left of the import limit (HEARTH_IMPORT_MAX_BYTES)", sizeText(*budget)), nil
	}
	open := func() (*capReader, io.Closer, error) {
		rc, err := f.Open()
		if err != nil {
			return nil, nil, err
		}
		// The sizes a zip declares can lie: the limits hold for what comes out.
		return &capReader{r: rc, max: *budget, compressed: max(f.CompressedSize64, 1)}, rc, nil
	}
	src, closer, err := open()
	if err != nil {
		return part, "it cannot be read: " + err.Error(), nil
	}
	co.kind = part.Kind
	why := sniffCSV(ctx, src, co)
	_ = closer.Close()
	if why != "" {
		return part, why, nil
	}
	started := time.Now()
	if part.ImportID, err = beginRun(ctx, db, opts.Member, part.File, part.Kind); err != nil {
		return part, "", err
	}
	if src, closer, err = open(); err != nil {
		return part, "", fail(ctx, db, &part, started, Problem{Message: "cannot read the file in the zip: " + err.Error()})
	}
	defer closer.Close()
	err = importRun(ctx, db, opts, co, &part, src, int64(f.UncompressedSize64), started)
	*budget -= src.n
	return part, "", err
}

// errSniffed stops a parse once the file's kind is known.
var errSniffed = errors.New("importer: kind known")

// sniffCSV reads a CSV file's header (up to its first good row) and says
// why it cannot be imported, or "" when it can: its kind cannot be told, or
// it is not the kind chosen.
func sniffCSV(ctx context.Context, r io.Reader, co csvOptions) string {
	var res csvResult
	err := parseCSV(ctx, r, co, sniffer{}, &res)
	if p, ok := asProblem(err); ok {
		return p.Message
	}
	if err != nil && !errors.Is(err, errSniffed) {
		return "it cannot be read: " + err.Error()
	}
	return ""
}

// sniffer is the emitter of sniffCSV: the first record ends the parse.
type sniffer struct{}

func (sniffer) emit(*record) error          { return errSniffed }
func (sniffer) reject(string, Problem)      {}
func (sniffer) unknown(string)              {}
func (sniffer) note(string)                 {}
func (sniffer) warn(Problem)                {}
func (sniffer) correct(string, int, string) {}
func (sniffer) cleaned(int)                 {}

// addPart adds a file's summary to a zip's: its counts to the totals, its
// problems named by file.
func (s *Summary) addPart(part Summary, label string) {
	s.Added += part.Added
	s.Updated += part.Updated
	s.SkippedDuplicate += part.SkippedDuplicate
	s.KeptEdits += part.KeptEdits
	s.RepeatedInFile += part.RepeatedInFile
	s.SkippedUnknown += part.SkippedUnknown
	s.Rejected += part.Rejected
	s.Bytes += part.Bytes
	s.Records += part.Records
	s.CharsDropped += part.CharsDropped
	for l, c := range part.Types {
		s.count(l, func(t *TypeCount) {
			t.Added += c.Added
			t.Updated += c.Updated
			t.Duplicate += c.Duplicate
			t.Repeated += c.Repeated
			t.Kept += c.Kept
			t.Rejected += c.Rejected
		})
	}
	for _, p := range part.Problems {
		if len(s.Problems) < maxProblems {
			p.File = label
			s.Problems = append(s.Problems, p)
		}
	}
	s.TotalProblems += part.TotalProblems
	s.Files = append(s.Files, part)
}

// FailedFiles counts the files of a zip that imported nothing.
func (s Summary) FailedFiles() int {
	n := 0
	for _, f := range s.Files {
		if f.Error != "" {
			n++
		}
	}
	return n
}
