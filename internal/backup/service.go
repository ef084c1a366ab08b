package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Options configure the server's backup service.
type Options struct {
	DataDir   string
	Dir       string // target directory: HEARTH_BACKUP_DIR or $HEARTH_DATA/backups
	Location  *time.Location
	Logger    *slog.Logger
	Publisher live.Publisher
	Now       func() time.Time
}

// Service makes backups for the server (the nightly system task and
// Admin → Backups), one at a time, and records each in backup_runs.
type Service struct {
	db  *store.DB
	opt Options
	log *slog.Logger

	mu       sync.Mutex
	progress *Progress // non-nil while a backup runs
	wg       sync.WaitGroup
	base     context.Context // background backups run under it; Close cancels it
	stop     context.CancelFunc
}

// New returns the service over the live database.
func New(db *store.DB, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Location == nil {
		opt.Location = time.Local
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Publisher == nil {
		opt.Publisher = nopPublisher{}
	}
	base, stop := context.WithCancel(context.Background())
	return &Service{db: db, opt: opt, log: opt.Logger, base: base, stop: stop}
}

type nopPublisher struct{}

func (nopPublisher) Publish(string, live.Kind, any) {}

// Dir is the target directory.
func (s *Service) Dir() string { return s.opt.Dir }

// Event is the Data of a live.KindBackup event (admin pages and the
// kiosk's household view listen).
type Event struct {
	Running  bool     `json:"running"`
	Progress Progress `json:"progress"`
	Done     bool     `json:"done"`
	Failed   bool     `json:"failed"`
}

// ErrBusy is returned while another backup runs.
var ErrBusy = apperr.New(apperr.Conflict, "a backup is already running")

// Run makes one backup now and waits for it: records it, prunes scheduled
// backups by the retention settings (auto triggers only) and tells the
// admin pages and the kiosk. ErrBusy while another one runs.
func (s *Service) Run(ctx context.Context, trigger string) (Archive, error) {
	if !s.begin() {
		return Archive{}, ErrBusy
	}
	return s.run(ctx, trigger)
}

// Start begins a backup in the background (Admin → "Back up now"); it
// outlives the request and ends at Close.
func (s *Service) Start(trigger string) error {
	if !s.begin() {
		return ErrBusy
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_, _ = s.run(s.base, trigger)
	}()
	return nil
}

// Close cancels a background backup (its temporary files are removed,
// earlier backups untouched) and waits for it.
func (s *Service) Close() {
	s.stop()
	s.wg.Wait()
}

func (s *Service) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress != nil {
		return false
	}
	s.progress = &Progress{Phase: "starting"}
	return true
}

// Current is the running backup's progress; ok is false when none runs.
func (s *Service) Current() (Progress, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress == nil {
		return Progress{}, false
	}
	return *s.progress, true
}

func (s *Service) run(ctx context.Context, trigger string) (Archive, error) {
	started := s.opt.Now()
	var last time.Time
	a, err := Create(ctx, CreateOptions{DBPath: s.db.Path, DataDir: s.opt.DataDir, Dir: s.opt.Dir, Trigger: trigger,
		Now: s.opt.Now, Progress: func(p Progress) {
			s.mu.Lock()
			*s.progress = p
			s.mu.Unlock()
			if now := time.Now(); now.Sub(last) >= 200*time.Millisecond { // a few updates a second is plenty
				last = now
				s.opt.Publisher.Publish(live.TopicAdmin, live.KindBackup, Event{Running: true, Progress: p})
			}
		}})
	if err == nil && auto(trigger) {
		if r, serr := s.Settings(ctx); serr != nil {
			err = serr
		} else if removed, perr := Prune(s.opt.Dir, r, s.opt.Location); perr != nil {
			err = perr
		} else if len(removed) > 0 {
			s.log.Info("backup: retention removed old backups", "count", len(removed), "keep_daily", r.Daily, "keep_weekly", r.Weekly)
		}
	}
	rec := Run{Trigger: trigger, Status: "ok", StartedAt: started, Archive: a.Name, Bytes: a.Size}
	if err != nil {
		rec.Status, rec.Error = "failed", err.Error()
		if ctx.Err() != nil {
			rec.Status, rec.Error = "interrupted", "the server stopped during the backup"
		}
		s.log.Error("backup failed", "trigger", trigger, "err", err)
	} else {
		s.log.Info("backup made", "trigger", trigger, "archive", a.Path, "bytes", a.Size, "took", time.Since(started).Round(time.Millisecond))
	}
	if rerr := s.record(context.WithoutCancel(ctx), rec); rerr != nil {
		s.log.Error("backup: record run", "err", rerr)
	}
	s.mu.Lock()
	s.progress = nil
	s.mu.Unlock()
	ev := Event{Done: true, Failed: err != nil}
	s.opt.Publisher.Publish(live.TopicAdmin, live.KindBackup, ev)
	s.opt.Publisher.Publish(live.TopicHousehold, live.KindBackup, ev) // the kiosk's admin badge
	return a, err
}

