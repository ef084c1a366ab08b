package content

import (
	"context"
	_ "embed"
	"fmt"
)

// demoCatalog is the demo household's catalog in the File format: three
// invented programs (Ember Core 30, Ironwood Strength: 6 Weeks, Tideline
// Yoga 21) plus standalone warm-ups, cool-downs, stretches, cardio, yoga and
// more. Thumbnails are /static/thumbs/<kind>.svg; play URLs /content/<id>.
//
//go:embed demo/catalog.json
var demoCatalog []byte

// DemoFile returns the parsed demo catalog.
func DemoFile() (File, error) {
	f, err := ParseCatalog(demoCatalog)
	if err != nil {
		return File{}, fmt.Errorf("content: demo catalog: %w", err)
	}
	return f, nil
}

// LoadDemo imports the demo catalog (source "demo"); loading it again changes nothing.
func (c *Catalog) LoadDemo(ctx context.Context) (Summary, error) {
	f, err := DemoFile()
	if err != nil {
		return Summary{}, err
	}
	return c.Import(ctx, f, SourceDemo)
}
