package testkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// EachGoFile parses every non-test Go file of the module whose root is
// root (relative to the calling test's package directory, e.g. "../.."),
// skipping hidden directories, node_modules and testdata, and the files
// skip names (by their slash-separated path from the root; nil: none), and
// calls fn with each. Source rules (only the engine starts runs, dates carry
// their year) walk the code with it. It fails the test when it sees fewer
// than 100 files: a walk that misses the module would pass every rule.
func EachGoFile(t testing.TB, root string, skip func(rel string) bool, fn func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(abs, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || (skip != nil && skip(rel)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		fn(rel, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files under %s: the walk is not seeing the module", checked, abs)
	}
}
