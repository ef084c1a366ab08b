package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"hearth/internal/agent"
)

// Step is one unit of work: it gets the previous node's output as input
// and returns its own. Its JSON Schemas (nil = anything) are checked at
// every boundary: Input before Run, Output after, State against the
// workflow state it sees, Suspend against what it asks a person, Resume
// against the answer.
type Step struct {
	ID          string
	Description string
	Input       map[string]any
	Output      map[string]any
	State       map[string]any
	Suspend     map[string]any
	Resume      map[string]any
	// Run does the work. It returns its output (anything that marshals to
	// JSON; a json.RawMessage is kept as is), or Context.Suspend's error to
	// wait for a person. A step that was running when the process died
	// runs again (at least once): writes before a suspend must be
	// idempotent (Context.Key), or happen in the step's checkpoint
	// transaction (Context.Complete).
	Run func(ctx context.Context, c *Context) (any, error)

	input, output, state, suspend, resume *agent.Schema
}

// Node is what a workflow is built of: a *Step or a nested *Workflow.
type Node interface{ nodeID() string }

func (s *Step) nodeID() string     { return s.ID }
func (w *Workflow) nodeID() string { return w.ID }

// Workflow is a committed graph of steps. Build one with New … Commit.
type Workflow struct {
	ID          string
	Description string
	// Input, Output and State are JSON Schemas (nil = anything) for the
	// run's input, its final output and the state its steps share.
	Input, Output, State map[string]any
	// Agent, when set, runs each attempt of a run as one run of Agent on
	// the agent engine (labelled Assignment): the ledger, the budget and
	// the model-call limit apply, and steps reach the engine through
	// Context.Exec. The engine runs of every attempt, an interrupted one
	// included, stay linked to the workflow run.
	Agent, Assignment string
	// Single allows one unfinished run per member: starting another ends a
	// suspended or paused one as failed ("superseded").
	Single bool

	root    []node
	steps   map[string]*Step // by id, nested workflows' included
	version string
	// asks: a step can wait for the member's answer (it has a Suspend
	// schema), so the member's screens follow the run's events.
	asks bool

	input, output, state *agent.Schema
}

// Builder composes a workflow: Then, Parallel, Branch, DoWhile/DoUntil,
// and nested workflows as nodes; Commit checks and freezes it.
type Builder struct {
	w    *Workflow
	errs []string
}

// New starts a workflow definition.
func New(id, description string) *Builder {
	return &Builder{w: &Workflow{ID: id, Description: description}}
}

// Schemas sets the run's input, output and state schemas.
func (b *Builder) Schemas(input, output, state map[string]any) *Builder {
	b.w.Input, b.w.Output, b.w.State = input, output, state
	return b
}

// Engine runs each attempt as one run of agentID on the agent engine,
// labelled assignment (see Workflow.Agent).
func (b *Builder) Engine(agentID, assignment string) *Builder {
	b.w.Agent, b.w.Assignment = agentID, assignment
	return b
}

// Single allows one unfinished run per member (see Workflow.Single).
func (b *Builder) Single() *Builder {
	b.w.Single = true
	return b
}

// Then runs n after what came before, with its output as n's input.
func (b *Builder) Then(n Node) *Builder {
	b.add(node{kind: kindStep, children: []Node{n}})
	return b
}

// Parallel runs the nodes at the same time, each with the same input; the
// output is an object of their outputs by id.
func (b *Builder) Parallel(ns ...Node) *Builder {
	if len(ns) < 2 {
		b.errs = append(b.errs, "Parallel needs two nodes or more")
	}
	b.add(node{kind: kindParallel, children: ns})
	return b
}

// Case is one branch: its node runs when Cond holds.
type Case struct {
	Cond Cond
	Node Node
}

// When is a Branch case.
func When(c Cond, n Node) Case { return Case{Cond: c, Node: n} }

// Branch runs the node of the first case whose condition holds (on the
// previous output and the state); the output is an object with that
// node's output by id, {} when no case held.
func (b *Builder) Branch(cases ...Case) *Builder {
	n := node{kind: kindBranch}
	for _, c := range cases {
		if c.Cond == nil {
			b.errs = append(b.errs, "a Branch case has no condition")
		}
		n.children = append(n.children, c.Node)
		n.conds = append(n.conds, c.Cond)
	}
	if len(cases) == 0 {
		b.errs = append(b.errs, "Branch needs a case")
	}
	b.add(n)
	return b
}

// DefaultMaxIterations bounds a loop whose definition gives no bound.
const DefaultMaxIterations = 100

// DoWhile runs n, then again with its own output as input while cond
// holds on that output; at most max times (0 = DefaultMaxIterations).
func (b *Builder) DoWhile(n Node, cond Cond, max int) *Builder {
	return b.loop(n, cond, max, false)
}

// DoUntil runs n, then again with its own output as input until cond
// holds on that output; at most max times (0 = DefaultMaxIterations).
func (b *Builder) DoUntil(n Node, cond Cond, max int) *Builder {
	return b.loop(n, cond, max, true)
}

func (b *Builder) loop(n Node, cond Cond, max int, until bool) *Builder {
	if cond == nil {
		b.errs = append(b.errs, "a loop has no condition")
	}
	if max <= 0 {
		max = DefaultMaxIterations
	}
	b.add(node{kind: kindLoop, children: []Node{n}, conds: []Cond{cond}, max: max, until: until})
	return b
}

