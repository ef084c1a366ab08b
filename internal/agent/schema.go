package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ValidationError is one problem found in a JSON document: where (a JSON
// pointer, "/" for the root) and what. Schema and domain validation both
// report this type, and both are fed back to the model the same way.
type ValidationError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e ValidationError) String() string { return e.Path + ": " + e.Message }

// Schema is a compiled JSON Schema (draft 2020-12 unless the document says
// otherwise) that validates raw JSON documents.
type Schema struct {
	name     string
	doc      map[string]any
	compiled *jsonschema.Schema
}

// CompileSchema compiles a JSON Schema given as a Go map. The map may hold
// Go slices such as []string; it is normalised through JSON first.
func CompileSchema(name string, schema map[string]any) (*Schema, error) {
	if schema == nil {
		return nil, fmt.Errorf("agent: schema %q is nil", name)
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("agent: schema %q: %w", name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("agent: schema %q: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	u := "mem://schemas/" + url.PathEscape(name) + ".json"
	if err := c.AddResource(u, doc); err != nil {
		return nil, fmt.Errorf("agent: schema %q: %w", name, err)
	}
	sch, err := c.Compile(u)
	if err != nil {
		return nil, fmt.Errorf("agent: compile schema %q: %w", name, err)
	}
	return &Schema{name: name, doc: schema, compiled: sch}, nil
}

// Name returns the schema's name.
func (s *Schema) Name() string { return s.name }

// Map returns the schema document as given to CompileSchema.
func (s *Schema) Map() map[string]any { return s.doc }

// Validate checks a raw JSON document; nil means valid. A document that is
// not JSON yields one error at "/".
func (s *Schema) Validate(raw []byte) []ValidationError {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []ValidationError{{Path: "/", Message: "not valid JSON: " + err.Error()}}
	}
	err = s.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []ValidationError{{Path: "/", Message: err.Error()}}
	}
	var out []ValidationError
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		loc := u.InstanceLocation
		if loc == "" {
			loc = "/"
		}
		out = append(out, ValidationError{Path: loc, Message: u.Error.String()})
	}
	if len(out) == 0 {
		out = append(out, ValidationError{Path: "/", Message: ve.Error()})
	}
	return out
}

// FormatValidationErrors renders errors one per line, as sent to the model.
func FormatValidationErrors(errs []ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("- ")
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// ExtractJSON trims whitespace and a Markdown code fence that local models
// like to wrap JSON in.
func ExtractJSON(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:] // drop the info string ("json")
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	return strings.TrimSpace(s)
}
