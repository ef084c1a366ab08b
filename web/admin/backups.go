package admin

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/backup"
	"hearth/internal/importer"
	"hearth/internal/live"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// backupPages are Admin → Backups.
type backupPages struct {
	*core
	backups BackupsAdmin
}

// BackupsAdmin is the backup service as Admin → Backups uses it
// (*backup.Service).
type BackupsAdmin interface {
	Dir() string
	List() ([]backup.Archive, error)
	Path(name string) (string, error)
	Delete(name string) error
	Start(trigger string) error
	Current() (backup.Progress, bool)
	Runs(ctx context.Context, limit int) ([]backup.Run, error)
	Failure(ctx context.Context) (*backup.Run, error)
	Settings(ctx context.Context) (backup.Retention, error)
	SaveSettings(ctx context.Context, r backup.Retention) error
}

var backupNotices = map[string]string{
	"started": "Backup started: progress shows below.", "deleted": "Backup deleted.", "saved": "Retention saved.",
}

// backupStatus is the live part of the page: progress, last failure, list.
func (s *backupPages) backupStatus(ctx context.Context) (adminview.BackupStatus, error) {
	b := s.backups
	st := adminview.BackupStatus{Dir: b.Dir()}
	if p, ok := b.Current(); ok {
		st.Running, st.Phase, st.Percent = true, p.Phase, p.Percent()
	}
	f, err := b.Failure(ctx)
	if err != nil {
		return st, err
	}
	if f != nil {
		st.Failure = fmt.Sprintf("The last backup (%s, %s) failed: %s", f.Trigger, s.fmtAge(f.FinishedAt), f.Error)
	}
	all, err := b.List()
	if err != nil {
		st.ListError = err.Error()
		return st, nil
	}
	now := time.Now()
	for _, a := range all {
		st.Archives = append(st.Archives, adminview.BackupRow{Name: a.Name, Size: importer.FormatBytes(a.Size),
			Made: s.fmtSlot(a.CreatedAt), Age: age(now.Sub(a.CreatedAt)), Schema: a.Schema, Auto: a.Auto})
	}
	runs, err := b.Runs(ctx, 1)
	if err != nil {
		return st, err
	}
	if len(runs) > 0 && runs[0].Status == "ok" {
		st.LastOK = s.fmtAge(runs[0].FinishedAt)
	}
	return st, nil
}

func (s *core) fmtAge(t time.Time) string {
	return s.fmtSlot(t) + ", " + age(time.Since(t))
}

// age says how long ago, roughly.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
}

func (s *backupPages) backupsPage(c echo.Context, settings views.FormState, notice adminview.Notice) (adminview.AdminBackups, error) {
	ctx := c.Request().Context()
	st, err := s.backupStatus(ctx)
	if err != nil {
		return adminview.AdminBackups{}, err
	}
	if settings.Values == nil {
		r, err := s.backups.Settings(ctx)
		if err != nil {
			return adminview.AdminBackups{}, err
		}
		settings.Values = map[string]string{"keep_daily": strconv.Itoa(r.Daily), "keep_weekly": strconv.Itoa(r.Weekly)}
	}
	p := adminview.AdminBackups{AdminPage: s.adminPage(c, "Backups", "backups"), Notice: notice, Status: st, Settings: settings}
	p.Stream = "/admin/live/backups"
	return p, nil
}

// adminBackups lists the archives with size and age, the running backup's
// progress and the last failure, and the retention settings.
func (s *backupPages) adminBackups(c echo.Context) error {
	p, err := s.backupsPage(c, views.FormState{}, adminview.Notice{Text: backupNotices[c.QueryParam("done")]})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminBackupsPage(p))
}

// adminBackupNow starts a backup in the background; the page follows it live.
func (s *backupPages) adminBackupNow(c echo.Context) error {
	if err := s.backups.Start(backup.TriggerManual); err != nil {
		notice, status, ok := userError(err)
		if !ok {
			return err
		}
		p, perr := s.backupsPage(c, views.FormState{}, notice)
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, status, adminview.AdminBackupsPage(p))
	}
	return c.Redirect(http.StatusSeeOther, "/admin/backups?done=started")
}

func (s *backupPages) adminBackupSettings(c echo.Context) error {
	vals := httpkit.FormValues(c, "keep_daily", "keep_weekly")
	daily, err1 := strconv.Atoi(vals["keep_daily"])
	weekly, err2 := strconv.Atoi(vals["keep_weekly"])
	if err1 != nil {
		daily = -1
	}
	if err2 != nil {
		weekly = -1
	}
	err := s.backups.SaveSettings(c.Request().Context(), backup.Retention{Daily: daily, Weekly: weekly})
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/backups?done=saved")
	}
	fs, err := formFailure(err, vals)
	if err != nil {
		return err
	}
	p, err := s.backupsPage(c, fs, adminview.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminBackupsPage(p))
}

// adminBackupDownload sends one archive; the name must be one listed.
func (s *backupPages) adminBackupDownload(c echo.Context) error {
	name := c.Param("name")
	path, err := s.backups.Path(name)
	if err != nil {
		return err
	}
	liftDeadlines(c) // archives can be large
	return c.Attachment(path, name)
}

func (s *backupPages) adminBackupDelete(c echo.Context) error {
	if err := s.backups.Delete(c.Param("name")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/backups?done=deleted")
}

// liveBackups re-renders the status and list on backup events.
func (s *backupPages) liveBackups(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindBackup), func(ctx context.Context) ([]templ.Component, error) {
		st, err := s.backupStatus(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.BackupStatusView(csrf, st)}, nil
	})
}
