package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Import reads one file and stores its records for opts.Member, all in one
// write transaction: either every record of the file is kept or none is.
// name is the file's name for messages and the import history; r and size
// give its bytes (an export.zip is read in place). The member must exist
// (apperr.NotFound otherwise). A file with problems returns a
// *ValidationError, which is an apperr.Invalid error, and the Summary lists
// the first problems. Every call past the member check is recorded in the
// imports table.
//
// Progress is called from an importer goroutine, never concurrently; it must
// not write to the database, whose only writer connection the import holds
// for the whole file (BENCHMARKS.md says how long that is for large exports).
func Import(ctx context.Context, db *store.DB, opts Options, name string, r io.ReaderAt, size int64) (Summary, error) {
	started := time.Now()
	kind, err := ParseKind(string(opts.Kind))
	sum := Summary{File: name, Kind: kind}
	if err != nil {
		return sum, err
	}
	if opts.Member == "" {
		return sum, apperr.Invalidf("choose the member to import for")
	}
	m, err := db.Member(ctx, opts.Member)
	if err != nil {
		return sum, err
	}
	co := csvOptions{loc: opts.Location, unit: opts.Unit, unitFrom: "as chosen for this import"}
	if co.loc == nil {
		co.loc = time.Local
	}
	if co.unit == "" {
		co.unit, co.unitFrom = m.Unit, "the member's unit setting"
	}
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if zr := csvZip(r, size, kind, maxBytes); zr != nil {
		return importZip(ctx, db, opts, co, name, zr, maxBytes)
	}
	if sum.ImportID, err = beginRun(ctx, db, opts.Member, name, kind); err != nil {
		return sum, err
	}
	src, total, err := openSource(r, size, &sum.Kind, maxBytes)
	if err != nil {
		return sum, fail(ctx, db, &sum, started, err)
	}
	defer src.Close()
	return sum, importRun(ctx, db, opts, co, &sum, src, total, started)
}

// importRun reads src (total bytes, 0 if unknown) as sum.Kind and stores
// its records in one transaction, finishing the run sum.ImportID.
func importRun(ctx context.Context, db *store.DB, opts Options, co csvOptions, sum *Summary, src io.Reader, total int64, started time.Time) error {
	name := sum.File
	prog := newProgress(src, name, total, opts.Progress)
	defer prog.done()

	err := db.Tx(ctx, func(tx *store.Tx) error {
		q := newStmtCache(tx)
		defer q.close()
		source := SourceCSV
		if sum.Kind == KindApple {
			source = SourceApple
		}
		w := &writer{ctx: ctx, q: q, member: opts.Member, source: source, importID: sum.ImportID, now: db.Now(),
			sum: sum, strict: opts.Strict}
		co.kind = sum.Kind
		var res csvResult
		perr := runPipeline(ctx, prog, w, parser(co, prog, &res))
		if source == SourceCSV {
			sum.Kind, sum.Profile, sum.Unit = res.kind, res.profile, res.unit
		}
		sum.Bytes, sum.Records = prog.p.BytesRead, prog.p.Records
		if p, ok := asProblem(perr); ok {
			w.fail(p)
		} else if perr != nil {
			return perr
		}
		if w.failed() {
			sum.Problems, sum.TotalProblems = w.problems, w.nProblem
			return &ValidationError{File: name, Problems: w.problems, Total: w.nProblem}
		}
		finalize := finalizeApple
		if source == SourceCSV {
			finalize = finalizeCSV
		}
		if err := finalize(w); err != nil {
			return err
		}
		sum.Problems, sum.TotalProblems = w.problems, w.nProblem
		if sum.Rejected > 0 && sum.Added+sum.Updated+sum.SkippedDuplicate+sum.KeptEdits+sum.RepeatedInFile == 0 {
			return &ValidationError{File: name, Problems: w.problems, Total: w.nProblem} // nothing in it was usable
		}
		sum.Duration = time.Since(started)
		if pub := opts.Publisher; pub != nil && sum.Added > 0 {
			tx.AfterCommit(func() {
				pub.Publish(live.MemberTopic(opts.Member), live.KindImport, nil)
				pub.Publish(live.TopicHousehold, live.KindImport, opts.Member)
			})
		}
		return finishRun(ctx, tx, db.Now(), StatusComplete, sum, "")
	})
	if err != nil {
		return fail(ctx, db, sum, started, err)
	}
	return nil
}

// parser returns the parse step for the file, reading src; a CSV parser
// stores what it found out in *res.
func parser(o csvOptions, src io.Reader, res *csvResult) func(context.Context, emitter) error {
	return func(ctx context.Context, out emitter) error {
		if o.kind == KindApple {
			return parseApple(ctx, src, out)
		}
		return parseCSV(ctx, src, o, out, res)
	}
}

// ImportFile imports the file at path (see Import).
func ImportFile(ctx context.Context, db *store.DB, opts Options, path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{File: filepath.Base(path)}, apperr.Invalidf("cannot open %s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Summary{File: filepath.Base(path)}, fmt.Errorf("importer: %w", err)
	}
	if st.IsDir() {
		return Summary{File: filepath.Base(path)}, apperr.Invalidf("%s is a directory", path)
	}
	return Import(ctx, db, opts, filepath.Base(path), f, st.Size())
}

// asProblem reports whether err says the file is bad (rather than that
// reading or storing failed); a damaged zip is a bad file too.
func asProblem(err error) (Problem, bool) {
	var p Problem
	if errors.As(err, &p) {
		return p, true
	}
	if err != nil && isZipDamage(err) {
		return Problem{Message: "the zip file is damaged: " + err.Error()}, true
	}
	return p, false
}

// fail records a failed import (even if ctx was cancelled) and returns the
// error to show: a *ValidationError for a bad file.
func fail(ctx context.Context, db *store.DB, sum *Summary, started time.Time, err error) error {
	var ve *ValidationError
	if p, ok := asProblem(err); ok {
		sum.Problems, sum.TotalProblems = []Problem{p}, 1
		ve = &ValidationError{File: sum.File, Problems: sum.Problems, Total: 1}
	} else {
		errors.As(err, &ve)
	}
	sum.discard()
	sum.Duration = time.Since(started)
	if ve != nil {
		err = ve
	} else {
		err = fmt.Errorf("importer: %s: %w", sum.File, err)
	}
	msg := err.Error()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if ferr := finishRun(wctx, db.Write, db.Now(), StatusFailed, sum, msg); ferr != nil {
		return errors.Join(err, ferr)
	}
	return err
}
