package importer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

const cliUsage = `usage: hearth import --member ID [--kind K] [--tz ZONE] [--unit kg|lb] [--strict] FILE...

Imports Apple Health exports (export.zip or export.xml) and CSV files of
weigh-ins, meals or workouts for one member: generic CSV files and the
exports of MyFitnessPal, Withings, Strong and Hevy, Hearth's own export, and
zips of CSV files (each file in the zip is imported on its own). Bad records
are listed with their lines and skipped (--strict: the file imports
nothing); a file imported again adds nothing, and a corrected file updates
what it changed.

`

// RunCLI implements `hearth import`; args are the arguments after "import".
// It opens the database with openDB (and closes it), shows a progress bar on
// stderr (periodic lines when stderr is not a terminal), prints a summary
// per file on stdout, and returns the exit status: 0 when every file
// imported, 1 when one failed, 2 for bad usage.
func RunCLI(ctx context.Context, args []string, stdout, stderr io.Writer, openDB func(context.Context) (*store.DB, error)) int {
	fs := flag.NewFlagSet("hearth import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, cliUsage)
		fs.PrintDefaults()
	}
	member := fs.String("member", "", "id of the member the records belong to (required)")
	kindName := fs.String("kind", "auto", "auto, apple, csv-weight, csv-meals, csv-workouts or csv-body-scans")
	tz := fs.String("tz", "Local", "time zone of CSV times written without an offset")
	unitName := fs.String("unit", "", "weight unit of CSV files that do not state one: kg or lb (default: the member's unit)")
	strict := fs.Bool("strict", false, "import nothing from a file with any bad record")
	maxBytes := fs.Int64("max-bytes", DefaultMaxBytes, "most bytes a file may hold or unpack to (HEARTH_IMPORT_MAX_BYTES)")
	var files []string
	for rest := args; ; { // flags may follow file names
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "hearth import: "+format+"\n", a...)
		fs.Usage()
		return 2
	}
	if *member == "" {
		return usage("--member is required")
	}
	if len(files) == 0 {
		return usage("no files given")
	}
	kind, err := ParseKind(*kindName)
	if err != nil {
		return usage("%s", userMessage(err))
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return usage("unknown time zone %q", *tz)
	}
	unit, err := ParseUnit(*unitName)
	if err != nil {
		return usage("%s", userMessage(err))
	}
	db, err := openDB(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "hearth import: %v\n", err)
		return 1
	}
	defer db.Close()
	if _, err := db.Member(ctx, *member); err != nil {
		fmt.Fprintf(stderr, "hearth import: %s%s\n", userMessage(err), memberHint(ctx, db, err))
		return 1
	}
	status := 0
	for _, path := range files {
		bar := newBar(stderr, isTerminal(stderr), path)
		sum, err := ImportFile(ctx, db, Options{Member: *member, Kind: kind, Location: loc, Unit: unit, Strict: *strict, MaxBytes: *maxBytes,
			Progress: bar.update}, path)
		bar.finish()
		if err != nil {
			status = 1
			printFailure(stderr, path, sum, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		printSummary(stdout, sum)
		if sum.FailedFiles() > 0 { // a zip whose other files imported
			status = 1
		}
	}
	return status
}

// userMessage is the safe, readable part of an error.
func userMessage(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.Message
	}
	return err.Error()
}

func memberHint(ctx context.Context, db *store.DB, err error) string {
	if !apperr.Is(err, apperr.NotFound) {
		return ""
	}
	ms, lerr := db.ListMembers(ctx)
	if lerr != nil || len(ms) == 0 {
		return " (the household has no members yet)"
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return " (members: " + strings.Join(ids, ", ") + ")"
}

func printFailure(w io.Writer, path string, s Summary, err error) {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		fmt.Fprintf(w, "%s: failed, nothing imported: %s\n", path, userMessage(err))
		return
	}
	fmt.Fprintf(w, "%s: nothing imported, %d problem(s):\n", path, ve.Total)
	for _, p := range ve.Problems {
		fmt.Fprintf(w, "  %s\n", p.Error())
	}
	if more := ve.Total - len(ve.Problems); more > 0 {
		fmt.Fprintf(w, "  … and %d more\n", more)
	}
}

