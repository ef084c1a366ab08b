package definition

import (
	"fmt"
	"strings"
	"testing"
)

func chain(n int) map[string][]string {
	g := map[string][]string{}
	for i := 0; i < n; i++ {
		g[fmt.Sprintf("a%d", i)] = []string{fmt.Sprintf("a%d", i+1)}
	}
	g[fmt.Sprintf("a%d", n)] = nil
	return g
}

func TestCheckGraphDepth(t *testing.T) {
	if err := checkGraph(chain(MaxDepth)); err != nil {
		t.Fatalf("a chain %d deep: %v", MaxDepth, err)
	}
	err := checkGraph(chain(MaxDepth + 1))
	if err == nil || !strings.Contains(err.Error(), "6 levels deep (limit 5): a0 → a1 → a2 → a3 → a4 → a5 → a6") {
		t.Fatalf("a chain %d deep: %v", MaxDepth+1, err)
	}
}

func TestCheckGraphCycles(t *testing.T) {
	for name, g := range map[string]map[string][]string{
		"self":     {"a": {"a"}},
		"two":      {"a": {"b"}, "b": {"a"}},
		"three":    {"a": {"x", "b"}, "b": {"c"}, "c": {"a"}, "x": nil},
		"detached": {"root": {"m"}, "m": {"n"}, "n": {"m"}},
	} {
		err := checkGraph(g)
		if err == nil || !strings.Contains(err.Error(), "cycle") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	err := checkGraph(map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}})
	if err == nil || !strings.Contains(err.Error(), "a → b → c → a") {
		t.Fatalf("cycle path: %v", err)
	}
	// A diamond is not a cycle.
	if err := checkGraph(map[string][]string{"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": nil}); err != nil {
		t.Fatalf("diamond: %v", err)
	}
}
