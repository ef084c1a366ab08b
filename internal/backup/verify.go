package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hearth/internal/store"
)

// ErrBadArchive marks an archive that is damaged, incomplete, not a Hearth
// backup, or has an entry that would land outside the data directory.
var ErrBadArchive = errors.New("not a usable Hearth backup")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadArchive, fmt.Sprintf(format, args...))
}

// maxManifest caps the manifest entry (it lists one line per file).
const maxManifest = 16 << 20

// checkEntry refuses an entry that is not a plain file with a clean
// relative name inside the parts of the data directory a backup holds.
func checkEntry(h *tar.Header) error {
	n := h.Name
	if !filepath.IsLocal(filepath.FromSlash(n)) || path.Clean(n) != n || strings.Contains(n, `\`) {
		return bad("entry %q would leave the data directory", n)
	}
	if h.Typeflag != tar.TypeReg {
		return bad("entry %q is not a plain file (links and devices are refused)", n)
	}
	if n == ManifestName || n == DBName || strings.HasPrefix(n, "voice/") || strings.HasPrefix(n, "media/") {
		return nil
	}
	return bad("entry %q is not part of a Hearth backup", n)
}

// readArchive reads every entry of the archive, checking names, sizes and
// checksums against the manifest. The files keep accepts are written under
// dir; the manifest is returned.
func readArchive(ctx context.Context, archive, dir string, keep func(name string) bool, progress func(Progress)) (Manifest, error) {
	var m Manifest
	f, err := os.Open(archive)
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	counted := &countingReader{r: bufio.NewReaderSize(f, 256<<10)}
	gz, err := gzip.NewReader(counted)
	if err != nil {
		return m, bad("%s is not a gzip archive (%v)", filepath.Base(archive), err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	got := map[string]File{}
	var haveManifest bool
	for {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, bad("the archive is damaged or cut short (%v)", err)
		}
		if err := checkEntry(h); err != nil {
			return m, err
		}
		if _, dup := got[h.Name]; dup || (h.Name == ManifestName && haveManifest) {
			return m, bad("entry %q appears twice", h.Name)
		}
		if h.Name == ManifestName {
			b, err := io.ReadAll(io.LimitReader(tr, maxManifest+1))
			if err != nil {
				return m, bad("the archive is damaged or cut short (%v)", err)
			}
			if len(b) > maxManifest {
				return m, bad("the manifest is too large")
			}
			if err := json.Unmarshal(b, &m); err != nil {
				return m, bad("the manifest is not valid JSON (%v)", err)
			}
			haveManifest = true
			continue
		}
		var w io.Writer = io.Discard
		var out *os.File
		if keep(h.Name) {
			dst := filepath.Join(dir, filepath.FromSlash(h.Name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
				return m, fmt.Errorf("backup: %w", err)
			}
			if out, err = os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
				return m, fmt.Errorf("backup: %w", err)
			}
			w = bufio.NewWriterSize(out, 256<<10)
		}
		hash := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, hash), tr)
		if out != nil {
			if bw, ok := w.(*bufio.Writer); ok && err == nil {
				err = bw.Flush()
			}
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "gzip") || strings.Contains(err.Error(), "flate") {
				return m, bad("the archive is damaged or cut short (%v)", err)
			}
			return m, fmt.Errorf("backup: extract %s: %w", h.Name, err)
		}
		got[h.Name] = File{Name: h.Name, Size: n, SHA256: hex.EncodeToString(hash.Sum(nil))}
		progress(Progress{Phase: "verify", Done: counted.n, Total: fi.Size()})
	}
	if !haveManifest {
		return m, bad("it has no %s (cut short, or not made by Hearth)", ManifestName)
	}
	if m.Format < 1 || m.Format > FormatVersion {
		return m, bad("archive format %d is not one this Hearth reads (it reads up to %d)", m.Format, FormatVersion)
	}
	listed := map[string]bool{}
	for _, want := range m.Files {
		listed[want.Name] = true
		have, ok := got[want.Name]
		switch {
		case !ok:
			return m, bad("%s is missing from the archive", want.Name)
		case have.Size != want.Size || have.SHA256 != want.SHA256:
			return m, bad("%s does not match its checksum: the archive is damaged", want.Name)
		}
	}
	for name := range got {
		if !listed[name] {
			return m, bad("%s is not in the manifest", name)
		}
	}
	if !listed[DBName] {
		return m, bad("it holds no database")
	}
	return m, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Verify reads the whole archive, checks every entry against the manifest
// and runs SQLite's integrity check on the database it holds.
func Verify(ctx context.Context, archive string, progress func(Progress)) (Manifest, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(archive), tempPrefix+"verify-*")
	if err != nil {
		tmp, err = os.MkdirTemp("", "hearth-verify-*")
		if err != nil {
			return Manifest{}, fmt.Errorf("backup: %w", err)
		}
	}
	defer os.RemoveAll(tmp)
	m, err := readArchiveDBOnly(ctx, archive, tmp, progress)
	if err != nil {
		return m, err
	}
	if err := store.CheckIntegrity(ctx, filepath.Join(tmp, DBName)); err != nil {
		return m, bad("its database fails the integrity check (%v)", err)
	}
	return m, nil
}

// checkObjects refuses a database whose schema holds objects (tables,
// indexes, triggers, views) that Hearth's migrations do not create for its
// schema version, or define otherwise, naming each: a trigger planted in
// an archive would fire on the restored server's next write. Restore runs
// it on an archive from outside; backups are not checked (the live
// database already runs whatever it holds), nor is the pre-upgrade backup
// an upgrade puts back (RestoreDatabase: made by this process moments
// before, from the database that was running).
func checkObjects(ctx context.Context, db string) error {
	err := store.CheckSchemaObjects(ctx, db)
	if errors.Is(err, store.ErrForeignSchema) {
		return fmt.Errorf("%w: %w", ErrBadArchive, err)
	}
	return err
}

// readArchiveDBOnly is readArchive keeping only the database on disk.
func readArchiveDBOnly(ctx context.Context, archive, dir string, progress func(Progress)) (Manifest, error) {
	return readArchive(ctx, archive, dir, func(name string) bool { return name == DBName }, progress)
}

func hashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
