package content_test

import (
	"context"
	"testing"

	"hearth/internal/content"
)

func TestLoadDemo(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	sum, err := c.LoadDemo(ctx)
	if err != nil {
		t.Fatalf("LoadDemo: %v", err)
	}
	if sum.ItemsAdded < 40 || sum.ItemsAdded > 80 || sum.ProgramsAdded != 3 || sum.Source != content.SourceDemo {
		t.Fatalf("summary = %+v", sum)
	}
	again, err := c.LoadDemo(ctx)
	if err != nil || again.Changed() {
		t.Fatalf("second LoadDemo = %+v, %v; want unchanged", again, err)
	}

	items, err := c.List(ctx, content.Filter{Limit: content.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, it := range items {
		kinds[it.Kind]++
		if it.Thumbnail != "/static/thumbs/"+it.Kind+".svg" || it.PlayURL != "/content/"+it.ID || it.Source != content.SourceDemo {
			t.Errorf("item %s: thumbnail %q, play %q, source %q", it.ID, it.Thumbnail, it.PlayURL, it.Source)
		}
	}
	for _, k := range []string{content.KindWarmUp, content.KindCoolDown, content.KindStretch, content.KindCardio, content.KindYoga} {
		if kinds[k] == 0 {
			t.Errorf("demo catalog has no %s items", k)
		}
	}

	progs, err := c.Programs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	withRest := 0
	for _, info := range progs {
		p, err := c.Program(ctx, info.ID)
		if err != nil {
			t.Fatal(err)
		}
		if info.TotalDays != len(p.Days) || info.TotalDays < 21 {
			t.Errorf("%s: %d days", info.ID, info.TotalDays)
		}
		if info.TrainingDays < info.TotalDays {
			withRest++
		}
		for _, d := range p.Days {
			sd, err := c.ProgramDay(ctx, p.ID, d.Day)
			if err != nil {
				t.Fatalf("%s day %d: %v", p.ID, d.Day, err)
			}
			if !d.Rest && (sd.Item == nil || sd.Item.ID != d.ContentID) {
				t.Errorf("%s day %d: item %v, want %s", p.ID, d.Day, sd.Item, d.ContentID)
			}
		}
	}
	if withRest < 2 {
		t.Errorf("%d programs have rest days, want at least 2", withRest)
	}
}

func TestDemoFileParses(t *testing.T) {
	f, err := content.DemoFile()
	if err != nil {
		t.Fatal(err)
	}
	if refs := f.ExternalRefs(); len(refs) != 0 {
		t.Errorf("demo program days name items outside the demo file: %v", refs)
	}
}
