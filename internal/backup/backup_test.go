package backup_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/backup"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/internal/testkit"
)

// household is a live data directory: a database with a member, a voice
// memo and a local video on disk.
type household struct {
	dir string
	db  *store.DB
}

func newHousehold(t *testing.T) household {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(dir, "voice", "ada"), 0o700))
	must(t, os.WriteFile(filepath.Join(dir, "voice", "ada", "m1.webm"), []byte("\x1a\x45\xdf\xa3 voice bytes"), 0o600))
	ds := dashboard.NewStore(db, nil, time.UTC)
	if _, err := ds.AddVoiceMemo(ctx, dashboard.VoiceMemo{MemberID: "ada", Path: "voice/ada/m1.webm", MIME: "audio/webm", Size: 17, Status: "stored"}); err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(dir, "media"), 0o750))
	must(t, os.WriteFile(filepath.Join(dir, "media", "core-1.mp4"), []byte("not really a video"), 0o600))
	now := store.FormatTime(time.Now())
	if _, err := db.Write.Exec(`INSERT INTO content_items (id, title, duration_min, kind, created_at, updated_at)
		VALUES ('local:core-1', 'Core 1', 20, 'workout', ?, ?), ('local:gone', 'Gone', 20, 'workout', ?, ?)`, now, now, now, now); err != nil {
		t.Fatal(err)
	}
	return household{dir: dir, db: db}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (h household) create(t *testing.T, target, trigger string, now time.Time) backup.Archive {
	t.Helper()
	a, err := backup.Create(context.Background(), backup.CreateOptions{DBPath: h.db.Path, DataDir: h.dir, Dir: target,
		Trigger: trigger, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A backup taken while eight clients write restores to a database holding
// every row acknowledged before it started, with a clean integrity check,
// and the voice memo and the video it refers to.
func TestBackupDuringWritesRestoresEveryCommittedRow(t *testing.T) {
	ctx := context.Background()
	h := newHousehold(t)
	var (
		mu    sync.Mutex
		acked = map[int64]bool{}
		stop  atomic.Bool
		seq   atomic.Int64
		wg    sync.WaitGroup
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				n := seq.Add(1)
				r, err := h.db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Unix(1_700_000_000+n, 0), WeightKg: 70 + float64(n%100)/10})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked[r.ID] = true
				mu.Unlock()
			}
		}()
	}
	// Writers are committing before the backup starts: wait on acks, not time.
	testkit.WaitFor(t, testkit.Patience, "acknowledged writes before the backup", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) >= 20
	})
	mu.Lock()
	before := make([]int64, 0, len(acked))
	for id := range acked {
		before = append(before, id)
	}
	mu.Unlock()
	target := filepath.Join(t.TempDir(), "backups")
	var phases sync.Map
	a, err := backup.Create(ctx, backup.CreateOptions{DBPath: h.db.Path, DataDir: h.dir, Dir: target, Trigger: backup.TriggerManual,
		Progress: func(p backup.Progress) { phases.Store(p.Phase, true) }})
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 {
		t.Fatal("no write was acknowledged before the backup")
	}
	for _, ph := range []string{"database", "files", "verify"} {
		if _, ok := phases.Load(ph); !ok {
			t.Errorf("no progress reported for phase %s", ph)
		}
	}
	if !strings.HasPrefix(a.Name, "hearth-") || !strings.Contains(a.Name, fmt.Sprintf("-s%d", store.LatestVersion())) || a.Auto {
		t.Fatalf("archive name %q", a.Name)
	}
	m, err := backup.Verify(ctx, a.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Missing) != 0 {
		t.Errorf("missing files: %v", m.Missing)
	}

	// Restore onto a new machine: an empty data directory.
	fresh := t.TempDir()
	res, err := backup.Restore(ctx, a.Path, backup.RestoreOptions{DBPath: filepath.Join(fresh, "hearth.db"), DataDir: fresh})
	if err != nil {
		t.Fatal(err)
	}
	if res.ReplacedDB != "" || res.Files != 3 {
		t.Fatalf("restore result %+v", res)
	}
	if err := store.CheckIntegrity(ctx, filepath.Join(fresh, "hearth.db")); err != nil {
		t.Fatal(err)
	}
	rdb, err := store.Open(ctx, filepath.Join(fresh, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	have := map[int64]bool{}
	rows, err := rdb.Read.Query(`SELECT id FROM weight_readings`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		must(t, rows.Scan(&id))
		have[id] = true
	}
	_ = rows.Close()
	for _, id := range before {
		if !have[id] {
			t.Fatalf("reading %d was acknowledged before the backup but is not in the restore (%d of %d present)", id, len(have), len(before))
		}
	}
	for _, f := range []string{"voice/ada/m1.webm", "media/core-1.mp4"} {
		want, _ := os.ReadFile(filepath.Join(h.dir, f))
		got, err := os.ReadFile(filepath.Join(fresh, f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s restored as %q, %v", f, got, err)
		}
	}
}

// Restoring over an existing database keeps the replaced one beside it.
func TestRestoreKeepsReplacedDatabase(t *testing.T) {
	ctx := context.Background()
	h := newHousehold(t)
	a := h.create(t, filepath.Join(t.TempDir(), "b"), backup.TriggerCLI, time.Now())
	// The "current" data: another household in another directory.
	cur := newHousehold(t)
	if _, err := cur.db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: time.Now(), WeightKg: 99.9}); err != nil {
		t.Fatal(err)
	}
	must(t, cur.db.Close())
	// A database left readable by others (an older Hearth, a copy made by
	// hand): the copy set aside must not stay so.
	must(t, os.Chmod(cur.db.Path, 0o644))
	res, err := backup.Restore(ctx, a.Path, backup.RestoreOptions{DBPath: cur.db.Path, DataDir: cur.dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.ReplacedDB == "" || filepath.Dir(res.ReplacedDB) != cur.dir || res.ReplacedVoice == "" {
		t.Fatalf("replaced: %+v", res)
	}
	for _, p := range []string{cur.db.Path, res.ReplacedDB, a.Path} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", filepath.Base(p), fi.Mode().Perm(), err)
		}
	}
	old, err := sql.Open("sqlite3", "file:"+res.ReplacedDB+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	var n int
	if err := old.QueryRow(`SELECT count(*) FROM weight_readings WHERE weight_kg = 99.9`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the replaced database lost its last write: %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(res.ReplacedVoice, "ada", "m1.webm")); err != nil {
		t.Fatal(err)
	}
}

// restoreRefused checks that Restore fails with want and leaves the current
// database exactly as it was; it returns the error.
func restoreRefused(t *testing.T, archive string, want error) error {
	t.Helper()
	cur := newHousehold(t)
	must(t, cur.db.Close())
	before, _ := os.ReadFile(cur.db.Path)
	_, err := backup.Restore(context.Background(), archive, backup.RestoreOptions{DBPath: cur.db.Path, DataDir: cur.dir})
	if !errors.Is(err, want) {
		t.Fatalf("restore: %v, want %v", err, want)
	}
	after, _ := os.ReadFile(cur.db.Path)
	if !bytes.Equal(before, after) {
		t.Fatal("a refused restore changed the database")
	}
	entries, _ := os.ReadDir(cur.dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "replaced") || strings.HasPrefix(e.Name(), ".hearth-restore") {
			t.Errorf("a refused restore left %s", e.Name())
		}
	}
	return err
}

