package systemd_test

import (
	"bytes"
	"context"
	"errors"
	"hearth/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hearth/internal/systemd"
)

// parseUnit reads a unit file into section → key → values (in order).
func parseUnit(t *testing.T, unit string) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{}
	section := ""
	for i, line := range strings.Split(unit, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
			out[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("line %d is not key=value in a section: %q", i+1, line)
			}
			out[section][k] = append(out[section][k], v)
		}
	}
	return out
}

func one(t *testing.T, u map[string]map[string][]string, section, key, want string) {
	t.Helper()
	if got := u[section][key]; len(got) != 1 || got[0] != want {
		t.Errorf("[%s] %s = %q, want %q", section, key, got, want)
	}
}

func TestUnitDefaults(t *testing.T) {
	text, err := systemd.Unit(systemd.Options{Version: "v1.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "(hearth v1.2.0)") {
		t.Error("the unit does not say which Hearth wrote it")
	}
	u := parseUnit(t, text)
	svc := "Service"
	for k, v := range map[string]string{
		"User": "hearth", "Group": "hearth", "ExecStart": "/usr/local/bin/hearth", "WorkingDirectory": "/var/lib/hearth",
		"Restart": "on-failure", "NoNewPrivileges": "yes", "ProtectSystem": "strict", "PrivateTmp": "yes",
		"ProtectHome": "yes", "MemoryMax": "512M", "ReadWritePaths": "/var/lib/hearth", "StandardError": "journal",
		"StandardOutput": "journal", "SyslogIdentifier": "hearth", "EnvironmentFile": "-/etc/hearth/hearth.env",
		"CapabilityBoundingSet": "", "KillSignal": "SIGTERM", "RestartPreventExitStatus": "3",
	} {
		one(t, u, svc, k, v)
	}
	env := u[svc]["Environment"]
	for _, want := range []string{"HEARTH_ADDR=0.0.0.0:8080", "HEARTH_DATA=/var/lib/hearth",
		"HEARTH_BACKUP_DIR=/var/lib/hearth/backups", "GOMEMLIMIT=409MiB"} {
		if !slices.Contains(env, want) {
			t.Errorf("Environment lacks %s: %q", want, env)
		}
	}
	for _, e := range env {
		if strings.Contains(e, "PASSWORD") || strings.Contains(e, "KEY") || strings.Contains(e, "TOKEN") {
			t.Errorf("a secret in the world-readable unit: %s", e)
		}
	}
	one(t, u, "Install", "WantedBy", "multi-user.target")
	one(t, u, "Unit", "After", "network-online.target")
	if _, ok := u[svc]["AmbientCapabilities"]; ok {
		t.Error("port 8080 needs no capability")
	}
}

func TestUnitOptions(t *testing.T) {
	text, err := systemd.Unit(systemd.Options{Binary: "/opt/hearth/bin/hearth", User: "dash", DataDir: "/srv/hearth",
		BackupDir: "/media/usb/hearth-backups", Addr: "0.0.0.0:80", Hosts: []string{"hearth.lan", "192.168.1.20"},
		TZ: "Europe/Berlin", MemoryMax: "1G"})
	if err != nil {
		t.Fatal(err)
	}
	u := parseUnit(t, text)
	one(t, u, "Service", "ExecStart", "/opt/hearth/bin/hearth")
	one(t, u, "Service", "User", "dash")
	one(t, u, "Service", "MemoryMax", "1G")
	one(t, u, "Service", "CapabilityBoundingSet", "CAP_NET_BIND_SERVICE")
	one(t, u, "Service", "AmbientCapabilities", "CAP_NET_BIND_SERVICE")
	if got := u["Service"]["ReadWritePaths"]; !slices.Equal(got, []string{"/srv/hearth", "-/media/usb/hearth-backups"}) {
		t.Errorf("ReadWritePaths = %q", got)
	}
	env := u["Service"]["Environment"]
	for _, want := range []string{"HEARTH_HOSTS=hearth.lan,192.168.1.20", "HEARTH_TZ=Europe/Berlin", "HEARTH_DATA=/srv/hearth",
		"HEARTH_BACKUP_DIR=/media/usb/hearth-backups", "GOMEMLIMIT=819MiB"} {
		if !slices.Contains(env, want) {
			t.Errorf("Environment lacks %s: %q", want, env)
		}
	}
}

// Nothing a flag carries can add a directive or break a value.
func TestUnitRefusesBadValues(t *testing.T) {
	for name, o := range map[string]systemd.Options{
		"relative data":        {DataDir: "data"},
		"space":                {DataDir: "/srv/my hearth"},
		"specifier":            {DataDir: "/srv/%h"},
		"newline in host":      {Hosts: []string{"hearth.lan\nExecStartPre=/bin/sh -c id"}},
		"root user":            {User: "root"},
		"binary in home":       {Binary: "/home/pi/Downloads/hearth"},
		"data in tmp":          {DataDir: "/tmp/hearth"},
		"no port":              {Addr: "0.0.0.0"},
		"bad port":             {Addr: "0.0.0.0:99999"},
		"tiny memory":          {MemoryMax: "16M"},
		"memory without units": {MemoryMax: "512"},
		"unclean path":         {DataDir: "/var/lib/../hearth"},
	} {
		if _, err := systemd.Unit(o); err == nil {
			t.Errorf("%s: accepted %+v", name, o)
		}
	}
	_, err := systemd.Unit(systemd.Options{Binary: "/home/pi/hearth"})
	if err == nil || !strings.Contains(err.Error(), "sudo install -m 0755 /home/pi/hearth /usr/local/bin/hearth") {
		t.Errorf("a binary in a home directory: %v, want the copy command", err)
	}
}

// systemd itself accepts the unit (systemd-analyze verify: no warnings),
// and its sandbox scores "OK" or better in systemd-analyze security.
func TestUnitVerifiesWithSystemd(t *testing.T) {
	testkit.NeedTool(t, "systemd-analyze", "systemd")
	for _, o := range []systemd.Options{
		{Binary: "/bin/true"},
		{Binary: "/bin/true", Addr: "0.0.0.0:80", BackupDir: "/media/usb/hearth", Hosts: []string{"hearth.lan"}, TZ: "Europe/Berlin"},
	} {
		text, err := systemd.Unit(o)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "hearth.service")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("systemd-analyze", "verify", path).CombinedOutput()
		if err != nil || strings.Contains(string(out), "hearth.service") {
			t.Fatalf("systemd-analyze verify: %v\n%s\n%s", err, out, text)
		}
		out, err = exec.Command("systemd-analyze", "security", "--offline=yes", "--threshold=30", path).CombinedOutput()
		if err != nil {
			t.Fatalf("systemd-analyze security (exposure over 3.0): %v\n%s", err, out)
		}
		last := strings.TrimSpace(string(out))
		t.Log(last[strings.LastIndex(last, "\n")+1:])
	}
}

