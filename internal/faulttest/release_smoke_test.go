package faulttest

import (
	"database/sql"
	"debug/elf"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/store"
)

// TestReleaseSmoke is the release check (.ci/run runs it on each binary
// `make release` built): the binary in HEARTH_SMOKE_BIN (default: this
// tree built natively), under the emulator HEARTH_SMOKE_EMULATOR when set
// (qemu-aarch64-static for the arm64 build), on a fresh data directory:
// `hearth version` reports the platform, the schema and, with
// HEARTH_SMOKE_VERSION, the stamped version; the server starts, migrates,
// serves /healthz and a member's dashboard, the heuristic coach writes the
// day's plan, and SIGINT stops it cleanly.
// tags are HTML tags, left out to read a page's text.
var tags = regexp.MustCompile(`<[^>]*>`)

func TestReleaseSmoke(t *testing.T) {
	bin := os.Getenv("HEARTH_SMOKE_BIN")
	if bin == "" {
		bin = hearthBin(t)
	}
	arch := os.Getenv("HEARTH_SMOKE_ARCH") // e.g. arm64: the binary must really be one
	if arch != "" {
		want := map[string]elf.Machine{"arm64": elf.EM_AARCH64, "amd64": elf.EM_X86_64}[arch]
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		if f.Machine != want {
			t.Fatalf("%s is %v, not %s", bin, f.Machine, arch)
		}
		_ = f.Close()
	}
	command := func(args ...string) *exec.Cmd {
		if emu := os.Getenv("HEARTH_SMOKE_EMULATOR"); emu != "" {
			return exec.Command(emu, append([]string{bin}, args...)...)
		}
		return exec.Command(bin, args...)
	}
	started := time.Now()

	out, err := command("version").CombinedOutput()
	if err != nil {
		t.Fatalf("hearth version: %v\n%s", err, out)
	}
	version := string(out)
	if !strings.Contains(version, fmt.Sprintf("\nschema   %d\n", store.LatestVersion())) {
		t.Fatalf("hearth version does not report schema %d:\n%s", store.LatestVersion(), version)
	}
	if arch != "" && !strings.Contains(version, " linux/"+arch+"\n") {
		t.Fatalf("hearth version does not run as linux/%s:\n%s", arch, version)
	}
	if want := os.Getenv("HEARTH_SMOKE_VERSION"); want != "" {
		if !strings.HasPrefix(version, "hearth "+want+"\n") || !regexp.MustCompile(`\ncommit   [0-9a-f]{40}\n`).MatchString(version) ||
			!regexp.MustCompile(`\nbuilt    \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n`).MatchString(version) {
			t.Fatalf("not stamped with version %s, a commit and a build date:\n%s", want, version)
		}
	}

	dir := t.TempDir()
	addr := freeAddr(t)
	cmd := command()
	cmd.Env = hearthEnv(dir, addr, "HEARTH_LOG_LEVEL=info")
	p := launch(t, cmd)
	p.base = "http://" + addr
	p.waitHealthy(90 * time.Second) // an emulated start is slower
	t.Logf("healthy %v after start", time.Since(started).Round(time.Millisecond))

	if code, body := p.get("/m/maya"); code != 200 || !strings.Contains(body, "Maya") {
		t.Fatalf("member dashboard: %d\n%.500s", code, body)
	}
	code, body := p.post("/api/agents/health-coach/assignments/daily-dashboard/run", `{"member": "maya", "wait": true}`)
	var runs struct {
		Runs []struct{ Status, Model string }
	}
	if err := json.Unmarshal([]byte(body), &runs); code != 200 || err != nil || len(runs.Runs) != 1 ||
		runs.Runs[0].Status != "succeeded" || runs.Runs[0].Model != "heuristic" {
		t.Fatalf("heuristic coach run: %d %s\n%s", code, body, p.logs)
	}
	code, body = p.get("/api/v1/health-dashboard/maya/today")
	var doc struct {
		Coach struct{ Briefing string }
	}
	if err := json.Unmarshal([]byte(body), &doc); code != 200 || err != nil || doc.Coach.Briefing == "" {
		t.Fatalf("today's plan: %d %s", code, body)
	}
	// The briefing's first sentence is a span of its own (shown large).
	if code, body := p.get("/m/maya"); code != 200 || !strings.Contains(html.UnescapeString(tags.ReplaceAllString(body, "")), doc.Coach.Briefing) {
		t.Fatalf("the dashboard does not show the coach's briefing %q", doc.Coach.Briefing)
	}

	p.stop() // SIGINT; fails unless it exits 0 within 10 s
	logs := p.logs.String()
	for _, want := range []string{`msg="migration applied"`, `msg="hearth stopped cleanly" reason="interrupt signal received"`} {
		if !strings.Contains(logs, want) {
			t.Fatalf("no %s in the log:\n%s", want, logs)
		}
	}
	s, err := store.FileSchema(t.Context(), filepath.Join(dir, "hearth.db"))
	if err != nil || s.Version != store.LatestVersion() || len(s.Pending) != 0 {
		t.Fatalf("schema after the run: %+v %v", s, err)
	}
	withDB(t, dir, func(db *sql.DB) { integrityOK(t, db) })
	t.Logf("smoke test of %s took %v", filepath.Base(bin), time.Since(started).Round(time.Millisecond))
}
