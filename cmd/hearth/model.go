package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"hearth/internal/agent/llm"
	"hearth/internal/app"
)

const modelUsage = `usage: hearth model check [flags]

Tests the configured model server (OPENAI_BASE_URL, OPENAI_API_KEY,
HEARTH_MODEL; the server's flags work too, e.g. -model): its model list, one
tiny structured request, one tool call and one streamed reply. It prints what
works and the settings Hearth chose, and remembers them in the database for
the server (Admin → Model shows them). Exit status 0 when the coach can use
the model, 1 when it cannot, 2 for a usage or configuration error.`

// runModel is `hearth model check`.
func runModel(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(stderr, modelUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := app.LoadConfig(args[1:], getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hearth model check:", err)
		return 2
	}
	if !cfg.ModelConfigured() {
		fmt.Fprintln(stderr, "hearth model check: no model is configured: set OPENAI_BASE_URL (a local server) or OPENAI_API_KEY (OpenAI), and HEARTH_MODEL")
		return 2
	}
	var profiles llm.ProfileStore
	saved := "Remembered for the server (Admin → Model)."
	db, err := openDatabase(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hearth model check: %v; what is learned will not be remembered\n", err)
		saved = "Not remembered: the database could not be opened."
	} else {
		defer db.Close()
		profiles = llm.NewEndpoints(db)
	}
	rt, err := llm.NewOpenAI(cfg.ModelConfig(profiles))
	if err != nil {
		fmt.Fprintln(stderr, "hearth model check:", err)
		return 2
	}
	key := "no API key"
	if cfg.OpenAIKey != "" {
		key = "API key set"
	}
	fmt.Fprintf(stdout, "Checking %s at %s (%s)\n", rt.Model(), rt.BaseURL(), key)
	printed := 0
	rep := rt.Check(ctx, func(r llm.CheckReport) {
		for ; printed < len(r.Steps) && r.Steps[printed].State != llm.CheckRunning; printed++ {
			s := r.Steps[printed]
			fmt.Fprintf(stdout, "  %-18s %-8s %s (%d ms)\n", s.Name, s.State, s.Detail, s.MS)
		}
	})
	if !rep.Done {
		fmt.Fprintln(stdout, "The check did not finish.")
		return 1
	}
	fmt.Fprintf(stdout, "Server family: %s (recognised by %s)\n", rep.Profile.Family, rep.Profile.Detected)
	fmt.Fprintf(stdout, "Settings: %s\n%s\n", rep.Profile.Settings(), saved)
	if !rep.Usable() {
		fmt.Fprintln(stdout, "The coach cannot use this model: runs fall back to the built-in coach.")
		return 1
	}
	fmt.Fprintln(stdout, "The coach can use this model.")
	return 0
}
