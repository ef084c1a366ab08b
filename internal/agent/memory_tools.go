package agent

import (
	"context"
	"errors"
	"time"

	"hearth/internal/store"
)

// rememberArgs are remember's arguments (limits: MaxMemoryKeyLen, MaxMemoryValueLen).
type rememberArgs struct {
	Key      string  `json:"key" schema:"minLength=1,maxLength=100"`
	Value    string  `json:"value" schema:"maxLength=2000"`
	TTLHours float64 `json:"ttl_hours" schema:"minimum=0,maximum=8784"`
}

type forgetArgs struct {
	Key string `json:"key" schema:"minLength=1"`
}

type okResult struct {
	OK   bool   `json:"ok"`
	Note string `json:"note"`
}

var errNoMemory = errors.New("no working memory in this context")

// stagedNote tells the model a write waits for its output to be accepted.
const stagedNote = "staged: saved when your output is accepted"

// MemoryTools lets a model keep notes in the run's working memory
// ("remember" and "forget"). The changes are staged: the run applies them
// to its memory when it commits, and only if the model's output was
// accepted.
func MemoryTools() *Factory {
	return NewFactory("memory", "Working memory", "Notes the agent keeps about the member, with an expiry.",
		NewTool("remember", "Store an interpretation or decision in working memory (not facts you can look up). ttl_hours 0 keeps it until removed.",
			func(_ context.Context, scope Scope, a rememberArgs) (okResult, error) {
				mem := scope.Memory
				if mem == nil {
					return okResult{}, errNoMemory
				}
				ttl := time.Duration(a.TTLHours * float64(time.Hour))
				value, err := checkMemoryEntry(a.Key, a.Value, ttl)
				if err != nil {
					return okResult{}, err
				}
				return okResult{OK: true, Note: stagedNote}, scope.Stage(func(ctx context.Context, tx *store.Tx) error {
					// Other runs may have filled the memory since it was loaded.
					if err := mem.fits(ctx, tx, a.Key); err != nil {
						return err
					}
					return mem.Set(a.Key, value, ttl)
				})
			}),
		NewTool("forget", "Remove an entry from working memory.",
			func(_ context.Context, scope Scope, a forgetArgs) (okResult, error) {
				mem := scope.Memory
				if mem == nil {
					return okResult{}, errNoMemory
				}
				return okResult{OK: true, Note: stagedNote}, scope.Stage(func(context.Context, *store.Tx) error {
					mem.Remove(a.Key)
					return nil
				})
			}))
}
