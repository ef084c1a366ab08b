package agent

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// MemoryTools lets a model keep notes in the run's working memory
// ("remember" and "forget"); the run saves them with its other writes.
func MemoryTools() ToolFactory {
	return ToolFactoryFunc(func() []Tool {
		return []Tool{
			{
				Name:        "remember",
				Description: "Store an interpretation or decision in working memory (not facts you can look up). ttl_hours 0 keeps it until removed.",
				Parameters: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"key":       map[string]any{"type": "string", "minLength": 1, "maxLength": MaxMemoryKeyLen},
						"value":     map[string]any{"type": "string", "maxLength": MaxMemoryValueLen},
						"ttl_hours": map[string]any{"type": "number", "minimum": 0, "maximum": 24 * 366},
					},
					"required":             []string{"key", "value", "ttl_hours"},
					"additionalProperties": false,
				},
				Execute: func(_ context.Context, scope Scope, args json.RawMessage) (any, error) {
					var a struct {
						Key      string  `json:"key"`
						Value    string  `json:"value"`
						TTLHours float64 `json:"ttl_hours"`
					}
					if err := json.Unmarshal(args, &a); err != nil {
						return nil, err
					}
					if scope.Memory == nil {
						return nil, errors.New("no working memory in this context")
					}
					ttl := time.Duration(a.TTLHours * float64(time.Hour))
					if err := scope.Memory.Set(a.Key, a.Value, ttl); err != nil {
						return nil, err
					}
					return map[string]any{"ok": true}, nil
				},
			},
			{
				Name:        "forget",
				Description: "Remove an entry from working memory.",
				Parameters: map[string]any{
					"type":                 "object",
					"properties":           map[string]any{"key": map[string]any{"type": "string", "minLength": 1}},
					"required":             []string{"key"},
					"additionalProperties": false,
				},
				Execute: func(_ context.Context, scope Scope, args json.RawMessage) (any, error) {
					var a struct {
						Key string `json:"key"`
					}
					if err := json.Unmarshal(args, &a); err != nil {
						return nil, err
					}
					if scope.Memory == nil {
						return nil, errors.New("no working memory in this context")
					}
					scope.Memory.Remove(a.Key)
					return map[string]any{"ok": true}, nil
				},
			},
		}
	})
}