func printSummary(w io.Writer, s Summary) {
	what := string(s.Kind)
	if s.Profile != "" {
		what += " (" + s.Profile + ")"
	}
	fmt.Fprintf(w, "%s: %s, %s in %s\n", s.File, what, FormatBytes(s.Bytes), s.Duration.Round(time.Millisecond))
	for _, line := range SummaryLines(s) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	labels := make([]string, 0, len(s.Types))
	for l := range s.Types {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		c := s.Types[l]
		fmt.Fprintf(w, "  %-46s %s\n", strings.TrimPrefix(l, "HKQuantityTypeIdentifier"), typeLine(c))
	}
	for _, p := range s.Problems {
		fmt.Fprintf(w, "  rejected: %s\n", p.Error())
	}
	if more := s.TotalProblems - len(s.Problems); more > 0 {
		fmt.Fprintf(w, "  … and %d more rejected\n", more)
	}
}

// SummaryLines is a summary's report in a few lines of text: the counts,
// what an Apple import derived, then notes and warnings; for a zip of CSV
// files, the totals and then each file's lines, named by file. The admin
// upload page shows the same lines.
func SummaryLines(s Summary) []string {
	lines := []string{countsLine(s)}
	if s.Kind == KindZip {
		for _, f := range s.Files {
			label := strings.TrimPrefix(f.File, s.File+zipSep)
			if f.Error != "" {
				lines = append(lines, label+": "+f.Error)
				continue
			}
			what := string(f.Kind)
			if f.Profile != "" {
				what += " (" + f.Profile + ")"
			}
			lines = append(lines, label+": "+what+": "+countsLine(f))
			for _, l := range SummaryLines(f)[1:] {
				lines = append(lines, label+": "+l)
			}
		}
		for _, f := range s.Skipped {
			lines = append(lines, f.File+": not imported: "+f.Reason)
		}
	}
	if s.Kind == KindApple {
		// Only what happened: a file with no food or body composition says nothing of either.
		if s.MealsCreated+s.MealsUpdated > 0 {
			lines = append(lines, fmt.Sprintf("meals: %d created, %d updated", s.MealsCreated, s.MealsUpdated))
		}
		if s.NutrientSamples > 0 {
			lines = append(lines, fmt.Sprintf("joined %s from %s into %s (a food entry is a Food correlation, or one app's samples at one instant; "+
				"entries of one meal time on one day make one meal)",
				plural(s.NutrientSamples, "nutrient sample"), plural(s.FoodEntries, "food entry"), plural(s.NutrientMeals, "meal")))
		}
		if s.BodyCompLinked+s.BodyCompEntries > 0 {
			lines = append(lines, fmt.Sprintf("body composition: added to %s, %d kept as body-composition entries of their own",
				plural(s.BodyCompLinked, "weigh-in"), s.BodyCompEntries))
		}
	}
	if s.CharsDropped > 0 {
		lines = append(lines, fmt.Sprintf("dropped %d control or undecodable characters from the file's text", s.CharsDropped))
	}
	lines = append(lines, s.Notes...)
	if s.MoreNotes > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more notes", s.MoreNotes))
	}
	for _, c := range s.Corrections {
		lines = append(lines, "warning: "+c.String())
	}
	for _, p := range s.Warnings {
		lines = append(lines, "warning: "+p.Error())
	}
	if s.MoreWarnings > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more warnings", s.MoreWarnings))
	}
	return lines
}

// plural is "1 weigh-in", "2 weigh-ins", "1,240 food entries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		noun = noun[:len(noun)-1] + "ie"
	}
	return withCommas(n) + " " + noun + "s"
}

// withCommas writes n with thousands separators: 1240 → "1,240".
func withCommas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func countsLine(s Summary) string {
	counts := fmt.Sprintf("added %d, updated %d, skipped as duplicate %d, repeated in file %d, skipped as unknown %d, rejected %d",
		s.Added, s.Updated, s.SkippedDuplicate, s.RepeatedInFile, s.SkippedUnknown, s.Rejected)
	if s.KeptEdits > 0 {
		counts += fmt.Sprintf("; kept %d of your edits", s.KeptEdits)
	}
	return counts
}

func typeLine(c TypeCount) string {
	out := fmt.Sprintf("added %d, duplicate %d", c.Added, c.Duplicate)
	for _, x := range []struct {
		n    int
		what string
	}{{c.Updated, "updated"}, {c.Repeated, "repeated in file"}, {c.Kept, "kept edits"}, {c.Rejected, "rejected"}} {
		if x.n > 0 {
			out += fmt.Sprintf(", %s %d", x.what, x.n)
		}
	}
	return out
}

// FormatBytes renders a size for people ("1.2 MB"); the admin upload page uses it too.
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
