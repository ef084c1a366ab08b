package screen_test

import (
	"context"
	"path/filepath"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/devices"
	"hearth/internal/live"
	"hearth/internal/screen"
	"hearth/internal/store"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Layouts are versioned data: an edit of a shipped layout is its version
// 1, every save a new version (the old ones kept), a reset returns it to
// as shipped; screens resolve ?layout=, then their own, then the default;
// every change is told to open screens.
func TestLayoutsAreVersionedAndResolved(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	hub := live.NewHub()
	sub := hub.Subscribe(live.TopicHousehold)
	defer sub.Close()
	s := screen.New(db, hub)

	list, err := s.List(ctx)
	if err != nil || len(list) != 4 || list[0].Slug != "wall-tablet" || list[0].Version != 0 {
		t.Fatalf("shipped list: %+v %v", list, err)
	}
	e, err := s.Resolve(ctx, "", "")
	if err != nil || e.Slug != screen.DefaultSlug {
		t.Fatalf("default: %+v %v", e, err)
	}

	tv, _ := s.Get(ctx, "tv")
	l := tv.Layout
	l.Landscape.Places = l.Landscape.Places[:3]
	saved, err := s.Save(ctx, "tv", l)
	if err != nil || saved.Version != 1 || !saved.Shipped {
		t.Fatalf("save: %+v %v", saved, err)
	}
	if ev := <-sub.C(); ev.Kind != live.KindLayout || ev.Data != "tv" {
		t.Errorf("event %+v", ev)
	}
	if saved, err = s.Save(ctx, "tv", l); err != nil || saved.Version != 2 {
		t.Fatalf("second save: %+v %v", saved, err)
	}
	if vs, err := s.Versions(ctx, "tv"); err != nil || len(vs) != 2 || vs[0].Version != 2 {
		t.Errorf("versions: %+v %v", vs, err)
	}
	if got, _ := s.Get(ctx, "tv"); len(got.Layout.Landscape.Places) != 3 || got.Key() != "tv@2" {
		t.Errorf("read back %s with %d places", got.Key(), len(got.Layout.Landscape.Places))
	}

	// A bad layout is refused and nothing changes.
	bad := l
	bad.Landscape = &screen.Grid{Cols: 2, Rows: 1, Places: []screen.Place{{Widget: "weather", Col: 1, Row: 1, W: 1, H: 1}}}
	if _, err := s.Save(ctx, "tv", bad); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("unknown widget saved: %v", err)
	}
	if got, _ := s.Get(ctx, "tv"); got.Version != 2 {
		t.Errorf("a refused save changed the layout: %s", got.Key())
	}

	// The household's own layout, made the default, then removed: screens
	// go back to the shipped default.
	own := l
	own.Name = "Kitchen"
	if _, err := s.Save(ctx, "kitchen", own); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDefault(ctx, "kitchen"); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Resolve(ctx, "", ""); e.Slug != "kitchen" {
		t.Errorf("default now %s", e.Slug)
	}
	if e, _ := s.Resolve(ctx, "phone", ""); e.Slug != "phone" {
		t.Errorf("?layout=phone resolved %s", e.Slug)
	}
	if e, _ := s.Resolve(ctx, "nope", ""); e.Slug != "kitchen" {
		t.Errorf("an unknown choice falls back to the default, got %s", e.Slug)
	}
	if err := s.Remove(ctx, "kitchen"); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Resolve(ctx, "", ""); e.Slug != screen.DefaultSlug {
		t.Errorf("after removing the default: %s", e.Slug)
	}
	if err := s.Remove(ctx, "tv"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, "tv"); got.Version != 0 || len(got.Layout.Landscape.Places) != 10 {
		t.Errorf("reset: %s with %d places", got.Key(), len(got.Layout.Landscape.Places))
	}
	if err := s.Assign(ctx, 99, "tv"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("assign to no screen: %v", err)
	}

	// An enrolled screen shows the layout the admin gave it.
	devs := devices.New(db)
	d, code, err := devs.StartEnrolment(ctx, "Lounge TV")
	if err != nil {
		t.Fatal(err)
	}
	if _, token, err := devs.Enrol(ctx, code); err != nil {
		t.Fatal(err)
	} else {
		if err := s.Assign(ctx, d.ID, "tv"); err != nil {
			t.Fatal(err)
		}
		if e, _ := s.Resolve(ctx, "", devices.Hash(token)); e.Slug != "tv" {
			t.Errorf("the lounge TV shows %s", e.Slug)
		}
		if e, _ := s.Resolve(ctx, "", devices.Hash("another")); e.Slug != screen.DefaultSlug {
			t.Errorf("another screen shows %s", e.Slug)
		}
		if as, _ := s.Assignments(ctx); as[d.ID] != "tv" {
			t.Errorf("assignments %v", as)
		}
	}
}
