package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm"
	"hearth/internal/app"
	"hearth/internal/apperr"
	"hearth/internal/coach"
	"hearth/internal/eval"
	"hearth/internal/store"
)

const evalUsage = `usage: hearth eval [flags]                 run the coach's scenarios, print the table and the score
       hearth eval --compare A.json B.json   show B's regressions and improvements against A

The coach runs with the configured runtime: the heuristic coach, or the model
named by OPENAI_BASE_URL / OPENAI_API_KEY and HEARTH_MODEL. Each scenario gets
a fresh temporary database; nothing touches HEARTH_DB unless
--definition-version reads a version from it.

flags:`

// runEval is `hearth eval`.
func runEval(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("hearth eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, evalUsage)
		fs.PrintDefaults()
	}
	compare := fs.Bool("compare", false, "compare two reports: hearth eval --compare A.json B.json")
	only := fs.String("scenario", "", "run only the scenarios whose id matches this regular expression")
	dir := fs.String("scenarios", "", "run the scenario files (*.json) in this directory instead of the built-in suite")
	list := fs.Bool("list", false, "list the scenarios and exit")
	out := fs.String("out", "", "where to write the JSON report (default $HEARTH_DATA/evals/eval-<time>-<runtime>.json)")
	parallel := fs.Int("parallel", 0, "scenarios at once (default: HEARTH_MODEL_CONCURRENCY with a model, else the CPUs)")
	heuristic := fs.Bool("heuristic", false, "use the heuristic coach even when a model is configured")
	model := fs.String("model", "", "model name (overrides HEARTH_MODEL)")
	defVersion := fs.String("definition-version", "", "run the coach's definition version N (or \"current\") from HEARTH_DB, e.g. a draft")
	judgeModel := fs.String("judge-model", "", "also score tone and helpfulness with this model on the configured endpoint (reported separately)")
	verbose := fs.Bool("v", false, "print why each failing check failed")
	mutants := fs.Bool("mutants", false, "also run every broken heuristic coach (one judgement off each) on the scenarios: the mutation score; a survivor fails the run")
	paraphrases := fs.Bool("paraphrases", false, "also run the scenarios' paraphrase plans through a scripted model: each must pass, each with its wrong fact must fail")
	var th eval.Thresholds
	fs.Func("min-designed", "fail below this designed pass rate, 0-1 (checks not marked known_gap)", floatFlag(&th.MinDesignedPassRate))
	fs.Func("min-pass", "fail below this pass rate, 0-1 (every check)", floatFlag(&th.MinPassRate))
	fs.Func("max-hallucination", "fail above this hallucination rate, 0-1", floatFlag(&th.MaxHallucinationRate))
	fs.Func("min-fidelity", "fail below this numeric fidelity, 0-1", floatFlag(&th.MinNumericFidelity))
	fs.Func("max-stale-cta", "fail above this stale-CTA rate, 0-1", floatFlag(&th.MaxStaleCTARate))
	fs.Func("max-fallbacks", "fail with more fallbacks to the heuristic coach than this", func(s string) error {
		n, err := strconv.Atoi(s)
		th.MaxFallbacks = &n
		return err
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *compare {
		if fs.NArg() != 2 {
			fmt.Fprintln(stderr, "hearth eval --compare needs two reports: A.json B.json")
			return 2
		}
		return compareReports(fs.Arg(0), fs.Arg(1), stdout, stderr)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hearth eval: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	scenarios, err := eval.Scenarios()
	if *dir != "" {
		scenarios, err = eval.LoadDir(os.DirFS(*dir))
	}
	if err != nil {
		fmt.Fprintln(stderr, "hearth eval:", err)
		return 1
	}
	if scenarios, err = eval.Select(scenarios, *only); err != nil {
		msg := err.Error()
		if ae := apperr.As(err); ae != nil {
			msg = ae.Message
		}
		fmt.Fprintf(stderr, "hearth eval: --scenario: %s (hearth eval --list)\n", msg)
		return 2
	}
	if *list {
		for _, sc := range scenarios {
			fmt.Fprintf(stdout, "%-40s %s  [%s]\n", sc.ID, sc.Title, strings.Join(sc.Covers, " "))
		}
		return 0
	}
	cfg, err := app.LoadConfig(nil, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth eval:", err)
		return 2
	}
	if *model != "" {
		cfg.Model = *model
	}
	if *heuristic {
		cfg.OpenAIKey, cfg.OpenAIBaseURL = "", ""
	}
	opts := eval.Options{Parallel: *parallel}
	if opts.Parallel <= 0 {
		opts.Parallel = max(2, runtime.GOMAXPROCS(0))
		if cfg.ModelConfigured() {
			opts.Parallel = max(cfg.ModelConcurrency, 1)
		}
	}
	if *defVersion != "" {
		d, label, err := readDefinition(ctx, cfg.DBPath, *defVersion)
		if err != nil {
			fmt.Fprintln(stderr, "hearth eval:", err)
			return 1
		}
		opts.Definition, opts.DefinitionLabel = &d, label
	}
	slots := make(chan struct{}, max(cfg.ModelConcurrency, 1))
	opts.Factory = app.EvalFactory(cfg, nil, slots, nil)
	if *judgeModel != "" {
		if !cfg.ModelConfigured() {
			fmt.Fprintln(stderr, "hearth eval: --judge-model needs a model endpoint (OPENAI_BASE_URL or OPENAI_API_KEY)")
			return 2
		}
		jc := cfg.ModelConfig(nil) // the same endpoint and timeouts, another model
		jc.Model = *judgeModel
		rt, err := llm.NewOpenAI(jc)
		if err != nil {
			fmt.Fprintln(stderr, "hearth eval: judge:", err)
			return 2
		}
		opts.Judge = &eval.Judge{Model: *judgeModel, Runtime: rt, Slots: slots}
	}
	bar := eval.NewBar(stderr, isTerminal(stderr))
	opts.Progress = bar.Update
	rep, err := eval.Run(ctx, scenarios, opts)
	bar.Finish()
	if err != nil && rep == nil {
		fmt.Fprintln(stderr, "hearth eval:", err)
		return 1
	}
	if err == nil && *paraphrases {
		err = runParaphrases(ctx, cfg, scenarios, rep, opts)
	}
	if err == nil && *mutants {
		err = runMutants(ctx, cfg, scenarios, rep, opts, stderr)
	}
	eval.PrintTable(stdout, rep)
	if *verbose {
		printFailures(stdout, rep)
	}
	path := *out
	if path == "" {
		name := fmt.Sprintf("eval-%s-%s.json", rep.StartedAt.Format("20060102T150405Z"), fileSafe(rep.Runtime))
		path = filepath.Join(cfg.DataDir, "evals", name)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			fmt.Fprintln(stderr, "hearth eval:", err)
			return 1
		}
	}
	if err := rep.WriteFile(path); err != nil {
		fmt.Fprintln(stderr, "hearth eval: report:", err)
		return 1
	}
	fmt.Fprintf(stdout, "report written to %s\n", path)
	if err != nil { // interrupted: the report holds what ran
		fmt.Fprintln(stderr, "hearth eval: interrupted:", err)
		return 1
	}
	if missed := th.Check(rep); len(missed) > 0 {
		for _, m := range missed {
			fmt.Fprintln(stderr, "hearth eval: threshold missed:", m)
		}
		return 1
	}
	return 0
}

// heuristicFactory builds instances with the heuristic coach whatever
// model is configured.
func heuristicFactory(cfg app.Config) eval.Factory {
	cfg.OpenAIKey, cfg.OpenAIBaseURL = "", ""
	return app.EvalFactory(cfg, nil, nil, nil)
}

// heuristicBase is rep when the heuristic coach wrote it, else a
// heuristic run of the scenarios: what mutants and paraphrases compare
// with.
func heuristicBase(ctx context.Context, cfg app.Config, scenarios []*eval.Scenario, rep *eval.Report, opts eval.Options) (*eval.Report, error) {
	if rep.Runtime == eval.RuntimeHeuristic {
		return rep, nil
	}
	o := opts
	o.Factory, o.Judge, o.Progress, o.Definition = heuristicFactory(cfg), nil, nil, nil
	return eval.Run(ctx, scenarios, o)
}

// runParaphrases adds the paraphrase check to rep.
func runParaphrases(ctx context.Context, cfg app.Config, scenarios []*eval.Scenario, rep *eval.Report, opts eval.Options) error {
	base, err := heuristicBase(ctx, cfg, scenarios, rep, opts)
	if err != nil {
		return err
	}
	o := opts
	o.Judge, o.Progress = nil, nil
	rep.Paraphrases, err = eval.RunParaphrases(ctx, scenarios, base, func(url string) eval.Factory {
		c := cfg
		c.OpenAIKey, c.OpenAIBaseURL, c.Model = "", url, eval.ScriptedModelName
		return app.EvalFactory(c, nil, nil, nil)
	}, o)
	return err
}

// runMutants adds the mutation score to rep: every mutant on every
// scenario, with a progress line.
func runMutants(ctx context.Context, cfg app.Config, scenarios []*eval.Scenario, rep *eval.Report, opts eval.Options, stderr io.Writer) error {
	base, err := heuristicBase(ctx, cfg, scenarios, rep, opts)
	if err != nil {
		return err
	}
	o := opts
	o.Factory, o.Definition = heuristicFactory(cfg), nil
	all := coach.Mutants()
	bar := eval.NewBar(stderr, isTerminal(stderr))
	var done atomic.Int64 // scenarios of every mutant, from the runs' goroutines
	total := len(all) * len(scenarios)
	rep.Mutation, err = eval.RunMutants(ctx, scenarios, all, nil, o, base, func(_ coach.Mutant, _, _ int, r eval.ScenarioResult) {
		bar.Update(int(done.Add(1)), total, r)
	})
	bar.Finish()
	return err
}

func floatFlag(dst **float64) func(string) error {
	return func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v > 1 {
			return errors.New("want a number from 0 to 1")
		}
		*dst = &v
		return nil
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileSafe(s string) string {
	if s = unsafeName.ReplaceAllString(s, "_"); s == "" {
		return "none"
	}
	return s
}

// printFailures lists each failing check with what was seen.
func printFailures(w io.Writer, r *eval.Report) {
	for _, sc := range r.Scenarios {
		for _, c := range sc.Checks {
			if c.Status == eval.StatusFail || c.Status == eval.StatusGap {
				fmt.Fprintf(w, "%s [%s] %s: %s\n", sc.ID, c.Status, c.Name, c.Detail)
			}
		}
	}
}

// readDefinition reads the coach's definition version ("current" = the
// active one) from the household database at path.
func readDefinition(ctx context.Context, path, version string) (definition.Definition, string, error) {
	if _, err := os.Stat(path); err != nil {
		return definition.Definition{}, "", fmt.Errorf("--definition-version reads the household database %s: %w", path, err)
	}
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		return definition.Definition{}, "", err
	}
	defer db.Close()
	repo := definition.NewRepo(db, definition.Registry{})
	var v definition.Version
	if version == "current" {
		v, err = repo.Active(ctx, coach.AgentID)
	} else {
		n, perr := strconv.Atoi(version)
		if perr != nil || n < 1 {
			return definition.Definition{}, "", fmt.Errorf("--definition-version %q: want a version number or \"current\"", version)
		}
		v, err = repo.Version(ctx, coach.AgentID, n)
	}
	if err != nil {
		return definition.Definition{}, "", err
	}
	return v.Definition, definition.VersionLabel(v), nil
}

// compareReports is `hearth eval --compare A.json B.json`: exit 1 when B
// regresses.
func compareReports(pathA, pathB string, stdout, stderr io.Writer) int {
	a, err := eval.ReadReport(pathA)
	if err != nil {
		fmt.Fprintln(stderr, "hearth eval:", err)
		return 2
	}
	b, err := eval.ReadReport(pathB)
	if err != nil {
		fmt.Fprintln(stderr, "hearth eval:", err)
		return 2
	}
	fmt.Fprintf(stdout, "A: %s\nB: %s\n\n", pathA, pathB)
	c := eval.Compare(a, b)
	c.Print(stdout)
	if len(c.Regressions) > 0 {
		return 1
	}
	return 0
}

// isTerminal reports whether w is a terminal (the progress bar redraws
// one line there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
