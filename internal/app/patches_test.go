package app_test

import (
	"bufio"
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/live"
)

// patchCounter reads one kiosk stream and logs its element patches (by
// the id of the patched element) and keep-alives, in order.
type patchCounter struct {
	mu     sync.Mutex
	events []string // "patch w-body", "ka"
	grew   chan struct{}
	ready  chan struct{} // closed after the first keep-alive (initial render done)
}

var patchedID = regexp.MustCompile(`^data: elements <[a-z]+ id="([^"]+)"`)

func countPatches(t *testing.T, url string) *patchCounter {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pc := &patchCounter{ready: make(chan struct{}), grew: make(chan struct{}, 1)}
	go func() {
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		once := sync.Once{}
		inPatch := false
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			var ev string
			switch {
			case strings.HasPrefix(line, "event: datastar-patch-elements"):
				inPatch = true
			case inPatch && strings.HasPrefix(line, "data: elements "):
				inPatch = false
				id := "?"
				if m := patchedID.FindStringSubmatch(line); m != nil {
					id = m[1]
				}
				ev = "patch " + id
			case strings.HasPrefix(line, `data: signals {"_ka"`):
				once.Do(func() { close(pc.ready) })
				ev = "ka"
			}
			if ev != "" {
				pc.mu.Lock()
				pc.events = append(pc.events, ev)
				pc.mu.Unlock()
				select {
				case pc.grew <- struct{}{}:
				default:
				}
			}
		}
	}()
	select {
	case <-pc.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream never finished its first render")
	}
	return pc
}

func (pc *patchCounter) mark() int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return len(pc.events)
}

// patchesUntil waits for the render that patches the element sentinel (and
// the keep-alive that ends it) and returns the patches since from, the
// sentinel's own left out. Events on a stream are handled in order, so
// everything published before the sentinel has been sent by then: a count
// taken there is a count, not a guess after a sleep.
func (pc *patchCounter) patchesUntil(t *testing.T, from int, sentinel string) []string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		pc.mu.Lock()
		evs := slices.Clone(pc.events[from:])
		pc.mu.Unlock()
		if i := slices.Index(evs, "patch "+sentinel); i >= 0 {
			if j := slices.Index(evs[i:], "ka"); j >= 0 {
				var out []string
				for _, e := range evs[:i+j] {
					if strings.HasPrefix(e, "patch ") && e != "patch "+sentinel {
						out = append(out, strings.TrimPrefix(e, "patch "))
					}
				}
				return out
			}
		}
		select {
		case <-pc.grew:
		case <-deadline:
			t.Fatalf("the sentinel patch %q never arrived; stream so far: %v", sentinel, evs)
		}
	}
}

// TestCoachRunPatchesOpenKiosk measures what one coach run costs an open
// kiosk of that member: the element patches its stream sends between the
// run's start and a settled screen. The new document changes the curated
// area, the coach column and the playlist; the run's progress events show
// nowhere on the kiosk and must not re-render anything. BENCHMARKS.md
// records the figures (go test ./internal/app -run TestCoachRunPatchesOpenKiosk -v).
func TestCoachRunPatchesOpenKiosk(t *testing.T) {
	srv := demoApp(t)
	pc := countPatches(t, srv.url+"/live/m/maya")
	var per []int
	for range 5 {
		before := pc.mark()
		r, err := srv.app.Agents.Run(context.Background(), agent.Request{Agent: coach.AgentID,
			Assignment: coach.DailyDashboardID, Member: "maya", Trigger: agent.TriggerManual})
		if err != nil || r.Status != agent.StatusSucceeded {
			t.Fatalf("run: %+v %v", r, err)
		}
		// The sentinel: a scan event re-renders only the body widget.
		srv.app.Hub.Publish(live.MemberTopic("maya"), live.KindScan, nil)
		patched := pc.patchesUntil(t, before, "w-body")
		// The new document patches Up Next and the program, the coach's
		// widgets (briefing, suggestions, questions, messages) and the
		// playlist, once each; run progress patches nothing.
		slices.Sort(patched)
		if want := []string{"coach", "curated", "w-ctas", "w-messages", "w-playlist", "w-program", "w-prompts"}; !slices.Equal(patched, want) {
			t.Fatalf("a coach run patched %v on an open kiosk, want %v", patched, want)
		}
		per = append(per, len(patched))
	}
	slices.Sort(per)
	t.Logf("element patches per coach run on an open kiosk (5 runs, sorted): %v", per)
}
