package definition

import (
	"fmt"
	"slices"
	"strings"
)

// checkGraph checks the sub-agent graph (agent id → the agent ids of its
// sub-agents) for cycles and for chains nesting deeper than MaxDepth.
func checkGraph(edges map[string][]string) error {
	nodes := make([]string, 0, len(edges))
	for n := range edges {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	height := map[string]int{}
	next := map[string]string{}
	var stack []string
	var visit func(n string) error
	visit = func(n string) error {
		color[n] = grey
		stack = append(stack, n)
		for _, c := range edges[n] {
			switch color[c] {
			case grey:
				i := slices.Index(stack, c)
				cycle := append(slices.Clone(stack[i:]), c)
				return fmt.Errorf("sub-agents form a cycle: %s", strings.Join(cycle, " → "))
			case white:
				if err := visit(c); err != nil {
					return err
				}
			}
			if h := height[c] + 1; h > height[n] {
				height[n], next[n] = h, c
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return nil
	}
	for _, n := range nodes {
		if color[n] == white {
			if err := visit(n); err != nil {
				return err
			}
		}
	}
	for _, n := range nodes {
		if height[n] > MaxDepth {
			chain := []string{n}
			for c := n; next[c] != ""; c = next[c] {
				chain = append(chain, next[c])
			}
			return fmt.Errorf("sub-agents nest %d levels deep (limit %d): %s", height[n], MaxDepth, strings.Join(chain, " → "))
		}
	}
	return nil
}
