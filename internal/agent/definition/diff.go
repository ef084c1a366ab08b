package definition

import (
	"encoding/json"
	"fmt"
	"strings"
)

// DiffOp says whether a diff line is kept, removed or added.
type DiffOp byte

// Diff operations.
const (
	DiffSame DiffOp = ' '
	DiffDel  DiffOp = '-'
	DiffAdd  DiffOp = '+'
)

// DiffLine is one line of a line diff.
type DiffLine struct {
	Op   DiffOp
	Text string
}

// maxDiffCells bounds the LCS table; larger inputs diff their differing
// middles as a whole removal plus a whole addition.
const maxDiffCells = 4_000_000

// Diff is a line diff of a to b by longest common subsequence.
func Diff(a, b string) []DiffLine {
	x, y := splitLines(a), splitLines(b)
	var out []DiffLine
	// Common prefix and suffix need no table.
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		out = append(out, DiffLine{DiffSame, x[p]})
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	out = append(out, lcsDiff(x[p:len(x)-s], y[p:len(y)-s])...)
	for _, l := range x[len(x)-s:] {
		out = append(out, DiffLine{DiffSame, l})
	}
	return out
}

func lcsDiff(x, y []string) []DiffLine {
	n, m := len(x), len(y)
	var out []DiffLine
	if n*m > maxDiffCells {
		for _, l := range x {
			out = append(out, DiffLine{DiffDel, l})
		}
		for _, l := range y {
			out = append(out, DiffLine{DiffAdd, l})
		}
		return out
	}
	// t[i][j] is the LCS length of x[i:] and y[j:].
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case x[i] == y[j]:
			out = append(out, DiffLine{DiffSame, x[i]})
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			out = append(out, DiffLine{DiffDel, x[i]})
			i++
		default:
			out = append(out, DiffLine{DiffAdd, y[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, DiffLine{DiffDel, x[i]})
	}
	for ; j < m; j++ {
		out = append(out, DiffLine{DiffAdd, y[j]})
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Text renders a definition as a stable, line-oriented document for diffs:
// one section per field, JSON fields indented.
func (d Definition) Text() string {
	d.Normalize()
	var b strings.Builder
	field := func(name, value string) {
		fmt.Fprintf(&b, "## %s\n%s\n\n", name, value)
	}
	js := func(v any) string {
		out, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(out)
	}
	temp := "default"
	if d.Temperature != nil {
		temp = fmt.Sprint(*d.Temperature)
	}
	field("model", fmt.Sprintf("model: %s\ntemperature: %s\nmax_tokens: %d\nmax_iterations: %d\nmax_retries: %d\ntool_model: %s\nbudget_prompt_tokens: %d\nbudget_completion_tokens: %d",
		orDefault(d.Model), temp, d.MaxTokens, d.MaxIterations, d.MaxRetries, orDefault(d.ToolModel), d.BudgetPromptTokens, d.BudgetCompletionTokens))
	field("system_prompt", d.SystemPrompt)
	field("user_template", d.UserTemplate)
	field("factories", js(d.Factories))
	field("tool_ids", js(d.ToolIDs))
	field("context_types", js(d.ContextTypes))
	if d.OutputSchema == nil {
		field("output_schema", "none (free text)")
	} else {
		field("output_schema", js(d.OutputSchema))
	}
	field("validation_rules", js(d.ValidationRules))
	field("sub_agents", js(d.SubAgents))
	field("hooks", js(d.Hooks))
	field("tool_hooks", js(d.ToolHooks))
	return b.String()
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

// DiffVersions diffs two versions' Text.
func DiffVersions(a, b Version) []DiffLine {
	return Diff(a.Definition.Text(), b.Definition.Text())
}
