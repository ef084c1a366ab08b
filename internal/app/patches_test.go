package app_test

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
)

// patchCounter reads one kiosk stream and counts its element patches.
type patchCounter struct {
	mu      sync.Mutex
	patches int
	ready   chan struct{} // closed after the first keep-alive (initial render done)
}

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
	pc := &patchCounter{ready: make(chan struct{})}
	go func() {
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		once := sync.Once{}
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			switch {
			case strings.HasPrefix(line, "event: datastar-patch-elements"):
				pc.mu.Lock()
				pc.patches++
				pc.mu.Unlock()
			case strings.HasPrefix(line, `data: signals {"_ka"`):
				once.Do(func() { close(pc.ready) })
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

func (pc *patchCounter) count() int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.patches
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
		before := pc.count()
		r, err := srv.app.Agents.RunAssignment(context.Background(), agent.AssignmentRequest{Agent: coach.AgentID,
			Assignment: coach.DailyDashboardID, Member: "maya", Trigger: agent.TriggerManual})
		if err != nil || r.Status != agent.StatusSucceeded {
			t.Fatalf("run: %+v %v", r, err)
		}
		time.Sleep(500 * time.Millisecond) // let the stream settle
		per = append(per, pc.count()-before)
	}
	slices.Sort(per)
	t.Logf("element patches per coach run on an open kiosk (5 runs, sorted): %v", per)
	// curated + coach + playlist for the new document; nothing for run progress.
	if per[len(per)-1] > 3 {
		t.Fatalf("a coach run sent up to %d element patches to an open kiosk, want at most 3 (curated, coach, playlist)", per[len(per)-1])
	}
}
