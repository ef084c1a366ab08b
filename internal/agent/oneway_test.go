package agent_test

import (
	"go/ast"
	"go/token"
	"hearth/internal/testkit"
	"path"
	"slices"
	"strconv"
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
	var offences []string
	driver := func(rel string) bool { return slices.Contains(drivers, path.Dir(rel)) }
	testkit.EachGoFile(t, "../..", driver, func(_ string, fset *token.FileSet, f *ast.File) {
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
			return
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
	})
	for _, o := range offences {
		t.Errorf("%s: start runs with Orchestrator.Start/Run (agent.Request); only %v drive a run's steps", o, drivers)
	}
}
