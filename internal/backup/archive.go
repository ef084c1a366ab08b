// Package backup makes, checks, lists, prunes and restores Hearth's backup
// archives: one gzipped tar per backup holding a consistent snapshot of the
// database (store.Snapshot: VACUUM INTO, never a copy of a WAL file), the
// voice memos and local media it refers to, and a manifest with each file's
// size and SHA-256. An archive is written under a temporary name in the
// target directory, fsynced, re-read and checked (checksums, and
// PRAGMA integrity_check on the database it holds), and only then renamed to
// its final name, so a crash, a full disk or kill -9 leaves earlier backups
// and the live database as they were.
package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"hearth/internal/store"
)

// Archive entry names.
const (
	ManifestName = "manifest.json"
	DBName       = "hearth.db"
	// FormatVersion is the archive layout version written in the manifest.
	FormatVersion = 1
)

// Trigger says who asked for a backup.
const (
	TriggerManual   = "manual"   // Admin → Backups "Back up now"
	TriggerSchedule = "schedule" // the nightly system task
	TriggerCatchup  = "catchup"  // the nightly task, caught up after downtime
	TriggerCLI      = "cli"      // `hearth backup`
	TriggerUpgrade  = "upgrade"  // at start, before migrating the database to a newer schema
)

// auto reports whether retention may prune backups of this trigger: the
// scheduled ones; backups a person asked for stay until they delete them.
func auto(trigger string) bool { return trigger == TriggerSchedule || trigger == TriggerCatchup }

// nameRE matches archive names: hearth-<UTC time>-s<schema>[-auto].tar.gz.
var nameRE = regexp.MustCompile(`^hearth-(\d{8}T\d{6}Z)-s(\d{1,9})(-auto)?(?:-(\d{1,3}))?\.tar\.gz$`)

const nameTime = "20060102T150405Z"

// tempPrefix starts the names of work in progress in the target directory.
const tempPrefix = ".hearth-backup-"

// Archive is one backup file in the target directory.
type Archive struct {
	Name      string    `json:"name"`
	Path      string    `json:"-"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"created_at"`
	Schema    int64     `json:"schema"`
	// Auto: made by the schedule, so retention may remove it.
	Auto bool `json:"auto"`
}

// ParseName reads an archive name; ok is false for anything else (so a
// name from a URL is only ever used after it matched).
func ParseName(name string) (Archive, bool) {
	m := nameRE.FindStringSubmatch(name)
	if m == nil {
		return Archive{}, false
	}
	at, err := time.Parse(nameTime, m[1])
	if err != nil {
		return Archive{}, false
	}
	schema, _ := strconv.ParseInt(m[2], 10, 64)
	return Archive{Name: name, CreatedAt: at, Schema: schema, Auto: m[3] != ""}, true
}

// Manifest describes an archive's contents; it is the archive's last entry.
type Manifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"created_at"`
	Trigger   string    `json:"trigger"`
	Schema    int64     `json:"schema"`
	Files     []File    `json:"files"`
	// Missing are files the database refers to that were not on disk.
	Missing []string `json:"missing,omitempty"`
}

// File is one archived file: its path relative to the data directory.
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Progress is where a backup is: Phase "database" (the snapshot), "files"
// (writing the archive) or "verify", with bytes done of an estimated total.
type Progress struct {
	Phase string `json:"phase"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// Percent is the progress of the current phase, 0-100.
func (p Progress) Percent() int {
	if p.Total <= 0 {
		return 0
	}
	return int(min(100, p.Done*100/p.Total))
}

// CreateOptions say what to back up and where.
type CreateOptions struct {
	DBPath  string // the live database
	DataDir string // voice/ and media/ are read from here
	Dir     string // the target directory (created if missing)
	Trigger string
	Now     func() time.Time
	// Progress, when set, is called from the backup's goroutine.
	Progress func(Progress)
}

// ErrNoSpace marks a backup that failed because the target is full.
var ErrNoSpace = errors.New("the backup target is full")

// ErrTarget marks a target directory that cannot be written.
var ErrTarget = errors.New("the backup target cannot be written")