func (b *Builder) add(n node) {
	for _, c := range n.children {
		if c == nil || (isNilStep(c)) || (isNilWorkflow(c)) {
			b.errs = append(b.errs, "a node is nil")
			return
		}
	}
	b.w.root = append(b.w.root, n)
}

func isNilStep(n Node) bool     { s, ok := n.(*Step); return ok && s == nil }
func isNilWorkflow(n Node) bool { w, ok := n.(*Workflow); return ok && w == nil }

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Commit checks the definition (ids, unique step ids across nested
// workflows, schemas that compile) and returns the workflow.
func (b *Builder) Commit() (*Workflow, error) {
	w := b.w
	errs := append([]string(nil), b.errs...)
	if !idPattern.MatchString(w.ID) {
		errs = append(errs, fmt.Sprintf("workflow id %q must match %s", w.ID, idPattern))
	}
	if len(w.root) == 0 {
		errs = append(errs, "the workflow has no steps")
	}
	if (w.Agent == "") != (w.Assignment == "") {
		errs = append(errs, "Engine needs both an agent and an assignment label")
	}
	w.steps = map[string]*Step{}
	seen := map[string]bool{}
	var walk func(ns []node)
	walk = func(ns []node) {
		for _, n := range ns {
			for _, c := range n.children {
				id := c.nodeID()
				if !idPattern.MatchString(id) {
					errs = append(errs, fmt.Sprintf("node id %q must match %s", id, idPattern))
				}
				if seen[id] {
					errs = append(errs, fmt.Sprintf("node id %q is used twice", id))
				}
				seen[id] = true
				switch c := c.(type) {
				case *Step:
					if c.Run == nil {
						errs = append(errs, fmt.Sprintf("step %q has no Run", id))
					}
					if err := c.compile(w.ID); err != nil {
						errs = append(errs, err.Error())
					}
					w.steps[id] = c
				case *Workflow:
					if c.root == nil {
						errs = append(errs, fmt.Sprintf("nested workflow %q is not committed", id))
						continue
					}
					walk(c.root)
				}
			}
		}
	}
	walk(w.root)
	var err error
	if w.input, err = compileOpt(w.ID+"-input", w.Input); err != nil {
		errs = append(errs, err.Error())
	}
	if w.output, err = compileOpt(w.ID+"-output", w.Output); err != nil {
		errs = append(errs, err.Error())
	}
	if w.state, err = compileOpt(w.ID+"-state", w.State); err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("workflow %s: %s", w.ID, strings.Join(errs, "; "))
	}
	w.version = fingerprint(w)
	for _, st := range w.steps {
		w.asks = w.asks || st.Suspend != nil
	}
	return w, nil
}

func (s *Step) compile(wf string) error {
	var err error
	name := wf + "-" + s.ID
	for _, f := range []struct {
		doc map[string]any
		dst **agent.Schema
		k   string
	}{{s.Input, &s.input, "input"}, {s.Output, &s.output, "output"}, {s.State, &s.state, "state"},
		{s.Suspend, &s.suspend, "suspend"}, {s.Resume, &s.resume, "resume"}} {
		if *f.dst, err = compileOpt(name+"-"+f.k, f.doc); err != nil {
			return err
		}
	}
	return nil
}

func compileOpt(name string, doc map[string]any) (*agent.Schema, error) {
	if doc == nil {
		return nil, nil
	}
	return agent.CompileSchema(name, doc)
}

// validate checks raw against s (nil accepts anything).
func validate(s *agent.Schema, raw json.RawMessage) []agent.ValidationError {
	if s == nil {
		if !json.Valid(raw) {
			return []agent.ValidationError{{Path: "/", Message: "not valid JSON"}}
		}
		return nil
	}
	return s.Validate(raw)
}

// Version is the fingerprint of the graph (node ids and kinds): a run
// records the version it started on.
func (w *Workflow) Version() string { return w.version }

// Step returns a step of the workflow (nested workflows' included) by id.
func (w *Workflow) Step(id string) (*Step, bool) {
	s, ok := w.steps[id]
	return s, ok
}

func fingerprint(w *Workflow) string {
	h := sha256.New()
	var walk func(ns []node)
	walk = func(ns []node) {
		for _, n := range ns {
			fmt.Fprintf(h, "(%s", n.kind)
			for _, c := range n.children {
				fmt.Fprintf(h, " %s", c.nodeID())
				if sub, ok := c.(*Workflow); ok {
					walk(sub.root)
				}
			}
			h.Write([]byte(")"))
		}
	}
	walk(w.root)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

type nodeKind string

const (
	kindStep     nodeKind = "step"
	kindParallel nodeKind = "parallel"
	kindBranch   nodeKind = "branch"
	kindLoop     nodeKind = "loop"
)

// node is one element of a workflow's sequence.
type node struct {
	kind     nodeKind
	children []Node
	conds    []Cond // branch: one per child; loop: one
	max      int    // loop bound
	until    bool   // loop: stop when cond holds (else: continue while it holds)
}

// Check is what a branch or loop condition sees: the output it decides on
// (the previous node's for a branch, the iteration's for a loop), the
// workflow state, and the loop iteration (1-based; 0 for a branch).
type Check struct {
	Input     json.RawMessage
	State     json.RawMessage
	Iteration int
}

// Decode unmarshals the checked output into v.
func (c Check) Decode(v any) error { return json.Unmarshal(c.Input, v) }

// Cond decides a branch or a loop. It must depend only on what it is
// given, so a run replayed after a restart takes the same path.
type Cond func(c Check) (bool, error)
