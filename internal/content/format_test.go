package content_test

import (
	"os"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

func readGood(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/good.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseCatalogGood(t *testing.T) {
	f, err := content.ParseCatalog(readGood(t))
	if err != nil {
		t.Fatalf("ParseCatalog: %v", err)
	}
	if got, want := len(f.Items), 6; got != want {
		t.Fatalf("items = %d, want %d", got, want)
	}
	if got := f.Items[1].Kind; got != content.KindCoolDown {
		t.Errorf("kind not normalised: %q", got)
	}
	days := f.Programs[0].Days
	for i, d := range days {
		if d.Day != i+1 {
			t.Fatalf("days not sorted: %+v", days)
		}
	}
	if !days[1].Rest || days[2].Note != "Again, heavier." {
		t.Errorf("days = %+v", days)
	}
	if refs := f.ExternalRefs(); len(refs) != 0 {
		t.Errorf("ExternalRefs = %v, want none", refs)
	}
}

// TestParseCatalogRejects lists malformed files; each must fail with an
// Invalid (or TooLarge) error whose message names the problem.
func TestParseCatalogRejects(t *testing.T) {
	item := func(fields string) string {
		return `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"},` + fields + `]}`
	}
	tests := []struct {
		name string
		in   string
		code apperr.Code
		want []string // substrings of the message
	}{
		{"empty", ``, apperr.Invalid, []string{"empty"}},
		{"syntax", "{\"items\": [\n  {\"id\": \"local:a\",, }\n]}", apperr.Invalid, []string{"not valid JSON", "line 2, column 20"}},
		{"truncated", `{"items": [{"id": "local:a"`, apperr.Invalid, []string{"ends early"}},
		{"top-level array", `[]`, apperr.Invalid, []string{"wrong type", "line 1, column 1"}},
		{"wrong type", `{"items":[{"id":"local:a","title":"A","duration":"ten","kind":"main"}]}`, apperr.Invalid,
			[]string{"duration", "string", "whole number"}},
		{"unknown field", `{"items":[{"id":"local:a","title":"A","durration":10,"kind":"main"}]}`, apperr.Invalid,
			[]string{`unknown field "durration"`, "line 1"}},
		{"trailing data", `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}]} {}`, apperr.Invalid,
			[]string{"unexpected data after"}},
		{"no content", `{}`, apperr.Invalid, []string{"no items and no programs"}},
		{"null", `null`, apperr.Invalid, []string{"no items and no programs"}},
		{"unknown kind", item(`{"id":"local:b","title":"B","duration":10,"kind":"zumba"}`), apperr.Invalid,
			[]string{"items[1] (local:b).kind", `unknown kind "zumba"`, "warm-up"}},
		{"missing kind", item(`{"id":"local:b","title":"B","duration":10}`), apperr.Invalid, []string{"items[1] (local:b).kind: missing"}},
		// Browsers read "/\host" as the protocol-relative "//host".
		{"backslash url", item(`{"id":"local:b","title":"B","duration":10,"kind":"main","thumbnail":"/\\evil.example/x.png"}`), apperr.Invalid,
			[]string{"items[1] (local:b).thumbnail"}},
		{"backslash play url", item(`{"id":"local:b","title":"B","duration":10,"kind":"main","play_url":"https://ok.example\\@evil.example/"}`), apperr.Invalid,
			[]string{"items[1] (local:b).play_url"}},
		{"duplicate id", item(`{"id":"local:a","title":"Again","duration":10,"kind":"main"}`), apperr.Invalid,
			[]string{"items[1] (local:a)", "duplicate id", "items[0]"}},
		{"bad prefix", item(`{"id":"youtube:x","title":"B","duration":10,"kind":"main"}`), apperr.Invalid,
			[]string{"items[1] (youtube:x).id", "local:"}},
		{"missing id", item(`{"title":"B","duration":10,"kind":"main"}`), apperr.Invalid, []string{"items[1].id: missing"}},
		{"zero duration", item(`{"id":"local:b","title":"B","duration":0,"kind":"main"}`), apperr.Invalid,
			[]string{"items[1] (local:b).duration", "between 1 and 600"}},
		{"negative duration", item(`{"id":"local:b","title":"B","duration":-5,"kind":"main"}`), apperr.Invalid,
			[]string{"(local:b).duration"}},
		{"fractional duration", item(`{"id":"local:b","title":"B","duration":2.5,"kind":"main"}`), apperr.Invalid,
			[]string{"duration", "whole number"}},
		{"blank title", item(`{"id":"local:b","title":"  ","duration":5,"kind":"main"}`), apperr.Invalid,
			[]string{"(local:b).title: missing"}},
		{"script url", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","play_url":"javascript:alert(1)"}`),
			apperr.Invalid, []string{"(local:b).play_url"}},
		{"protocol-relative thumb", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","thumbnail":"//evil.example/x.png"}`),
			apperr.Invalid, []string{"(local:b).thumbnail"}},
		{"bad program id", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","program":"Big Program"}`),
			apperr.Invalid, []string{"(local:b).program"}},
		{"empty tag", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","tags":[""]}`),
			apperr.Invalid, []string{"(local:b).tags[0]"}},
		{"unknown intensity", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","intensity":"brutal"}`),
			apperr.Invalid, []string{"(local:b).intensity", `unknown intensity "brutal"`, "low, moderate, high"}},
		{"unknown impact", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","impact":"medium"}`),
			apperr.Invalid, []string{"(local:b).impact", `unknown impact "medium"`}},
		{"unknown area", item(`{"id":"local:b","title":"B","duration":5,"kind":"main","areas":["knee","tail"]}`),
			apperr.Invalid, []string{"(local:b).areas[1]", `unknown body area "tail"`}},
		{"day gap", `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}],
			"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"local:a"},{"day":3,"content_id":"local:a"}]}]}`,
			apperr.Invalid, []string{"programs[0] (p).days[1].day", "outside 1..2"}},
		{"day twice", `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}],
			"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"local:a"},{"day":1,"content_id":"local:a"}]}]}`,
			apperr.Invalid, []string{"day 1 appears twice"}},
		{"rest with content", `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}],
			"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"local:a"},{"day":2,"rest":true,"content_id":"local:a"}]}]}`,
			apperr.Invalid, []string{"day 2 is a rest day but names content"}},
		{"day without content", `{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}],
			"programs":[{"id":"p","title":"P","days":[{"day":1}]}]}`,
			apperr.Invalid, []string{"day 1 has no content_id"}},
		{"all rest", `{"programs":[{"id":"p","title":"P","days":[{"day":1,"rest":true}]}]}`,
			apperr.Invalid, []string{"every day is a rest day"}},
		{"no days", `{"programs":[{"id":"p","title":"P","days":[]}]}`, apperr.Invalid, []string{"at least one day"}},
		{"duplicate program", `{"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"local:x"}]},
			{"id":"p","title":"Q","days":[{"day":1,"content_id":"local:x"}]}]}`,
			apperr.Invalid, []string{"programs[1] (p)", "duplicate program id"}},
		{"too large", `{"items":[` + strings.Repeat(" ", content.MaxFileSize) + `]}`, apperr.TooLarge, []string{"larger than 8 MiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := content.ParseCatalog([]byte(tt.in))
			if err == nil {
				t.Fatal("ParseCatalog accepted a bad file")
			}
			if got := apperr.CodeOf(err); got != tt.code {
				t.Fatalf("code = %s, want %s (%v)", got, tt.code, err)
			}
			var ae *apperr.Error
			if !asAppErr(err, &ae) {
				t.Fatalf("not an apperr: %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(ae.Message, w) {
					t.Errorf("message %q does not contain %q", ae.Message, w)
				}
			}
		})
	}
}

func TestParseCatalogCapsProblemList(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 30 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"local:x","title":"X","duration":1,"kind":"nope"}`)
	}
	b.WriteString(`]}`)
	_, err := content.ParseCatalog([]byte(b.String()))
	var ae *apperr.Error
	if !asAppErr(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(ae.Message, "more") || len(ae.Fields) != 20 {
		t.Errorf("fields = %d, message = %q", len(ae.Fields), ae.Message)
	}
}

func TestExternalRefs(t *testing.T) {
	f, err := content.ParseCatalog([]byte(`{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}],
		"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"local:a"},{"day":2,"content_id":"plex:7"},
		{"day":3,"content_id":"plex:7"},{"day":4,"content_id":"local:z"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(f.ExternalRefs(), ","), "plex:7,local:z"; got != want {
		t.Errorf("ExternalRefs = %s, want %s", got, want)
	}
}

