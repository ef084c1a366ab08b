package agent

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallInto calls the tool name through call with args (marshalled to
// JSON) and decodes its result into out by a JSON round trip, so it works
// whether the caller hands back the typed result or decoded JSON. The
// adapters' no-model replies (Home Assistant, Plex playback, Talos) call
// their tools this way, through the run's caller, so every call is
// recorded and, for Talos, decided by the policy.
func CallInto(ctx context.Context, call ToolCaller, name string, args, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("%s arguments: %w", name, err)
	}
	res, err := call(ctx, name, raw)
	if err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("%s result: %w", name, err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s result: %w", name, err)
	}
	return nil
}
