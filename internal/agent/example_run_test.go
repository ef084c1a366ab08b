package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/store"
)

// greeting is a minimal assignment: it writes a greeting into memory.
type greeting struct{}

func (greeting) ID() string              { return "greeting" }
func (greeting) Description() string     { return "Say hello" }
func (greeting) DefaultSchedule() string { return "0 7 * * *" }
func (greeting) OutputSchema() agent.OutputSchema {
	return agent.OutputSchema{Name: "greeting", Schema: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"text": map[string]any{"type": "string", "minLength": 1}},
		"required":             []string{"text"},
		"additionalProperties": false,
	}}
}
func (greeting) Gather(_ context.Context, env *agent.Env) (any, error) {
	return map[string]string{"member": env.Scope.MemberID}, nil
}
func (greeting) Prompt(_ context.Context, g any, mem *agent.Memory) (agent.Prompt, error) {
	b, _ := json.Marshal(g)
	return agent.Prompt{User: "Greet this member: " + string(b) + "\n\n## Working memory\n" + mem.Serialize()}, nil
}
func (greeting) ValidateDomain(context.Context, any, json.RawMessage) []agent.ValidationError {
	return nil
}
func (greeting) Plan(_ context.Context, g any, _ *agent.Memory) (any, error) {
	return map[string]string{"text": "Good morning, " + g.(map[string]string)["member"] + "!"}, nil
}
func (greeting) Act(_ context.Context, _ *store.Tx, act *agent.ActEnv) error {
	var out struct{ Text string }
	if err := json.Unmarshal(act.Output, &out); err != nil {
		return err
	}
	return act.Memory.Set("last_greeting", out.Text, 24*time.Hour)
}

// Example runs an assignment without a language model: the heuristic
// runtime asks the assignment's Plan, and act's memory write is saved.
func Example() {
	dir, _ := os.MkdirTemp("", "agent-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		panic(err)
	}

	orch, err := agent.NewOrchestrator(db, agent.Runtimes{Heuristic: llm.Heuristic{}}, nil, nil, nil, agent.Options{})
	if err != nil {
		panic(err)
	}
	defer orch.Close(ctx)
	if err := orch.Register(agent.Agent{ID: "greeter", Description: "Greets people",
		Assignments: []agent.Assignment{greeting{}}}); err != nil {
		panic(err)
	}
	run, err := orch.Run(ctx, agent.Request{Agent: "greeter", Assignment: "greeting", Member: "ada"})
	if err != nil {
		panic(err)
	}
	fmt.Println(run.Status, run.Model, string(run.Output))
	entries, _ := orch.Memory().Entries(ctx, "greeter", "ada")
	fmt.Println(entries[0].Key, "=", entries[0].Value)
	// Output:
	// succeeded heuristic {"text":"Good morning, ada!"}
	// last_greeting = Good morning, ada!
}

// exampleOrchestrator opens a database with member ada in a temporary
// directory and an orchestrator without a model over it; done removes
// them.
func exampleOrchestrator(ctx context.Context) (orch *agent.Orchestrator, done func()) {
	dir, _ := os.MkdirTemp("", "agent-example")
	db, err := store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		panic(err)
	}
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		panic(err)
	}
	orch, err = agent.NewOrchestrator(db, agent.Runtimes{Heuristic: llm.Heuristic{}}, nil, nil, nil, agent.Options{})
	if err != nil {
		panic(err)
	}
	return orch, func() {
		_ = orch.Close(ctx)
		_ = db.Close()
		_ = os.RemoveAll(dir)
	}
}

// ExampleOrchestrator_Start sends a chat message: Start records it on a
// new thread and returns the queued run at once; Wait follows it.
func ExampleOrchestrator_Start() {
	ctx := context.Background()
	orch, done := exampleOrchestrator(ctx)
	defer done()
	if err := orch.Register(agent.Agent{ID: "echo", Reply: func(_ context.Context, _ agent.Scope, t agent.ChatTurn) (string, error) {
		return "You said: " + t.Message, nil
	}}); err != nil {
		panic(err)
	}
	run, err := orch.Start(ctx, agent.Request{Agent: "echo", Member: "ada", Message: "hello", Chat: true})
	if err != nil {
		panic(err)
	}
	run, err = orch.Wait(ctx, run.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(run.Status, run.ThreadID != nil, string(run.Output))
	// Output:
	// succeeded true {"reply":"You said: hello"}
}

// madeInAdmin is a stand-in for the definitions (*definition.Invoker): one
// agent, "planner", whose turns answer from its own pipeline.
type madeInAdmin struct{}

func (madeInAdmin) Resolve(_ context.Context, id string) (agent.Agent, *agent.Toolbox, error) {
	if id != "planner" {
		return agent.Agent{}, nil, apperr.NotFoundf("unknown agent %q", id)
	}
	return agent.Agent{Converse: func(_ context.Context, x *agent.Exec, t agent.ChatTurn) (string, error) {
		return "planned for " + x.Member() + ": " + t.Message, nil
	}}, nil, nil
}

func (madeInAdmin) Answer(context.Context, agent.Request, bool) (agent.Run, error) {
	return agent.Run{}, apperr.New(apperr.Conflict, "not in this example")
}

// ExampleOrchestrator_Resolve tells a registered agent from one made in
// admin, in the one place that does, and runs a chat turn of the latter:
// its Converse answers on the turn's run.
func ExampleOrchestrator_Resolve() {
	ctx := context.Background()
	orch, done := exampleOrchestrator(ctx)
	defer done()
	orch.SetDefinitions(madeInAdmin{})
	info, err := orch.Resolve(ctx, "planner")
	fmt.Println(info.ID, info.AdminMade, err)
	_, err = orch.Resolve(ctx, "nobody")
	fmt.Println(apperr.Is(err, apperr.NotFound))
	run, err := orch.Run(ctx, agent.Request{Agent: "planner", Member: "ada", Message: "a walk", Chat: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(run.Status, string(run.Output))
	// Output:
	// planner true <nil>
	// true
	// succeeded {"reply":"planned for ada: a walk"}
}