// targetErr explains a write failure in the target directory.
func targetErr(dir string, err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EFBIG), store.IsDiskFull(err):
		return fmt.Errorf("backup: %w (%s): %v; free some space there or choose another HEARTH_BACKUP_DIR; earlier backups are intact", ErrNoSpace, dir, err)
	case errors.Is(err, os.ErrPermission), errors.Is(err, syscall.EROFS), errors.Is(err, syscall.ENOTDIR), errors.Is(err, os.ErrExist):
		return fmt.Errorf("backup: %w (%s): %v; check that it is a writable directory (a mounted drive?); earlier backups are intact", ErrTarget, dir, err)
	}
	return fmt.Errorf("backup: %s: %w", dir, err)
}

// Create makes one verified archive in opt.Dir and returns it.
func Create(ctx context.Context, opt CreateOptions) (Archive, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(Progress) {}
	}
	if err := os.MkdirAll(opt.Dir, store.PrivateDir); err != nil {
		return Archive{}, targetErr(opt.Dir, err)
	}
	removeStale(opt.Dir, opt.Now())
	work, err := os.MkdirTemp(opt.Dir, tempPrefix+"*")
	if err != nil {
		return Archive{}, targetErr(opt.Dir, err)
	}
	defer os.RemoveAll(work)

	created := opt.Now().UTC().Truncate(time.Second)
	snap := filepath.Join(work, DBName)
	err = store.SnapshotFile(ctx, opt.DBPath, snap, func(done, total int64) {
		progress(Progress{Phase: "database", Done: done, Total: total})
	})
	if err != nil {
		if ctx.Err() == nil && isTargetErr(err) {
			return Archive{}, targetErr(opt.Dir, err)
		}
		return Archive{}, fmt.Errorf("backup: %w", err)
	}
	schema, err := store.FileSchema(ctx, snap)
	if err != nil {
		return Archive{}, fmt.Errorf("backup: %w", err)
	}
	files, missing, err := referencedFiles(ctx, snap, opt.DataDir)
	if err != nil {
		return Archive{}, err
	}
	m := Manifest{Format: FormatVersion, CreatedAt: created, Trigger: opt.Trigger, Schema: schema.Version, Missing: missing}
	partial := filepath.Join(work, "archive.tar.gz")
	if err := writeArchive(ctx, partial, snap, opt.DataDir, files, &m, progress); err != nil {
		if ctx.Err() == nil && isTargetErr(err) {
			return Archive{}, targetErr(opt.Dir, err)
		}
		return Archive{}, err
	}
	if _, err := Verify(ctx, partial, func(p Progress) { progress(p) }); err != nil {
		return Archive{}, fmt.Errorf("backup: the archive just written does not check out: %w", err)
	}
	name := archiveName(created, schema.Version, auto(opt.Trigger))
	final, err := freeName(opt.Dir, name)
	if err != nil {
		return Archive{}, err
	}
	if err := os.Rename(partial, final); err != nil {
		return Archive{}, targetErr(opt.Dir, err)
	}
	if err := syncDir(opt.Dir); err != nil {
		return Archive{}, targetErr(opt.Dir, err)
	}
	fi, err := os.Stat(final)
	if err != nil {
		return Archive{}, fmt.Errorf("backup: %w", err)
	}
	a, _ := ParseName(filepath.Base(final))
	a.Path, a.Size = final, fi.Size()
	return a, nil
}

func isTargetErr(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG, os.ErrPermission, syscall.EROFS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return store.IsDiskFull(err) || strings.Contains(err.Error(), "disk is full") || strings.Contains(err.Error(), "file too large")
}

func archiveName(at time.Time, schema int64, isAuto bool) string {
	suffix := ""
	if isAuto {
		suffix = "-auto"
	}
	return fmt.Sprintf("hearth-%s-s%d%s.tar.gz", at.UTC().Format(nameTime), schema, suffix)
}

// freeName returns dir/name, or dir/name with "-2", "-3"… before the
// extension when a backup of the same second exists.
func freeName(dir, name string) (string, error) {
	base := strings.TrimSuffix(name, ".tar.gz")
	for i := 1; i < 100; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s-%d.tar.gz", base, i)
		}
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("backup: too many backups named %s", name)
}

