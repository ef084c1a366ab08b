package health_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// yearless are the files allowed a day-and-month layout without the year,
// each with why it cannot show a past year.
var yearless = map[string]string{
	"internal/health/dates.go": "the one place that decides when the year shows",
	"web/admin/runview.go":     "fmtWhen compares the years itself",
	"web/kiosk/model.go":       "the header's date is today's",
	"web/kiosk/pages.go":       "the household page's date is today's",
}

// monthLayout matches a Go time layout naming a day and a month.
var monthLayout = regexp.MustCompile(`\b(Jan|January|01/02|1/2)\b`)

// TestDatesCarryTheirYear is the class check for issue 35's "Mon 5 Oct"
// that read as this year's: outside dates.go no Go file formats a day and
// month without the year, so every date a person sees goes through
// DayText / ShortDayText / CivilDayText (year when not this year's) or
// FullDayText (always).
func TestDatesCarryTheirYear(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var offences []string
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || yearless[rel] != "" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Format" && sel.Sel.Name != "AppendFormat") || len(call.Args) == 0 {
				return true
			}
			lit, ok := call.Args[len(call.Args)-1].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			layout, _ := strconv.Unquote(lit.Value)
			if monthLayout.MatchString(layout) && !strings.Contains(layout, "2006") {
				offences = append(offences, fset.Position(lit.Pos()).String()+": "+lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: is the root right?", checked)
	}
	for _, o := range offences {
		t.Errorf("a day and month formatted without the year (use health.DayText and friends): %s", o)
	}
}
