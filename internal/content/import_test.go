package content_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

func TestImportFileGoodAndIdempotent(t *testing.T) {
	ctx := context.Background()
	c, db := newCatalog(t)
	sum := importGood(t, c)
	if sum.ItemsAdded != 6 || sum.ProgramsAdded != 1 || sum.ItemsUpdated != 0 || sum.Source != content.SourceFile {
		t.Fatalf("first import = %+v", sum)
	}
	if got, want := tableCounts(t, db), [3]int{6, 1, 4}; got != want {
		t.Fatalf("rows = %v, want %v", got, want)
	}
	it, err := c.Get(ctx, "local:mini-1")
	if err != nil {
		t.Fatal(err)
	}
	if it.Source != content.SourceFile || it.Program != "mini-3" || it.Day != 1 || strings.Join(it.Tags, ",") != "dumbbells,legs" {
		t.Errorf("item = %+v", it)
	}
	var stamp string
	if err := db.Read.QueryRow(`SELECT updated_at FROM content_items WHERE id = 'local:mini-1'`).Scan(&stamp); err != nil {
		t.Fatal(err)
	}

	db.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	again := importGood(t, c)
	if again.Changed() || again.ItemsUnchanged != 6 || again.ProgramsUnchanged != 1 {
		t.Fatalf("re-import = %+v, want all unchanged", again)
	}
	var stamp2 string
	if err := db.Read.QueryRow(`SELECT updated_at FROM content_items WHERE id = 'local:mini-1'`).Scan(&stamp2); err != nil {
		t.Fatal(err)
	}
	if stamp2 != stamp {
		t.Errorf("unchanged re-import touched updated_at: %s -> %s", stamp, stamp2)
	}
	if got, want := tableCounts(t, db), [3]int{6, 1, 4}; got != want {
		t.Fatalf("rows after re-import = %v, want %v", got, want)
	}
}

func TestImportFileUpdatesByID(t *testing.T) {
	ctx := context.Background()
	c, db := newCatalog(t)
	importGood(t, c)
	upd := `{"items":[{"id":"local:wu-5","title":"Five Minute Warm-Up (new)","duration":6,"kind":"warm-up"}],
		"programs":[{"id":"mini-3","title":"Mini Three","days":[{"day":1,"content_id":"local:mini-2"},{"day":2,"rest":true}]}]}`
	sum, err := c.ImportFile(ctx, strings.NewReader(upd))
	if err != nil {
		t.Fatal(err)
	}
	if sum.ItemsUpdated != 1 || sum.ProgramsUpdated != 1 || sum.ItemsAdded != 0 {
		t.Fatalf("summary = %+v", sum)
	}
	it, _ := c.Get(ctx, "local:wu-5")
	if it.DurationMin != 6 || it.Title != "Five Minute Warm-Up (new)" || it.Tags != nil {
		t.Errorf("updated item = %+v", it)
	}
	p, err := c.Program(ctx, "mini-3")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Days) != 2 || p.Days[0].ContentID != "local:mini-2" || p.Description != "" {
		t.Errorf("program = %+v", p)
	}
	if got, want := tableCounts(t, db), [3]int{6, 1, 2}; got != want {
		t.Fatalf("rows = %v, want %v (items are never deleted)", got, want)
	}
}

func TestImportFileReferencesExistingCatalog(t *testing.T) {
	ctx := context.Background()
	c, _ := newCatalog(t)
	importGood(t, c)
	f := `{"programs":[{"id":"stretchy","title":"Stretchy","days":[{"day":1,"content_id":"local:str-10"},{"day":2,"content_id":"plex:9001"}]}]}`
	sum, err := c.ImportFile(ctx, strings.NewReader(f))
	if err != nil {
		t.Fatalf("program over existing items: %v", err)
	}
	if sum.ProgramsAdded != 1 {
		t.Errorf("summary = %+v", sum)
	}
}

// TestImportFileRejectsAndImportsNothing: each bad file leaves the catalog
// exactly as it was (all-or-nothing) and the error says why.
func TestImportFileRejectsAndImportsNothing(t *testing.T) {
	good := string(readGood(t))
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"malformed JSON", `{"items": [ {"id": "local:new", } ]}`, "not valid JSON at line 1"},
		{"unknown kind", strings.Replace(good, `"kind": "yoga"`, `"kind": "zumba"`, 1), `items[5] (plex:9001).kind: unknown kind "zumba"`},
		{"duplicate ids", strings.Replace(good, `"id": "local:cd-5"`, `"id": "local:wu-5"`, 1), "items[1] (local:wu-5): duplicate id, first defined at items[0]"},
		{"missing item", strings.Replace(good, `{"day": 4, "content_id": "local:mini-2"}`, `{"day": 4, "content_id": "local:nope"}`, 1),
			`programs[0] (mini-3) day 4: content "local:nope" is not in the file or the catalog`},
		{"good items but one bad duration", strings.Replace(good, `"duration": 45`, `"duration": 0`, 1), "items[4] (local:mini-2).duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			c, db := newCatalog(t)
			// A pre-existing catalog must survive untouched.
			if _, err := c.ImportFile(ctx, strings.NewReader(`{"items":[{"id":"local:keep","title":"Keep","duration":3,"kind":"stretch"}]}`)); err != nil {
				t.Fatal(err)
			}
			before := tableCounts(t, db)
			_, err := c.ImportFile(ctx, strings.NewReader(tt.in))
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("err = %v, want Invalid", err)
			}
			var ae *apperr.Error
			asAppErr(err, &ae)
			if !strings.Contains(ae.Message, tt.want) {
				t.Errorf("message %q does not contain %q", ae.Message, tt.want)
			}
			if after := tableCounts(t, db); after != before {
				t.Errorf("rows %v -> %v: a rejected file wrote something", before, after)
			}
		})
	}
}

func TestImportFileSizeLimit(t *testing.T) {
	c, db := newCatalog(t)
	big := bytes.Repeat([]byte(" "), content.MaxFileSize+10)
	_, err := c.ImportFile(context.Background(), bytes.NewReader(big))
	if !apperr.Is(err, apperr.TooLarge) {
		t.Fatalf("err = %v, want TooLarge", err)
	}
	if got := tableCounts(t, db); got != [3]int{} {
		t.Errorf("rows = %v", got)
	}
}
