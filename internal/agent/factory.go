package agent

import (
	"context"
	"slices"
)

// Factory is a named group of tools over one domain's adapter (Home
// Assistant, the household's health records, schedules): the unit agent
// definitions list by name ("factories": ["homeassistant"]) and
// GET /api/tool-factories reports. An agent can do only what its tools
// allow, so a factory is the boundary between an agent and an outside
// system: the adapter's errors become tool results the model reads
// ({"error": …}) and every call is recorded on the run.
type Factory struct {
	Name        string
	Title       string
	Description string
	// Status, when set, says whether the system the tools reach is set
	// up: "" when it is, else why not ("Home Assistant is not configured").
	Status func(ctx context.Context) string
	tools  []Tool
}

// NewFactory names a group of tools.
func NewFactory(name, title, description string, tools ...Tool) *Factory {
	return &Factory{Name: name, Title: title, Description: description, tools: tools}
}

// WithStatus sets the factory's configuration check.
func (f *Factory) WithStatus(status func(ctx context.Context) string) *Factory {
	f.Status = status
	return f
}

// Tools implements ToolFactory.
func (f *Factory) Tools() []Tool { return slices.Clone(f.tools) }

// ToolNames lists the factory's tools in order.
func (f *Factory) ToolNames() []string {
	out := make([]string, len(f.tools))
	for i, t := range f.tools {
		out[i] = t.Name
	}
	return out
}

// FactoryInfo describes a factory for listings and the definition editor.
type FactoryInfo struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tools       []string `json:"tools"`
	// Configured is false when the system the tools reach is not set up;
	// Status then says why.
	Configured bool   `json:"configured"`
	Status     string `json:"status,omitempty"`
}

// Info describes f now (its Status is asked).
func (f *Factory) Info(ctx context.Context) FactoryInfo {
	inf := FactoryInfo{Name: f.Name, Title: f.Title, Description: f.Description, Tools: f.ToolNames(), Configured: true}
	if f.Status != nil {
		if why := f.Status(ctx); why != "" {
			inf.Configured, inf.Status = false, why
		}
	}
	return inf
}