func TestRestoreRefusesCorruptArchive(t *testing.T) {
	h := newHousehold(t)
	a := h.create(t, filepath.Join(t.TempDir(), "b"), backup.TriggerCLI, time.Now())
	good, _ := os.ReadFile(a.Path)
	dir := t.TempDir()
	cases := map[string][]byte{
		"truncated": good[:len(good)/2],
		"not gzip":  []byte("hello, this is not an archive"),
		"empty":     {},
	}
	// A flipped byte inside the database entry: the gzip stream may still
	// decode (its CRC is checked at the end) but the checksum cannot match.
	flipped := repack(t, a.Path, func(name string, b []byte) []byte {
		if name == backup.DBName {
			b = bytes.Clone(b)
			b[len(b)/2] ^= 0xff
		}
		return b
	})
	cases["damaged database"] = flipped
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".tar.gz")
			must(t, os.WriteFile(p, b, 0o600))
			if _, err := backup.Verify(context.Background(), p, nil); !errors.Is(err, backup.ErrBadArchive) {
				t.Fatalf("verify: %v", err)
			}
			restoreRefused(t, p, backup.ErrBadArchive)
		})
	}
}

// repack rewrites an archive entry by entry through edit.
func repack(t *testing.T, path string, edit func(name string, b []byte) []byte) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	gw := gzip.NewWriter(&out)
	tw := tar.NewWriter(gw)
	for {
		hdr, err := tr.Next()
		if err != nil {
			break
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(tr)
		data := edit(hdr.Name, b.Bytes())
		hdr.Size = int64(len(data))
		must(t, tw.WriteHeader(hdr))
		_, _ = tw.Write(data)
	}
	must(t, tw.Close())
	must(t, gw.Close())
	return out.Bytes()
}

