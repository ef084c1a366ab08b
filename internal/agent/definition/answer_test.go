package definition

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// TestAnswerWithoutAModelRecordsANeedsAModelRun: an agent made in admin
// answering through the API or a schedule without a model is a recorded
// run that says it needs one (fell_back, needs_model), not an error; with
// a model it is an invoke.
func TestAnswerWithoutAModelRecordsANeedsAModelRun(t *testing.T) {
	f := newFixture(t)
	f.save(def("greeter", "agent:greeter\nYou greet."))
	r := f.runnerOn(f.engine(nil, agent.Options{}))
	run, err := r.Answer(context.Background(), agent.Request{Agent: "greeter", Member: "ada", Message: "hi", Origin: "task:4"}, true)
	if err != nil {
		t.Fatal(err)
	}
	var out NeedsModelOutput
	if err := json.Unmarshal(run.Output, &out); err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.StatusFellBack || run.FallbackReason != FallbackNeedsModel || !out.NeedsModel ||
		out.Message == "" || run.Agent != "greeter" || run.Origin != "task:4" {
		t.Fatalf("run = %+v (output %s)", run, run.Output)
	}
	if _, err := r.Answer(context.Background(), agent.Request{Agent: "nobody", Member: "ada", Message: "hi"}, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown agent: %v", err)
	}

	m := newFakeModel()
	m.reply("greeter", "Hello Ada")
	run, err = f.runner(m).Answer(context.Background(), agent.Request{Agent: "greeter", Member: "ada", Message: "hi"}, true)
	if err != nil || string(run.Output) != `"Hello Ada"` || run.Status != agent.StatusSucceeded {
		t.Fatalf("with a model: %+v, %v", run, err)
	}
}