// TestParseCatalogMetadata: intensity, impact and areas are normalised
// (case, "knees" → knee, repeats); what a file leaves out is guessed from
// the kind, and an empty areas list states that nothing is loaded.
func TestParseCatalogMetadata(t *testing.T) {
	f, err := content.ParseCatalog([]byte(`{"items":[
		{"id":"local:a","title":"A","duration":10,"kind":"hiit","intensity":" High","impact":"LOW","areas":["Knees","knee","Lower Back"]},
		{"id":"local:b","title":"B","duration":10,"kind":"hiit"},
		{"id":"local:c","title":"C","duration":10,"kind":"strength","intensity":"low","areas":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := f.Items[0], f.Items[1], f.Items[2]
	if a.Intensity != "high" || a.Impact != "low" || strings.Join(a.Areas, ",") != "back,knee" {
		t.Errorf("a = %q %q %v", a.Intensity, a.Impact, a.Areas)
	}
	if m := a.Meta(); len(m.Guessed) != 0 || !m.Loads(content.AreaKnee) || m.Loads(content.AreaAnkle) {
		t.Errorf("a meta = %+v", m)
	}
	if m := b.Meta(); m.Intensity != "high" || m.Impact != "high" || !m.Loads(content.AreaKnee) || len(m.Guessed) != 3 {
		t.Errorf("b meta (all from the kind) = %+v", m)
	}
	if m := c.Meta(); m.Intensity != "low" || m.Impact != "low" || len(m.Areas) != 0 || strings.Join(m.Guessed, ",") != "impact" {
		t.Errorf("c meta = %+v", m)
	}
}

// TestReadmeExampleParses keeps the documented example importable.
func TestReadmeExampleParses(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no json example")
	}
	f, err := content.ParseCatalog([]byte(example))
	if err != nil {
		t.Fatalf("README example: %v", err)
	}
	if len(f.Items) != 2 || len(f.Programs) != 1 || !f.Programs[0].Days[2].Rest {
		t.Errorf("parsed = %+v", f)
	}
}