// An archive entry that would land outside the data directory, or is a
// link, is refused before anything is written.
func TestRestoreRefusesEntriesOutsideTheDataDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, hdr := range map[string]tar.Header{
		"parent":   {Name: "../escaped.txt", Typeflag: tar.TypeReg, Mode: 0o600},
		"absolute": {Name: "/tmp/escaped.txt", Typeflag: tar.TypeReg, Mode: 0o600},
		"nested":   {Name: "voice/../../escaped.txt", Typeflag: tar.TypeReg, Mode: 0o600},
		"symlink":  {Name: "voice/link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		"other":    {Name: "notes.txt", Typeflag: tar.TypeReg, Mode: 0o600},
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			gw := gzip.NewWriter(&buf)
			tw := tar.NewWriter(gw)
			body := []byte("x")
			if hdr.Typeflag == tar.TypeReg {
				hdr.Size = int64(len(body))
			}
			must(t, tw.WriteHeader(&hdr))
			if hdr.Typeflag == tar.TypeReg {
				_, _ = tw.Write(body)
			}
			must(t, tw.Close())
			must(t, gw.Close())
			p := filepath.Join(dir, name+".tar.gz")
			must(t, os.WriteFile(p, buf.Bytes(), 0o600))
			restoreRefused(t, p, backup.ErrBadArchive)
			if _, err := os.Stat(filepath.Join(dir, "escaped.txt")); err == nil {
				t.Fatal("a file escaped")
			}
		})
	}
}

