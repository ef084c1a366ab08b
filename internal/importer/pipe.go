package importer

import (
	"context"
)

// The parser and the SQLite writer each keep a core busy, so they run on two
// goroutines joined by a small ring of reusable batches: memory stays bounded
// (at most pipeBatches batches exist) and the writer sees the parser's events
// in order, exactly as if it were called directly.

const (
	pipeBatchSize = 512
	pipeBatches   = 4
)

type eventKind uint8

const (
	evEmit eventKind = iota
	evReject
	evUnknown
	evNote
	evWarn
	evCorrect
	evCleaned
)

// event is one emitter call, queued for the writer.
type event struct {
	kind    eventKind
	rec     record
	label   string // reject: record label; unknown: element name; note: the text
	problem Problem
	n       int
}

// pipe is the parser side: an emitter that queues events in batches. It
// counts records for progress on the parser goroutine.
type pipe struct {
	ctx  context.Context
	prog *progress
	cur  []event
	full chan []event
	free chan []event
}

func newPipe(ctx context.Context, prog *progress) *pipe {
	p := &pipe{ctx: ctx, prog: prog, full: make(chan []event, pipeBatches-2), free: make(chan []event, pipeBatches)}
	for range pipeBatches - 1 {
		p.free <- make([]event, 0, pipeBatchSize)
	}
	p.cur = make([]event, 0, pipeBatchSize)
	return p
}

func (p *pipe) add(e event) error {
	p.prog.record()
	return p.addMeta(e)
}

// flush hands the current batch to the writer and takes a free one. Once
// sent, the batch is the writer's: cur is cleared before waiting, so a
// flush after cancellation cannot send it again (the writer would apply it
// twice and overfill the ring returning it). After cancellation nothing is
// sent at all; select alone would pick a ready send half the time.
func (p *pipe) flush() error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if len(p.cur) == 0 {
		return nil
	}
	select {
	case p.full <- p.cur:
		p.cur = nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	select {
	case p.cur = <-p.free:
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	return nil
}

func (p *pipe) emit(r *record) error { return p.add(event{kind: evEmit, rec: *r}) }

func (p *pipe) reject(label string, pr Problem) {
	// A failed send means the writer stopped; the parser notices on its next emit.
	_ = p.add(event{kind: evReject, label: label, problem: pr})
}

func (p *pipe) unknown(name string) { _ = p.add(event{kind: evUnknown, label: name}) }

// note, warn and cleaned are not records: they bypass the record count.
func (p *pipe) note(msg string) { _ = p.addMeta(event{kind: evNote, label: msg}) }

func (p *pipe) warn(pr Problem) { _ = p.addMeta(event{kind: evWarn, problem: pr}) }

func (p *pipe) correct(what string, line int, value string) {
	_ = p.addMeta(event{kind: evCorrect, label: what, problem: Problem{Line: line, Message: value}})
}

func (p *pipe) cleaned(n int) { _ = p.addMeta(event{kind: evCleaned, n: n}) }

func (p *pipe) addMeta(e event) error {
	p.cur = append(p.cur, e)
	if len(p.cur) < pipeBatchSize {
		return nil
	}
	return p.flush()
}

// runPipeline runs parse on its own goroutine, feeding w on this one (the
// goroutine that owns the transaction). A writer error stops the parser.
// It returns the writer's error first, else the parser's.
func runPipeline(ctx context.Context, prog *progress, w *writer, parse func(context.Context, emitter) error) error {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := newPipe(pctx, prog)
	perr := make(chan error, 1)
	go func() {
		err := parse(pctx, p)
		if ferr := p.flush(); err == nil {
			err = ferr
		}
		close(p.full)
		perr <- err
	}()
	var werr error
	for batch := range p.full {
		if werr == nil {
			if werr = w.apply(batch); werr != nil {
				cancel()
			}
		}
		p.free <- batch[:0]
	}
	if err := <-perr; werr == nil {
		return err
	}
	return werr
}

// apply feeds a batch of events to the writer.
func (w *writer) apply(batch []event) error {
	for i := range batch {
		e := &batch[i]
		switch e.kind {
		case evEmit:
			if err := w.emit(&e.rec); err != nil {
				return err
			}
		case evReject:
			w.reject(e.label, e.problem)
		case evUnknown:
			w.unknown(e.label)
		case evNote:
			w.note(e.label)
		case evWarn:
			w.warn(e.problem)
		case evCorrect:
			w.correct(e.label, e.problem.Line, e.problem.Message)
		case evCleaned:
			w.cleaned(e.n)
		}
	}
	return nil
}
