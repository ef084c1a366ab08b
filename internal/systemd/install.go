package systemd

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
)

// ErrUnknownUser is System.LookupUser's answer for a user that does not exist.
var ErrUnknownUser = errors.New("no such user")

// System is what Install changes beyond files: the user database and
// systemd. OS is the real one.
type System interface {
	LookupUser(name string) (uid, gid int, err error)
	Run(ctx context.Context, name string, args ...string) error
}

// InstallOptions say what to install and where.
type InstallOptions struct {
	Options
	// UnitPath is where the unit goes (DefaultUnitPath).
	UnitPath string
	// Root prefixes every path written ("" = the real file system); for
	// tests and for preparing an image.
	Root string
	// NoStart enables the service without (re)starting it now.
	NoStart bool
	// Out receives one line per step.
	Out io.Writer
}

// Installed says what Install did.
type Installed struct {
	UnitPath    string
	UnitChanged bool
	CreatedUser bool
	EnvFile     string
	// Password is the admin password Install generated into EnvFile; ""
	// when EnvFile existed (it is never changed).
	Password string
	Started  bool
}

// Install sets the service up: the system user, the data and backup
// directories (owned by it, 0750), the secrets file (created once, 0600,
// with a generated admin password: the admin pages are reachable from the
// household network only with one), the unit, and then enables and
// (re)starts it. Running it again after an upgrade rewrites the unit and
// restarts the service; the secrets file is left alone.
func Install(ctx context.Context, opt InstallOptions, sys System) (Installed, error) {
	o := opt.Options.withDefaults()
	if opt.UnitPath == "" {
		opt.UnitPath = DefaultUnitPath
	}
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	say := func(format string, a ...any) { fmt.Fprintf(opt.Out, format+"\n", a...) }
	at := func(p string) string { return filepath.Join(opt.Root, p) }
	res := Installed{UnitPath: opt.UnitPath, EnvFile: o.EnvFile}

	unit, err := Unit(o)
	if err != nil {
		return res, err
	}
	if !filepath.IsAbs(opt.UnitPath) || filepath.Ext(opt.UnitPath) != ".service" {
		return res, fmt.Errorf("systemd: unit path %q: want an absolute path ending in .service", opt.UnitPath)
	}
	uid, gid, err := sys.LookupUser(o.User)
	if errors.Is(err, ErrUnknownUser) {
		say("creating the system user %s", o.User)
		if err := sys.Run(ctx, "useradd", "--system", "--user-group", "--home-dir", o.DataDir, "--no-create-home",
			"--shell", "/usr/sbin/nologin", "--comment", "Hearth household dashboard", o.User); err != nil {
			return res, fmt.Errorf("systemd: create user %s: %w", o.User, err)
		}
		res.CreatedUser = true
		uid, gid, err = sys.LookupUser(o.User)
	}
	if err != nil {
		return res, fmt.Errorf("systemd: user %s: %w", o.User, err)
	}
	for _, d := range []string{o.DataDir, o.BackupDir} {
		if err := ownedDir(at(d), uid, gid); err != nil {
			return res, err
		}
		say("directory %s (owner %s, 0750)", d, o.User)
	}
	if res.Password, err = writeEnvFile(at(o.EnvFile)); err != nil {
		return res, err
	}
	if res.Password != "" {
		say("wrote %s (0600) with a new admin password", o.EnvFile)
	} else {
		say("kept %s as it is", o.EnvFile)
	}
	if res.UnitChanged, err = writeFile(at(opt.UnitPath), []byte(unit), 0o644); err != nil {
		return res, err
	}
	say("wrote %s", opt.UnitPath)
	name := filepath.Base(opt.UnitPath)
	steps := [][]string{{"daemon-reload"}, {"enable", name}}
	if !opt.NoStart {
		steps = append(steps, []string{"restart", name})
	}
	for _, args := range steps {
		if err := sys.Run(ctx, "systemctl", args...); err != nil {
			return res, fmt.Errorf("systemd: systemctl %s: %w", args[0], err)
		}
	}
	res.Started = !opt.NoStart
	return res, nil
}

func ownedDir(dir string, uid, gid int) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("systemd: %w", err)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		return fmt.Errorf("systemd: %w", err)
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		return fmt.Errorf("systemd: %w", err)
	}
	return nil
}

// envTemplate is the secrets file's first content; %s is the password.
const envTemplate = `# Hearth's secrets for the service, read by systemd (root only).
# After a change: sudo systemctl restart hearth
# The admin pages (/admin) log in with this password.
HEARTH_ADMIN_PASSWORD=%s
# A model for the coach (without one the built-in heuristic coach runs):
#OPENAI_API_KEY=
#OPENAI_BASE_URL=http://127.0.0.1:11434/v1
#HEARTH_MODEL=
# Plex:
#PLEX_URL=
#PLEX_TOKEN=
#PLEX_SECTION=
`

// writeEnvFile creates the secrets file with a new admin password, or
// leaves an existing one alone ("" returned).
func writeEnvFile(path string) (string, error) {
	if _, err := os.Stat(path); err == nil {
		return "", nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("systemd: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("systemd: %w", err)
	}
	pw := rand.Text() // 26 characters of base32: 130 bits
	if _, err := writeFile(path, fmt.Appendf(nil, envTemplate, pw), 0o600); err != nil {
		return "", err
	}
	return pw, nil
}

// writeFile replaces path with data atomically (a temporary file renamed
// over it) and reports whether the content changed.
func writeFile(path string, data []byte, mode os.FileMode) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, os.Chmod(path, mode)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("systemd: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return false, fmt.Errorf("systemd: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("systemd: write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("systemd: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("systemd: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("systemd: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return false, fmt.Errorf("systemd: %w", err)
	}
	return true, nil
}

// OS is the real System: /etc/passwd through os/user, and commands run
// with their output to Out.
type OS struct{ Out io.Writer }

// LookupUser returns the user's uid and primary gid.
func (OS) LookupUser(name string) (int, int, error) {
	u, err := user.Lookup(name)
	if err != nil {
		var unknown user.UnknownUserError
		if errors.As(err, &unknown) {
			return 0, 0, fmt.Errorf("%w: %s", ErrUnknownUser, name)
		}
		return 0, 0, err
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return 0, 0, fmt.Errorf("user %s: uid %q: %w", name, u.Uid, err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return 0, 0, fmt.Errorf("user %s: gid %q: %w", name, u.Gid, err)
	}
	return uid, gid, nil
}

// Run runs a command and waits for it.
func (s OS) Run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = s.Out, s.Out
	return cmd.Run()
}