// fakeSystem records commands; useradd makes the user exist.
type fakeSystem struct {
	users map[string]bool
	ran   [][]string
}

func (f *fakeSystem) LookupUser(name string) (int, int, error) {
	if !f.users[name] {
		return 0, 0, systemd.ErrUnknownUser
	}
	return os.Getuid(), os.Getgid(), nil
}

func (f *fakeSystem) Run(_ context.Context, name string, args ...string) error {
	f.ran = append(f.ran, append([]string{name}, args...))
	if name == "useradd" {
		f.users[args[len(args)-1]] = true
	}
	return nil
}

func TestInstall(t *testing.T) {
	root := t.TempDir()
	sys := &fakeSystem{users: map[string]bool{}}
	var log bytes.Buffer
	opt := systemd.InstallOptions{Options: systemd.Options{BackupDir: "/media/usb/hearth"}, Root: root, Out: &log}
	res, err := systemd.Install(context.Background(), opt, sys)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := systemd.Unit(opt.Options)
	got, err := os.ReadFile(filepath.Join(root, "etc/systemd/system/hearth.service"))
	if err != nil || string(got) != want {
		t.Fatalf("unit file: %v\n%s", err, got)
	}
	if fi, _ := os.Stat(filepath.Join(root, "etc/systemd/system/hearth.service")); fi.Mode().Perm() != 0o644 {
		t.Errorf("unit mode %v", fi.Mode().Perm())
	}
	for _, d := range []string{"var/lib/hearth", "media/usb/hearth"} {
		fi, err := os.Stat(filepath.Join(root, d))
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o750 {
			t.Errorf("%s: %v %v", d, fi, err)
		}
	}
	env, err := os.ReadFile(filepath.Join(root, "etc/hearth/hearth.env"))
	if err != nil || res.Password == "" || len(res.Password) < 20 || !strings.Contains(string(env), "\nHEARTH_ADMIN_PASSWORD="+res.Password+"\n") {
		t.Fatalf("env file: %v password %q\n%s", err, res.Password, env)
	}
	if fi, _ := os.Stat(filepath.Join(root, "etc/hearth/hearth.env")); fi.Mode().Perm() != 0o600 {
		t.Errorf("env file mode %v, want 0600", fi.Mode().Perm())
	}
	if strings.Contains(log.String(), res.Password) {
		t.Error("the password was written to the progress output")
	}
	wantRan := [][]string{
		{"useradd", "--system", "--user-group", "--home-dir", "/var/lib/hearth", "--no-create-home", "--shell", "/usr/sbin/nologin", "--comment", "Hearth household dashboard", "hearth"},
		{"systemctl", "daemon-reload"}, {"systemctl", "enable", "hearth.service"}, {"systemctl", "restart", "hearth.service"},
	}
	if !slices.EqualFunc(sys.ran, wantRan, slices.Equal) || !res.CreatedUser || !res.Started || !res.UnitChanged {
		t.Fatalf("ran %q (%+v), want %q", sys.ran, res, wantRan)
	}

	// Again (an upgrade): the user and the secrets stay, the unit is unchanged, the service restarts.
	sys.ran = nil
	res2, err := systemd.Install(context.Background(), opt, sys)
	if err != nil {
		t.Fatal(err)
	}
	env2, _ := os.ReadFile(filepath.Join(root, "etc/hearth/hearth.env"))
	if res2.Password != "" || !bytes.Equal(env, env2) || res2.CreatedUser || res2.UnitChanged {
		t.Fatalf("second install changed things: %+v", res2)
	}
	if !slices.EqualFunc(sys.ran, wantRan[1:], slices.Equal) {
		t.Fatalf("second install ran %q", sys.ran)
	}
}

func TestInstallStopsOnFailure(t *testing.T) {
	root := t.TempDir()
	sys := &failingSystem{fakeSystem{users: map[string]bool{"hearth": true}}}
	_, err := systemd.Install(context.Background(), systemd.InstallOptions{Root: root}, sys)
	if err == nil || !strings.Contains(err.Error(), "systemctl daemon-reload") {
		t.Fatalf("err = %v", err)
	}
	if _, err := systemd.Install(context.Background(), systemd.InstallOptions{Root: root, Options: systemd.Options{User: "root"}}, sys); err == nil {
		t.Fatal("installed a unit running as root")
	}
}

type failingSystem struct{ fakeSystem }

func (f *failingSystem) Run(context.Context, string, ...string) error {
	return errors.New("exit status 1")
}