// An archive of a database a newer Hearth migrated is refused.
func TestRestoreRefusesNewerSchema(t *testing.T) {
	h := newHousehold(t)
	if _, err := h.db.Write.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)`, store.LatestVersion()+500); err != nil {
		t.Fatal(err)
	}
	a := h.create(t, filepath.Join(t.TempDir(), "b"), backup.TriggerCLI, time.Now())
	restoreRefused(t, a.Path, store.ErrNewerSchema)
}

// An archive from an older Hearth (without the newest migration) is
// migrated as it is restored.
func TestRestoreMigratesOlderSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "hearth.db")
	last := storetest.OlderSchema(t, path)
	a, err := backup.Create(ctx, backup.CreateOptions{DBPath: path, DataDir: dir, Dir: filepath.Join(dir, "backups"), Trigger: backup.TriggerCLI})
	must(t, err)
	if a.Schema >= last {
		t.Fatalf("archive schema %d, want older than %d", a.Schema, last)
	}
	fresh := t.TempDir()
	res, err := backup.Restore(ctx, a.Path, backup.RestoreOptions{DBPath: filepath.Join(fresh, "hearth.db"), DataDir: fresh})
	must(t, err)
	if len(res.Migrated) != 1 || res.Migrated[0] != last {
		t.Fatalf("migrated %v, want [%d]", res.Migrated, last)
	}
	s, err := store.FileSchema(ctx, filepath.Join(fresh, "hearth.db"))
	if err != nil || len(s.Pending) != 0 {
		t.Fatalf("restored schema %+v, %v", s, err)
	}
}

func TestRestoreRefusesWhileHearthRuns(t *testing.T) {
	h := newHousehold(t)
	a := h.create(t, filepath.Join(t.TempDir(), "b"), backup.TriggerCLI, time.Now())
	release, err := store.LockFile(h.db.Path) // what the server holds
	must(t, err)
	defer release()
	_, err = backup.Restore(context.Background(), a.Path, backup.RestoreOptions{DBPath: h.db.Path, DataDir: h.dir})
	if !errors.Is(err, store.ErrInUse) {
		t.Fatalf("restore while running: %v", err)
	}
}

// A target that is not a writable directory is a clear error, and the
// backups already made elsewhere stay.
func TestUnwritableTargetIsAClearError(t *testing.T) {
	h := newHousehold(t)
	good := filepath.Join(t.TempDir(), "b")
	first := h.create(t, good, backup.TriggerCLI, time.Now())
	notDir := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(notDir, []byte("x"), 0o600))
	_, err := backup.Create(context.Background(), backup.CreateOptions{DBPath: h.db.Path, DataDir: h.dir, Dir: filepath.Join(notDir, "backups")})
	if !errors.Is(err, backup.ErrTarget) || !strings.Contains(err.Error(), "earlier backups are intact") {
		t.Fatalf("unwritable target: %v", err)
	}
	if _, err := backup.Verify(context.Background(), first.Path, nil); err != nil {
		t.Fatal(err)
	}
}

// Retention keeps the newest scheduled backup of each of the last N days and
// of each of the last M weeks; backups someone asked for are never pruned.
func TestRetentionKeepsTheConfiguredCopies(t *testing.T) {
	dir := t.TempDir()
	loc, _ := time.LoadLocation("Europe/Berlin")
	start := time.Date(2026, 1, 1, 3, 30, 0, 0, loc) // a Thursday
	var names []string
	for d := range 40 {
		at := start.AddDate(0, 0, d).UTC()
		for _, n := range []string{
			fmt.Sprintf("hearth-%s-s70-auto.tar.gz", at.Format("20060102T150405Z")),
			fmt.Sprintf("hearth-%s-s70-auto.tar.gz", at.Add(time.Hour).Format("20060102T150405Z")), // a second one that day
		} {
			must(t, os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600))
			names = append(names, n)
		}
	}
	manual := fmt.Sprintf("hearth-%s-s70.tar.gz", start.UTC().Format("20060102T150405Z"))
	must(t, os.WriteFile(filepath.Join(dir, manual), []byte("x"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "unrelated.txt"), []byte("x"), 0o600))
	removed, err := backup.Prune(dir, backup.Retention{Daily: 7, Weekly: 4}, loc)
	if err != nil {
		t.Fatal(err)
	}
	left, err := backup.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var auto []backup.Archive
	hasManual := false
	for _, a := range left {
		if a.Auto {
			auto = append(auto, a)
		} else if a.Name == manual {
			hasManual = true
		}
	}
	if !hasManual {
		t.Error("a manual backup was pruned")
	}
	if _, err := os.Stat(filepath.Join(dir, "unrelated.txt")); err != nil {
		t.Error("an unrelated file was removed")
	}
	// 7 daily (the last 7 days, newest of each) plus the newest of the 3
	// weeks before those that are not already covered.
	days := map[string]bool{}
	for _, a := range auto {
		days[a.CreatedAt.In(loc).Format(time.DateOnly)] = true
	}
	if len(auto) != len(days) {
		t.Errorf("two backups kept for one day: %v", auto)
	}
	newest := start.AddDate(0, 0, 39)
	for d := range 7 {
		day := newest.AddDate(0, 0, -d).Format(time.DateOnly)
		if !days[day] {
			t.Errorf("daily copy of %s was pruned", day)
		}
	}
	weeks := map[string]bool{}
	for _, a := range auto {
		y, w := a.CreatedAt.In(loc).ISOWeek()
		weeks[fmt.Sprint(y, w)] = true
	}
	if len(weeks) != 4 {
		t.Errorf("kept copies span %d ISO weeks, want 4: %v", len(weeks), auto)
	}
	if len(auto) < 7 || len(auto) > 10 {
		t.Errorf("kept %d auto copies, want 7 daily + up to 3 older weeklies", len(auto))
	}
	if len(removed)+len(auto) != len(names) {
		t.Errorf("removed %d + kept %d != %d made", len(removed), len(auto), len(names))
	}
}

// The server's service prunes scheduled backups by the saved settings after
// each nightly run, keeps manual ones, and records every run.
func TestServiceRetentionFollowsSettings(t *testing.T) {
	ctx := context.Background()
	h := newHousehold(t)
	day := time.Date(2026, 3, 2, 3, 30, 0, 0, time.UTC)
	svc := backup.New(h.db, backup.Options{DataDir: h.dir, Dir: filepath.Join(t.TempDir(), "b"), Location: time.UTC,
		Now: func() time.Time { return day }})
	if err := svc.SaveSettings(ctx, backup.Retention{Daily: 0, Weekly: 1}); err == nil {
		t.Fatal("keep_daily 0 was accepted")
	}
	if err := svc.SaveSettings(ctx, backup.Retention{Daily: 2, Weekly: 0}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Run(ctx, backup.TriggerManual); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		day = day.AddDate(0, 0, 1)
		if _, err := svc.Run(ctx, backup.TriggerSchedule); err != nil {
			t.Fatal(err)
		}
	}
	list, err := svc.List()
	if err != nil {
		t.Fatal(err)
	}
	var auto, manual int
	for _, a := range list {
		if a.Auto {
			auto++
		} else {
			manual++
		}
	}
	if auto != 2 || manual != 1 {
		t.Fatalf("kept %d nightly and %d manual backups, want 2 and 1: %v", auto, manual, list)
	}
	if !list[0].CreatedAt.Equal(day) {
		t.Fatalf("newest kept is %v, want %v", list[0].CreatedAt, day)
	}
	runs, err := svc.Runs(ctx, 10)
	if err != nil || len(runs) != 5 || runs[0].Status != "ok" {
		t.Fatalf("runs: %+v, %v", runs, err)
	}
	if f, err := svc.Failure(ctx); f != nil || err != nil {
		t.Fatalf("failure after good runs: %+v, %v", f, err)
	}
}

// tamper returns archive with its database changed by stmts (run through a
// plain SQLite connection, as someone editing the file would) and its
// manifest's checksum to match, as a crafted archive would have.
func tamper(t *testing.T, archive string, stmts string) []byte {
	t.Helper()
	var db []byte
	repack(t, archive, func(name string, b []byte) []byte {
		if name == backup.DBName {
			db = bytes.Clone(b)
		}
		return b
	})
	path := filepath.Join(t.TempDir(), "edit.db")
	must(t, os.WriteFile(path, db, 0o600))
	raw, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=DELETE")
	must(t, err)
	if _, err := raw.Exec(stmts); err != nil {
		t.Fatalf("%s: %v", stmts, err)
	}
	must(t, raw.Close())
	edited, err := os.ReadFile(path)
	must(t, err)
	sum := sha256.Sum256(edited)
	return repack(t, archive, func(name string, b []byte) []byte {
		switch name {
		case backup.DBName:
			return edited
		case backup.ManifestName:
			var m backup.Manifest
			must(t, json.Unmarshal(b, &m))
			for i, f := range m.Files {
				if f.Name == backup.DBName {
					m.Files[i].Size, m.Files[i].SHA256 = int64(len(edited)), hex.EncodeToString(sum[:])
				}
			}
			out, err := json.Marshal(m)
			must(t, err)
			return out
		}
		return b
	})
}

// An archive whose schema holds anything Hearth's migrations do not create
// (a trigger that would fire on the next weigh-in, a view, an index, a
// changed table) is refused by restore, naming the object, and nothing of
// it runs; the untouched archive restores.
func TestRestoreRefusesForeignSchemaObjects(t *testing.T) {
	ctx := context.Background()
	h := newHousehold(t)
	a := h.create(t, filepath.Join(t.TempDir(), "b"), backup.TriggerCLI, time.Now())
	dir := t.TempDir()
	for name, c := range map[string]struct{ sql, want string }{
		"trigger": {`CREATE TRIGGER keep_a_copy AFTER INSERT ON weight_readings BEGIN
			INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES (new.member_id, new.measured_at, 'planted', 1, new.created_at); END`,
			"trigger keep_a_copy (on weight_readings) is not part of Hearth's schema"},
		"view":          {`CREATE VIEW all_members AS SELECT * FROM members`, "view all_members is not part of Hearth's schema"},
		"index":         {`CREATE INDEX meals_name ON meals(name)`, "index meals_name (on meals) is not part of Hearth's schema"},
		"altered table": {`ALTER TABLE members ADD COLUMN secret TEXT`, "table members differs from Hearth's definition"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".tar.gz")
			must(t, os.WriteFile(p, tamper(t, a.Path, c.sql), 0o600))
			err := restoreRefused(t, p, store.ErrForeignSchema)
			if !errors.Is(err, backup.ErrBadArchive) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("restore: %v, want %q", err, c.want)
			}
		})
	}
	fresh := t.TempDir()
	if _, err := backup.Restore(ctx, a.Path, backup.RestoreOptions{DBPath: filepath.Join(fresh, "hearth.db"), DataDir: fresh}); err != nil {
		t.Fatalf("the genuine archive: %v", err)
	}
}
