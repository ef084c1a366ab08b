package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
)

// definitionFormFields are the definition edit form's field names (the JSON names of
// Definition's fields, so validation errors land on the right field).
var definitionFormFields = []string{"agent_id", "system_prompt", "user_template", "model", "temperature", "max_tokens",
	"max_iterations", "max_retries", "tool_model", "budget_prompt_tokens", "budget_completion_tokens", "factories", "tool_ids", "context_types", "output_schema", "validation_rules", "sub_agents",
	"hooks", "tool_hooks"}

// newDefinitionFormValues are the form's values for a new agent.
func newDefinitionFormValues() map[string]string {
	return definitionFormValues(definition.Definition{MaxIterations: 8, MaxRetries: 2})
}

// definitionFormValues renders d for the edit form, JSON fields indented.
func definitionFormValues(d definition.Definition) map[string]string {
	d.Normalize()
	js := func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return ""
		}
		return string(b)
	}
	v := map[string]string{
		"agent_id": d.AgentID, "system_prompt": d.SystemPrompt, "user_template": d.UserTemplate, "model": d.Model,
		"max_tokens": strconv.Itoa(d.MaxTokens), "max_iterations": strconv.Itoa(d.MaxIterations),
		"max_retries": strconv.Itoa(d.MaxRetries), "factories": js(d.Factories), "tool_ids": js(d.ToolIDs), "context_types": js(d.ContextTypes),
		"validation_rules": js(d.ValidationRules), "sub_agents": js(d.SubAgents), "hooks": js(d.Hooks),
		"tool_hooks": js(d.ToolHooks), "tool_model": d.ToolModel,
		"budget_prompt_tokens":     strconv.FormatInt(d.BudgetPromptTokens, 10),
		"budget_completion_tokens": strconv.FormatInt(d.BudgetCompletionTokens, 10),
	}
	if d.Temperature != nil {
		v["temperature"] = strconv.FormatFloat(*d.Temperature, 'f', -1, 64)
	}
	if d.OutputSchema != nil {
		v["output_schema"] = js(d.OutputSchema)
	}
	return v
}

// parseDefinitionForm reads the edit form into a definition. Fields that do not parse
// (a number that is not one, JSON that is not JSON or has unknown fields)
// are an apperr.Invalid with a message per field; nothing else is checked
// here (Repo.Save validates the result).
func parseDefinitionForm(v map[string]string) (definition.Definition, error) {
	errs := map[string]string{}
	d := definition.Definition{
		AgentID:      strings.TrimSpace(v["agent_id"]),
		SystemPrompt: normalizeNewlines(v["system_prompt"]),
		UserTemplate: normalizeNewlines(v["user_template"]),
		Model:        strings.TrimSpace(v["model"]),
		ToolModel:    strings.TrimSpace(v["tool_model"]),
	}
	if s := strings.TrimSpace(v["temperature"]); s != "" {
		t, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
		if err != nil {
			errs["temperature"] = "must be a number (or empty for the model's default)"
		}
		d.Temperature = &t
	}
	for _, f := range []struct {
		name string
		dst  *int
		def  int
	}{{"max_tokens", &d.MaxTokens, 0}, {"max_iterations", &d.MaxIterations, 8}, {"max_retries", &d.MaxRetries, 2}} {
		s := strings.TrimSpace(v[f.name])
		if s == "" {
			*f.dst = f.def
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			errs[f.name] = "must be a whole number"
		}
		*f.dst = n
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"budget_prompt_tokens", &d.BudgetPromptTokens}, {"budget_completion_tokens", &d.BudgetCompletionTokens}} {
		if s := strings.TrimSpace(v[f.name]); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				errs[f.name] = "must be a whole number (0: the household default)"
			}
			*f.dst = n
		}
	}
	d.Factories = parseList(v["factories"], "factories", errs)
	d.ToolIDs = parseList(v["tool_ids"], "tool_ids", errs)
	d.ContextTypes = parseList(v["context_types"], "context_types", errs)
	if s := strings.TrimSpace(v["output_schema"]); s != "" && s != "null" {
		parseJSON(s, "output_schema", &d.OutputSchema, errs)
	}
	parseJSON(v["validation_rules"], "validation_rules", &d.ValidationRules, errs)
	parseJSON(v["sub_agents"], "sub_agents", &d.SubAgents, errs)
	parseJSON(v["hooks"], "hooks", &d.Hooks, errs)
	parseJSON(v["tool_hooks"], "tool_hooks", &d.ToolHooks, errs)
	if len(errs) > 0 {
		msgs := make([]string, 0, len(errs))
		for _, f := range definitionFormFields {
			if m, ok := errs[f]; ok {
				msgs = append(msgs, f+": "+m)
			}
		}
		return d, &apperr.Error{Code: apperr.Invalid, Message: "the definition was not saved: " + strings.Join(msgs, " | "), Fields: errs}
	}
	d.Normalize()
	return d, nil
}

// parseList reads a JSON array of strings, or names separated by commas,
// spaces or new lines.
func parseList(s, field string, errs map[string]string) []string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var out []string
		parseJSON(s, field, &out, errs)
		return out
	}
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// parseJSON decodes a JSON field strictly ("" leaves dst as it is).
func parseJSON(s, field string, dst any, errs map[string]string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	if err := definition.DecodeStrict(s, dst); err != nil {
		errs[field] = jsonProblem(err, s)
	}
}

// jsonProblem explains a JSON decoding error with a line and column.
func jsonProblem(err error, src string) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(src, se.Offset)
		return fmt.Sprintf("is not valid JSON: %s (line %d, column %d)", strings.TrimPrefix(se.Error(), "json: "), line, col)
	case errors.As(err, &te):
		line, col := position(src, te.Offset)
		where := te.Field
		if where == "" {
			where = "the top level"
		}
		return fmt.Sprintf("has a %s where %s expects %s (line %d, column %d)", te.Value, where, jsonType(te.Type.String()), line, col)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return "is not valid: " + strings.ReplaceAll(msg, "unexpected EOF", "the JSON ends too early")
}

func jsonType(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map["), strings.Contains(goType, "."):
		return "an object"
	case goType == "string":
		return "a string"
	case goType == "int", goType == "float64":
		return "a number"
	case goType == "bool":
		return "true or false"
	}
	return goType
}

// position turns a decoder offset (bytes read, the culprit included) into a
// line and column.
func position(src string, offset int64) (line, col int) {
	line, col = 1, 1
	for i, r := range src {
		if int64(i) >= offset-1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func normalizeNewlines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
