package web_test

import (
	"context"
	"hearth/internal/testkit"
	"runtime"
	"strings"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/household"
	"hearth/internal/live"
)

func TestStreamsEndWhenClientGoes(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	for path, topic := range map[string]string{"/live/m/ada": live.MemberTopic("ada"), "/live/household": live.TopicHousehold} {
		t.Run(path, func(t *testing.T) {
			k.client.CloseIdleConnections()
			runtime.GC()
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			s, resp := k.openStream(ctx, path)
			// The household's first event patches its tiles; a dashboard's
			// marks the connection (a signals patch with an id).
			if ev, err := s.next(); err != nil || !strings.Contains(ev, "event: datastar-patch-") {
				t.Fatalf("first event: %q, %v", ev, err)
			}
			if n := k.hub.Subscribers(topic); n != 1 {
				t.Fatalf("subscribers of %s = %d, want 1", topic, n)
			}
			cancel()
			resp.Body.Close()
			k.client.CloseIdleConnections()
			testkit.WaitFor(t, testkit.Patience, "the stream to unsubscribe", func() bool { return k.hub.Subscribers(topic) == 0 })
			testkit.WaitFor(t, testkit.Patience, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
		})
	}
}

func TestStreamPatchesChangedWidgets(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, resp := k.openStream(ctx, "/live/m/ada")
	defer resp.Body.Close()
	// The first events re-render every widget from current state.
	for _, id := range []string{`id="w-weight"`, `id="w-nutrition"`, `id="w-body"`, `id="w-workouts"`, `id="curated"`, `id="w-playlist"`, `id="coach"`, `id="switcher"`} {
		s.until(t, 2*time.Second, id)
	}
	s.until(t, time.Second, "datastar-patch-signals", `"_ka":`) // keep-alive the page can observe

	start := time.Now()
	if _, err := k.hh.LogWeight(ctx, "ada", household.WeightInput{Weight: 68.3}); err != nil {
		t.Fatal(err)
	}
	s.until(t, time.Second, `id="w-weight"`, "68.3")
	if d := time.Since(start); d > time.Second {
		t.Errorf("weight reached the stream after %v", d)
	}
	if _, err := k.ds.RecordAnswer(ctx, "ada", "p1", "Rest day", "tap", 0); err != nil {
		t.Fatal(err)
	}
	s.until(t, time.Second, `id="w-prompts"`, "Rest day")
	if err := k.ds.MarkConsumed(ctx, "ada", "local:ember-core-01", "done_tap"); err != nil {
		t.Fatal(err)
	}
	ev := s.until(t, time.Second, `id="curated"`, "Done: Core Ignite")
	if strings.Contains(ev, `id="upnext"`) {
		t.Error("Up Next still in the patch after completion")
	}
	doc := sampleDoc("A new plan for today.")
	k.putDoc("ada", today(), doc)
	s.until(t, time.Second, `id="coach"`, "A new plan for today.")
	if err := k.ds.EditPlaylist(ctx, "ada", dashboard.PlaylistEdit{Op: dashboard.PlaylistAdd, ContentID: "local:ember-core-03"}); err != nil {
		t.Fatal(err)
	}
	s.until(t, time.Second, `id="w-playlist"`, "Rotation Station")
}

func TestHouseholdStreamUpdatesTiles(t *testing.T) {
	k := newKiosk(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, resp := k.openStream(ctx, "/live/household")
	defer resp.Body.Close()
	s.until(t, 2*time.Second, `id="tiles"`)
	if _, err := k.hh.LogWeight(ctx, "bo", household.WeightInput{Weight: 190, Unit: "lb"}); err != nil {
		t.Fatal(err)
	}
	s.until(t, time.Second, `id="tiles"`, "190.0 lb")
}
