package figures

import "testing"

func TestSetReadsJSONAndText(t *testing.T) {
	s, err := Of(map[string]any{"kg": 81.43, "note": "1,640 kcal on 2026-05-03", "list": []any{-0.25}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tok  string
		want bool
	}{{"81", true}, {"81.4", true}, {"81.43", true}, {"81.0", false}, {"1,640", true}, {"2026", true}, {"3", true},
		{"0.25", true}, {"0.3", true}, {"0.2", false}, {"4", false}} {
		v, d, ok := Parse(c.tok)
		if !ok || s.Has(v, d) != c.want {
			t.Errorf("%q: has = %v, want %v", c.tok, s.Has(v, d), c.want)
		}
	}
	raw := New()
	raw.AddJSON([]byte(`not JSON, but 12.5 and 7`)) // read as text
	if !raw.Has(12.5, 1) || !raw.Has(7, 0) {
		t.Fatal("text that is not JSON was not read")
	}
}
