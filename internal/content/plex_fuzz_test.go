package content_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/content"
)

// FuzzPlexSection answers a section fetch with arbitrary JSON from a fake
// Plex server (what a Plex server says is outside input): FetchSection
// either fails or yields a file the catalog accepts as it is.
//
//	go test -run '^$' -fuzz FuzzPlexSection -fuzztime 30s ./internal/content/
func FuzzPlexSection(f *testing.F) {
	identity := `{"MediaContainer":{"machineIdentifier":"m1"}}`
	all := `{"MediaContainer":{"Metadata":[{"ratingKey":"100","type":"show","title":"Iron Forge"},` +
		`{"ratingKey":7,"type":"movie","title":"Sunrise Flow","duration":1800000,"thumb":"/library/metadata/7/thumb/1"}]}}`
	episodes := `{"MediaContainer":{"size":2,"totalSize":2,"offset":0,"Metadata":[{"ratingKey":"101","type":"season","index":1},` +
		`{"ratingKey":"102","grandparentRatingKey":"100","type":"episode","index":1,"parentIndex":1,"title":"Day 1","duration":2700000,` +
		`"Media":[{"duration":2700000,"Part":[{"key":"/library/parts/1/file.mp4"}]}]}]}}`
	f.Add(identity, all, episodes)
	f.Add(identity, `{"MediaContainer":{"Metadata":[{"ratingKey":"../x","type":"movie","title":"\u0000<script>","duration":-1}]}}`, episodes)
	f.Add(identity, `{"MediaContainer":{"Metadata":[{"ratingKey":1e99,"type":"movie","title":"x","duration":9e18}]}}`, episodes)
	f.Add(`{}`, `{"MediaContainer":{"Metadata":null}}`, `[]`)
	f.Add(identity, all, `{"MediaContainer":{"Metadata":[{"ratingKey":"100","grandparentRatingKey":100,"type":"episode","parentIndex":0}]}}`)
	// One fake server per fuzz worker; inputs run one at a time.
	var answers atomic.Pointer[[3]string]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers.Load()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/identity":
			_, _ = w.Write([]byte(a[0]))
		case strings.HasSuffix(r.URL.Path, "/all") && r.URL.Query().Get("type") == "4":
			_, _ = w.Write([]byte(a[2]))
		case strings.HasSuffix(r.URL.Path, "/all"):
			_, _ = w.Write([]byte(a[1]))
		default:
			http.NotFound(w, r)
		}
	}))
	f.Cleanup(srv.Close)
	px, err := content.NewPlexClient(srv.URL, "token", &http.Client{Timeout: 5 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, identity, all, episodes string) {
		answers.Store(&[3]string{identity, all, episodes})
		fetched, err := px.FetchSection(context.Background(), "3")
		if err != nil {
			return
		}
		raw, err := json.Marshal(fetched.File)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := content.ParseCatalog(raw); err != nil {
			t.Fatalf("a fetched section is not a valid catalog: %v\n%s", err, raw)
		}
	})
}