// Run is one backup the server made.
type Run struct {
	ID         int64     `json:"id"`
	Trigger    string    `json:"trigger"`
	Status     string    `json:"status"` // ok, failed, interrupted
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	Archive    string    `json:"archive,omitempty"`
	Bytes      int64     `json:"bytes"`
	Error      string    `json:"error,omitempty"`
}

func (s *Service) record(ctx context.Context, r Run) error {
	tr := r.Trigger
	if tr != TriggerSchedule && tr != TriggerCatchup {
		tr = TriggerManual
	}
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO backup_runs (trigger, status, started_at, finished_at, archive, bytes, error)
		VALUES (?,?,?,?,?,?,?)`, tr, r.Status, store.FormatTime(r.StartedAt), store.FormatTime(s.opt.Now()), r.Archive, r.Bytes, clip(r.Error, 1000))
	return err
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Runs returns the newest backup runs, newest first.
func (s *Service) Runs(ctx context.Context, limit int) ([]Run, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT id, trigger, status, started_at, COALESCE(finished_at, started_at),
		archive, bytes, error FROM backup_runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("backup: runs: %w", err)
	}
	defer rows.Close()
	out := []Run{}
	for rows.Next() {
		var r Run
		var st, fin string
		if err := rows.Scan(&r.ID, &r.Trigger, &r.Status, &st, &fin, &r.Archive, &r.Bytes, &r.Error); err != nil {
			return nil, fmt.Errorf("backup: runs: %w", err)
		}
		if r.StartedAt, err = store.ParseTime(st); err != nil {
			return nil, err
		}
		if r.FinishedAt, err = store.ParseTime(fin); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Failure is the newest run when it did not succeed (nil otherwise): what
// the admin and the kiosk's badge report until a backup succeeds again.
func (s *Service) Failure(ctx context.Context) (*Run, error) {
	runs, err := s.Runs(ctx, 1)
	if err != nil || len(runs) == 0 || runs[0].Status == "ok" {
		return nil, err
	}
	return &runs[0], nil
}

// Alert is the kiosk's admin badge text: set while the newest backup failed.
func (s *Service) Alert(ctx context.Context) (string, error) {
	f, err := s.Failure(ctx)
	if err != nil || f == nil {
		return "", err
	}
	return "Backup failed", nil
}

// Settings returns the retention settings (DefaultRetention until saved).
func (s *Service) Settings(ctx context.Context) (Retention, error) {
	r := DefaultRetention
	err := s.db.Read.QueryRowContext(ctx, `SELECT keep_daily, keep_weekly FROM backup_settings WHERE id = 1`).Scan(&r.Daily, &r.Weekly)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultRetention, nil
	}
	if err != nil {
		return r, fmt.Errorf("backup: settings: %w", err)
	}
	return r, nil
}

// SaveSettings stores the retention settings (apperr.Invalid naming the field).
func (s *Service) SaveSettings(ctx context.Context, r Retention) error {
	errs := map[string]string{}
	if r.Daily < 1 || r.Daily > 366 {
		errs["keep_daily"] = "must be a whole number from 1 to 366"
	}
	if r.Weekly < 0 || r.Weekly > 520 {
		errs["keep_weekly"] = "must be a whole number from 0 to 520"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO backup_settings (id, keep_daily, keep_weekly, updated_at) VALUES (1,?,?,?)
		ON CONFLICT (id) DO UPDATE SET keep_daily = excluded.keep_daily, keep_weekly = excluded.keep_weekly,
		updated_at = excluded.updated_at`, r.Daily, r.Weekly, store.FormatTime(s.opt.Now()))
	if err != nil {
		return fmt.Errorf("backup: save settings: %w", err)
	}
	return nil
}

// List returns the archives in the target directory, newest first.
func (s *Service) List() ([]Archive, error) { return List(s.opt.Dir) }

// Path returns the file of a listed archive; apperr.NotFound for any name
// that is not one (so a name from a URL never reaches the file system).
func (s *Service) Path(name string) (string, error) {
	if _, ok := ParseName(name); !ok {
		return "", apperr.NotFoundf("no backup %q", name)
	}
	all, err := s.List()
	if err != nil {
		return "", err
	}
	for _, a := range all {
		if a.Name == name {
			return a.Path, nil
		}
	}
	return "", apperr.NotFoundf("no backup %q", name)
}

// Delete removes one archive.
func (s *Service) Delete(name string) error {
	p, err := s.Path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("backup: delete %s: %w", name, err)
	}
	s.opt.Publisher.Publish(live.TopicAdmin, live.KindBackup, Event{Done: true})
	return nil
}
