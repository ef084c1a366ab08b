package health_test

import (
	"go/ast"
	"go/token"
	"hearth/internal/testkit"
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
	var offences []string
	allowed := func(rel string) bool { return yearless[rel] != "" }
	testkit.EachGoFile(t, "../..", allowed, func(_ string, fset *token.FileSet, f *ast.File) {
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
	})
	for _, o := range offences {
		t.Errorf("a day and month formatted without the year (use health.DayText and friends): %s", o)
	}
}