// removeStale deletes work directories that a backup killed mid-way left
// behind; a backup running right now (the CLI beside the server) is younger.
func removeStale(dir string, now time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > 6*time.Hour {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// videoExts are the files a local:<name> catalog item plays (web/kiosk_content.go).
var videoExts = []string{".mp4", ".webm", ".m4v", ".mov", ".ogv"}

var localItem = regexp.MustCompile(`^local:([A-Za-z0-9][A-Za-z0-9._-]{0,99})$`)

// referencedFiles lists, relative to dataDir, the voice memos and local
// media the snapshot refers to that exist, and those that do not.
func referencedFiles(ctx context.Context, snap, dataDir string) (files, missing []string, err error) {
	db, err := sql.Open("sqlite3", "file:"+snap+"?mode=ro")
	if err != nil {
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	add := func(rel string) {
		if !filepath.IsLocal(rel) {
			return
		}
		if fi, err := os.Stat(filepath.Join(dataDir, rel)); err == nil && fi.Mode().IsRegular() {
			files = append(files, filepath.ToSlash(rel))
		}
	}
	// A database from an older Hearth (backed up before an upgrade) may
	// predate either table.
	have := func(table string) bool {
		var n int
		_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&n)
		return n > 0
	}
	voiceQ, mediaQ := `SELECT path FROM voice_memos ORDER BY id`, `SELECT id FROM content_items WHERE id LIKE 'local:%' ORDER BY id`
	if !have("voice_memos") {
		voiceQ = `SELECT '' WHERE 0`
	}
	if !have("content_items") {
		mediaQ = `SELECT '' WHERE 0`
	}
	rows, err := db.QueryContext(ctx, voiceQ)
	if err != nil {
		return nil, nil, fmt.Errorf("backup: voice memos: %w", err)
	}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			_ = rows.Close()
			return nil, nil, fmt.Errorf("backup: voice memos: %w", err)
		}
		p = filepath.Clean(filepath.FromSlash(p))
		if !strings.HasPrefix(p, "voice"+string(filepath.Separator)) {
			continue
		}
		n := len(files)
		add(p)
		if len(files) == n {
			missing = append(missing, filepath.ToSlash(p))
		}
	}
	_ = rows.Close()
	rows, err = db.QueryContext(ctx, mediaQ)
	if err != nil {
		return nil, nil, fmt.Errorf("backup: catalog: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, nil, fmt.Errorf("backup: catalog: %w", err)
		}
		m := localItem.FindStringSubmatch(id)
		if m == nil {
			continue
		}
		for _, ext := range videoExts { // a catalog without a local file is fine: it may play from Plex
			add(filepath.Join("media", m[1]+ext))
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	return files, missing, rows.Err()
}

// writeArchive writes the snapshot, the files and the manifest (last, with
// every entry's checksum) to path and fsyncs it.
func writeArchive(ctx context.Context, path, snap, dataDir string, files []string, m *Manifest, progress func(Progress)) error {
	type entry struct{ name, src string }
	entries := []entry{{DBName, snap}}
	var total int64
	for _, f := range files {
		entries = append(entries, entry{f, filepath.Join(dataDir, filepath.FromSlash(f))})
	}
	for _, e := range entries {
		if fi, err := os.Stat(e.src); err == nil {
			total += fi.Size()
		}
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	bw := bufio.NewWriterSize(out, 256<<10)
	gz, _ := gzip.NewWriterLevel(bw, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	var done int64
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := addFile(tw, e.name, e.src, func(n int64) {
			done += n
			progress(Progress{Phase: "files", Done: done, Total: total})
		})
		if err != nil {
			if e.name != DBName && errors.Is(err, os.ErrNotExist) { // deleted since we listed it
				m.Missing = append(m.Missing, e.name)
				continue
			}
			return err
		}
		m.Files = append(m.Files, f)
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: ManifestName, Mode: 0o600, Size: int64(len(mb)), ModTime: m.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := tw.Write(mb); err != nil {
		return err
	}
	for _, c := range []io.Closer{tw, gz} {
		if err := c.Close(); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := out.Sync(); err != nil {
		return err
	}
	return out.Close()
}

// countWriter reports bytes as they pass.
type countWriter struct{ add func(int64) }

func (c countWriter) Write(p []byte) (int, error) { c.add(int64(len(p))); return len(p), nil }

func addFile(tw *tar.Writer, name, src string, add func(int64)) (File, error) {
	f, err := os.Open(src)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, err
	}
	hdr := &tar.Header{Name: name, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime().UTC(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return File{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tw, h, countWriter{add}), io.LimitReader(f, fi.Size()))
	if err != nil {
		return File{}, err
	}
	if n != fi.Size() {
		return File{}, fmt.Errorf("backup: %s changed size while being archived", name)
	}
	return File{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
