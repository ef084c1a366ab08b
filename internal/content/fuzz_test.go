package content_test

import (
	"encoding/json"
	"os"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

// FuzzParseCatalog: the parser never panics, fails only with Invalid or
// TooLarge, and whatever it accepts survives a marshal/parse round trip.
func FuzzParseCatalog(f *testing.F) {
	if good, err := os.ReadFile("testdata/good.json"); err == nil {
		f.Add(good)
	}
	f.Add([]byte(`{"items":[{"id":"local:a","title":"A","duration":10,"kind":"main"}]}`))
	f.Add([]byte(`{"programs":[{"id":"p","title":"P","days":[{"day":1,"content_id":"plex:1"},{"day":2,"rest":true}]}]}`))
	f.Add([]byte(`{"items":[{"id":"local:a","title":"A","duration":"x"}]}`))
	f.Add([]byte(`[1,2,3]`))
	f.Add([]byte(`{"items":[{"id":"local:a","title":"A\u0000","duration":1e9,"kind":"MAIN","tags":["x"]}]} trailing`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := content.ParseCatalog(data)
		if err != nil {
			if c := apperr.CodeOf(err); c != apperr.Invalid && c != apperr.TooLarge {
				t.Fatalf("error code %s: %v", c, err)
			}
			return
		}
		out, err := json.Marshal(cf)
		if err != nil {
			t.Fatalf("marshal accepted file: %v", err)
		}
		if _, err := content.ParseCatalog(out); err != nil {
			t.Fatalf("accepted file does not re-parse: %v\n%s", err, out)
		}
	})
}
