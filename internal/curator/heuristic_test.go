package curator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/curator"
)

func TestReplyRunsTheAnalysisAndShowsTheGaps(t *testing.T) {
	srv := library(t)
	box := toolbox(t, connect(t, srv), nil)
	var used []string
	inner := box.Caller(agent.Scope{})
	caller := func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		used = append(used, name)
		return inner(ctx, name, args)
	}
	got := curator.Reply(context.Background(), caller, "What is missing in the library?")
	if strings.Join(used, ",") != curator.ToolAnalyzeLibrary {
		t.Fatalf("tools used = %v", used)
	}
	for _, want := range []string{
		"Workout library: 5 items, read from Plex",
		"- cool-down: 2 (1 / 1 / 0)",
		"- no warm-ups under 10 minutes",
		"“Morning Warm-up” (10 min): ids 302, 305",
		curator.NeedsModel,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reply lacks %q:\n%s", want, got)
		}
	}
	if len(srv.Writes()) != 0 {
		t.Fatal("the heuristic wrote to Plex")
	}
}

func TestReplyWithoutPlex(t *testing.T) {
	box := toolbox(t, nil, nil)
	got := curator.Reply(context.Background(), box.Caller(agent.Scope{}), "analyse")
	if !strings.Contains(got, "Plex is not configured") {
		t.Fatalf("reply = %q", got)
	}
}
