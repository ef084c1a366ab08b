package web

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
	"hearth/web/httpkit"
)

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

func (s *Server) backupRoutes(g *echo.Group) {
	g.GET("/backups", s.adminBackups)
	g.POST("/backups", s.adminBackupNow)
	g.POST("/backups/settings", s.adminBackupSettings)
	g.GET("/backups/:name", s.adminBackupDownload)
	g.POST("/backups/:name/delete", s.adminBackupDelete)
	g.GET("/live/backups", s.liveBackups)
}

// backupStatus is the live part of the page: progress, last failure, list.
func (s *Server) backupStatus(ctx context.Context) (views.BackupStatus, error) {
	b := s.deps.Admin.Backups
	st := views.BackupStatus{Dir: b.Dir()}
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
		st.Archives = append(st.Archives, views.BackupRow{Name: a.Name, Size: importer.FormatBytes(a.Size),
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

func (s *Server) fmtAge(t time.Time) string {
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

func (s *Server) backupsPage(c echo.Context, settings views.FormState, notice views.Notice) (views.AdminBackups, error) {
	ctx := c.Request().Context()
	st, err := s.backupStatus(ctx)
	if err != nil {
		return views.AdminBackups{}, err
	}
	if settings.Values == nil {
		r, err := s.deps.Admin.Backups.Settings(ctx)
		if err != nil {
			return views.AdminBackups{}, err
		}
		settings.Values = map[string]string{"keep_daily": strconv.Itoa(r.Daily), "keep_weekly": strconv.Itoa(r.Weekly)}
	}
	p := views.AdminBackups{AdminPage: s.adminPage(c, "Backups", "backups"), Notice: notice, Status: st, Settings: settings}
	p.Stream = "/admin/live/backups"
	return p, nil
}

// adminBackups lists the archives with size and age, the running backup's
// progress and the last failure, and the retention settings.
func (s *Server) adminBackups(c echo.Context) error {
	p, err := s.backupsPage(c, views.FormState{}, views.Notice{Text: backupNotices[c.QueryParam("done")]})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, views.AdminBackupsPage(p))
}

// adminBackupNow starts a backup in the background; the page follows it live.
func (s *Server) adminBackupNow(c echo.Context) error {
	if err := s.deps.Admin.Backups.Start(backup.TriggerManual); err != nil {
		notice, status, ok := userError(err)
		if !ok {
			return err
		}
		p, perr := s.backupsPage(c, views.FormState{}, notice)
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, status, views.AdminBackupsPage(p))
	}
	return c.Redirect(http.StatusSeeOther, "/admin/backups?done=started")
}

func (s *Server) adminBackupSettings(c echo.Context) error {
	vals := formValues(c, "keep_daily", "keep_weekly")
	daily, err1 := strconv.Atoi(vals["keep_daily"])
	weekly, err2 := strconv.Atoi(vals["keep_weekly"])
	if err1 != nil {
		daily = -1
	}
	if err2 != nil {
		weekly = -1
	}
	err := s.deps.Admin.Backups.SaveSettings(c.Request().Context(), backup.Retention{Daily: daily, Weekly: weekly})
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/backups?done=saved")
	}
	fs, err := formFailure(err, vals)
	if err != nil {
		return err
	}
	p, err := s.backupsPage(c, fs, views.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, views.AdminBackupsPage(p))
}

// adminBackupDownload sends one archive; the name must be one listed.
func (s *Server) adminBackupDownload(c echo.Context) error {
	name := c.Param("name")
	path, err := s.deps.Admin.Backups.Path(name)
	if err != nil {
		return err
	}
	liftDeadlines(c) // archives can be large
	return c.Attachment(path, name)
}

func (s *Server) adminBackupDelete(c echo.Context) error {
	if err := s.deps.Admin.Backups.Delete(c.Param("name")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/backups?done=deleted")
}

// liveBackups re-renders the status and list on backup events.
func (s *Server) liveBackups(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindBackup), func(ctx context.Context) ([]templ.Component, error) {
		st, err := s.backupStatus(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{views.BackupStatusView(csrf, st)}, nil
	})
}
