package web_test

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/store"
)

// Admin → a member: the export downloads as a zip of CSVs and JSON; erase
// needs the id typed, then removes every row and file of the member.
func TestAdminExportAndEraseMember(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	voice := filepath.Join(s.dir, "voice", "maya")
	if err := os.MkdirAll(voice, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(voice, "a.webm"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.do(swReq{method: http.MethodGet, path: "/admin/household/maya"}).Body.String(), "/admin/household/maya/export") {
		t.Error("the member page offers no export")
	}
	rec := s.do(swReq{method: http.MethodGet, path: "/admin/household/maya/export"})
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "hearth-maya-") {
		t.Fatalf("export: %d %q", rec.Code, rec.Header().Get("Content-Disposition"))
	}
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	for _, want := range []string{"weights.csv", "meals.csv", "workouts.csv", "body_scans.csv", "member.json"} {
		if !names[want] {
			t.Errorf("export lacks %s", want)
		}
	}
	page := s.do(swReq{method: http.MethodGet, path: "/admin/household/maya/erase"}).Body.String()
	if !strings.Contains(page, "weigh-ins") || !strings.Contains(page, "/admin/household/maya/export") {
		t.Errorf("erase page: %.400s", page)
	}
	r := form(url.Values{"confirm": {"Maya"}})
	r.path = "/admin/household/maya/erase"
	if rec := s.do(r); rec.Code != 400 {
		t.Fatalf("wrong confirmation: %d", rec.Code)
	}
	if _, err := s.app.DB.Member(ctx, "maya"); err != nil {
		t.Fatal("erased without the typed id")
	}
	r = form(url.Values{"confirm": {"maya"}})
	r.path = "/admin/household/maya/erase"
	if rec := s.do(r); rec.Code != http.StatusSeeOther {
		t.Fatalf("erase: %d %.300s", rec.Code, rec.Body.String())
	}
	for _, mt := range store.MemberData {
		var n int
		if err := s.app.DB.Read.QueryRow(`SELECT count(*) FROM `+mt.Table+` WHERE `+mt.Where, "maya").Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows of maya left (%v)", mt.Table, n, err)
		}
	}
	if _, err := os.Stat(voice); !os.IsNotExist(err) {
		t.Errorf("voice memos left: %v", err)
	}
	if _, err := s.app.DB.Member(ctx, "theo"); err != nil {
		t.Fatal("the other member went too")
	}
	if rec := s.do(swReq{method: http.MethodGet, path: "/m/maya"}); rec.Code != 404 {
		t.Errorf("kiosk page of the erased member: %d", rec.Code)
	}
}
