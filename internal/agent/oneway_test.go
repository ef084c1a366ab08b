package agent_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// drivers may drive a run's steps themselves (Orchestrator.Execute and
// StartExecute with an agent.TaskRequest and an agent.Driver): the
// engine's own package and the two engines built on it.
var drivers = []string{"internal/agent", "internal/agent/definition", "internal/workflow"}

// TestOnlyTheEngineStartsRuns enforces the rule in the README's Layout:
// outside the engine's drivers a run starts only through the one entry
// (Orchestrator.Start, Run, StartEach, RunEach with an agent.Request), so
// the agent is resolved and its definition applied in one place. A package
// that names agent.TaskRequest or agent.Driver (what Execute takes) is
// reaching past it.
func TestOnlyTheEngineStartsRuns(t *testing.T) {
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
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || slices.Contains(drivers, filepath.ToSlash(filepath.Dir(rel))) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		name := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "hearth/internal/agent" {
				name = "agent"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && (sel.Sel.Name == "TaskRequest" || sel.Sel.Name == "Driver") {
				offences = append(offences, fset.Position(sel.Pos()).String()+": "+name+"."+sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files under %s: the walk is not seeing the module", checked, root)
	}
	for _, o := range offences {
		t.Errorf("%s: start runs with Orchestrator.Start/Run (agent.Request); only %v drive a run's steps", o, drivers)
	}
}
