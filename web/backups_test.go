package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/backup"
	"hearth/internal/testkit"
)

// waitBackups waits until no backup runs in the app.
func (s *swServer) waitBackups(t *testing.T) {
	t.Helper()
	testkit.WaitFor(t, testkit.Patience, "the backup to finish", func() bool {
		_, running := s.app.Backups.Current()
		return !running
	})
}

func form(vals url.Values) swReq {
	return swReq{method: http.MethodPost, ctype: "application/x-www-form-urlencoded", body: []byte(vals.Encode())}
}

// Admin → Backups: back up now (in the background, with progress on the
// page's stream), list with size and age, download, retention settings,
// delete; names that are not listed archives are 404s.
func TestAdminBackups(t *testing.T) {
	s := newSweepServer(t)
	rec := s.do(swReq{method: http.MethodGet, path: "/admin/backups"})
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "No backups yet") {
		t.Fatalf("empty page: %d %.300s", rec.Code, rec.Body.String())
	}
	r := form(url.Values{})
	r.path = "/admin/backups"
	if rec = s.do(r); rec.Code != http.StatusSeeOther {
		t.Fatalf("back up now: %d %.300s", rec.Code, rec.Body.String())
	}
	s.waitBackups(t)
	list, err := s.app.Backups.List()
	if err != nil || len(list) != 1 || list[0].Auto {
		t.Fatalf("after back up now: %v %v", list, err)
	}
	name := list[0].Name
	page := s.do(swReq{method: http.MethodGet, path: "/admin/backups"}).Body.String()
	for _, want := range []string{name, "Last backup:", "just now", "Back up now"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	rec = s.do(swReq{method: http.MethodGet, path: "/admin/backups/" + name})
	want, _ := os.ReadFile(list[0].Path)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) || !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Fatalf("download: %d, %d bytes (want %d), %q", rec.Code, rec.Body.Len(), len(want), rec.Header().Get("Content-Disposition"))
	}
	if _, err := backup.Verify(context.Background(), list[0].Path, nil); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"hearth.db", url.PathEscape("../hearth.db"), "hearth-20990101T000000Z-s70.tar.gz"} {
		if rec := s.do(swReq{method: http.MethodGet, path: "/admin/backups/" + bad}); rec.Code != 404 {
			t.Errorf("download %s: %d", bad, rec.Code)
		}
	}
	// Retention: validated, saved.
	r = form(url.Values{"keep_daily": {"0"}, "keep_weekly": {"4"}})
	r.path = "/admin/backups/settings"
	if rec = s.do(r); rec.Code != 400 || !strings.Contains(rec.Body.String(), "from 1 to 366") {
		t.Fatalf("keep_daily 0: %d", rec.Code)
	}
	r = form(url.Values{"keep_daily": {"3"}, "keep_weekly": {"2"}})
	r.path = "/admin/backups/settings"
	if rec = s.do(r); rec.Code != http.StatusSeeOther {
		t.Fatalf("save settings: %d", rec.Code)
	}
	if got, _ := s.app.Backups.Settings(context.Background()); got != (backup.Retention{Daily: 3, Weekly: 2}) {
		t.Fatalf("settings = %+v", got)
	}
	r = form(url.Values{})
	r.path = "/admin/backups/" + name + "/delete"
	if rec = s.do(r); rec.Code != http.StatusSeeOther {
		t.Fatalf("delete: %d", rec.Code)
	}
	if list, _ := s.app.Backups.List(); len(list) != 0 {
		t.Fatalf("after delete: %v", list)
	}
	// The nightly backup is a system task on the schedules page.
	sched := s.do(swReq{method: http.MethodGet, path: "/admin/schedules"}).Body.String()
	if !strings.Contains(sched, "Back up the household&#39;s data") || !strings.Contains(sched, "Hearth itself: backup") {
		t.Error("the schedules page does not show the backup task")
	}
}

// A failed backup shows in Admin → Backups and as the kiosk's admin badge
// until a backup succeeds again.
func TestFailedBackupShowsOnKioskBadge(t *testing.T) {
	s := newSweepServer(t)
	if strings.Contains(s.do(swReq{method: http.MethodGet, path: "/"}).Body.String(), "admin-badge") {
		t.Fatal("a badge before any backup")
	}
	target := filepath.Join(s.dir, "backups")
	if err := os.WriteFile(target, []byte("a file where the backup directory should be"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.app.Backups.Run(context.Background(), backup.TriggerSchedule); err == nil {
		t.Fatal("backup into a file succeeded")
	}
	home := s.do(swReq{method: http.MethodGet, path: "/"}).Body.String()
	if !strings.Contains(home, "admin-badge") || !strings.Contains(home, "Backup failed") {
		t.Fatalf("no badge after a failed backup: %.500s", home)
	}
	stream := s.do(swReq{method: http.MethodGet, path: "/live/household"}).Body.String()
	if !strings.Contains(stream, "Backup failed") {
		t.Error("the household stream does not patch the badge")
	}
	page := s.do(swReq{method: http.MethodGet, path: "/admin/backups"}).Body.String()
	if !strings.Contains(page, "failed") || !strings.Contains(page, "cannot be written") {
		t.Errorf("admin page does not explain the failure: %.600s", page)
	}
	_ = os.Remove(target)
	if _, err := s.app.Backups.Run(context.Background(), backup.TriggerSchedule); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.do(swReq{method: http.MethodGet, path: "/"}).Body.String(), "admin-badge") {
		t.Fatal("the badge stays after a good backup")
	}
}
