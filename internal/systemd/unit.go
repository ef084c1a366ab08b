// Package systemd runs Hearth as a system service: it writes the systemd
// unit (a dedicated user, its data directory, restart on failure, the
// sandbox and a memory ceiling) and, for `hearth service install`, sets up
// the user, the directories and a file for the secrets, and starts it.
package systemd

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Defaults of Options.
const (
	DefaultUser      = "hearth"
	DefaultDataDir   = "/var/lib/hearth"
	DefaultAddr      = "0.0.0.0:8080"
	DefaultEnvFile   = "/etc/hearth/hearth.env"
	DefaultUnitPath  = "/etc/systemd/system/hearth.service"
	DefaultBinary    = "/usr/local/bin/hearth"
	DefaultMemoryMax = "512M"
)

// ExitRefused is hearth's exit status when its database needs a person: a
// newer Hearth wrote it, or an upgrade's migration failed (and the database
// was put back). The unit does not restart on it: a retry every few seconds
// would only repeat the refusal, or the backup before a failing upgrade.
const ExitRefused = 3

// Options say how the service runs. Zero fields take the defaults above.
type Options struct {
	Binary    string // ExecStart: the hearth executable, an absolute path
	User      string // the system user (and group) it runs as
	DataDir   string // HEARTH_DATA, writable by the service
	BackupDir string // HEARTH_BACKUP_DIR (default DataDir/backups), writable by the service
	Addr      string // HEARTH_ADDR; a wildcard address lets the household's screens in
	Hosts     []string
	TZ        string // HEARTH_TZ ("" = the machine's zone)
	// EnvFile holds the secrets (HEARTH_ADMIN_PASSWORD, OPENAI_API_KEY…),
	// readable by root and the service's group only, not the world-readable unit.
	EnvFile string
	// MemoryMax is the hard memory ceiling (systemd syntax: 512M, 1G).
	MemoryMax string
	// Version is the hearth version writing the unit, for its header.
	Version string
}

func (o Options) withDefaults() Options {
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	def(&o.Binary, DefaultBinary)
	def(&o.User, DefaultUser)
	def(&o.DataDir, DefaultDataDir)
	def(&o.Addr, DefaultAddr)
	def(&o.EnvFile, DefaultEnvFile)
	def(&o.MemoryMax, DefaultMemoryMax)
	def(&o.BackupDir, filepath.Join(o.DataDir, "backups"))
	return o
}

// safeValue is what a path or setting may hold in the unit: no spaces,
// quotes, '%' (a systemd specifier), '$' or line breaks, so no value needs
// quoting and none can add a directive.
var (
	safeValue = regexp.MustCompile(`^[A-Za-z0-9/._@+:,\[\]-]+$`)
	userName  = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)
	memSize   = regexp.MustCompile(`^([0-9]+)([KMG])$`)
)

// check validates o (after defaults) and returns the port HEARTH_ADDR uses.
func (o Options) check() (int, error) {
	var errs []error
	for _, p := range []struct{ name, v string }{{"binary", o.Binary}, {"data directory", o.DataDir},
		{"backup directory", o.BackupDir}, {"environment file", o.EnvFile}} {
		if !filepath.IsAbs(p.v) || !safeValue.MatchString(p.v) || filepath.Clean(p.v) != p.v {
			errs = append(errs, fmt.Errorf("%s %q: want a clean absolute path of letters, digits and / . _ - + @", p.name, p.v))
		}
	}
	for _, p := range []string{o.DataDir, o.BackupDir} {
		for _, hidden := range []string{"/home", "/root", "/run/user", "/tmp", "/var/tmp"} {
			if within(p, hidden) {
				errs = append(errs, fmt.Errorf("%s is under %s, which the service's sandbox hides (ProtectHome, PrivateTmp): choose a directory such as %s", p, hidden, DefaultDataDir))
			}
		}
	}
	for _, hidden := range []string{"/home", "/root", "/run/user", "/tmp", "/var/tmp"} {
		if within(o.Binary, hidden) {
			errs = append(errs, fmt.Errorf("the service cannot run %s: the sandbox hides %s. Copy it first: sudo install -m 0755 %s %s",
				o.Binary, hidden, o.Binary, DefaultBinary))
		}
	}
	if !userName.MatchString(o.User) || o.User == "root" {
		errs = append(errs, fmt.Errorf("user %q: want a system user name such as %q (never root)", o.User, DefaultUser))
	}
	port := 0
	if _, p, err := net.SplitHostPort(o.Addr); err != nil || !safeValue.MatchString(o.Addr) {
		errs = append(errs, fmt.Errorf("address %q: want host:port, e.g. %s", o.Addr, DefaultAddr))
	} else if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
		errs = append(errs, fmt.Errorf("address %q: want a port from 1 to 65535", o.Addr))
	}
	for _, h := range o.Hosts {
		if !safeValue.MatchString(h) || strings.ContainsAny(h, "/@") {
			errs = append(errs, fmt.Errorf("host %q: want a host name or address", h))
		}
	}
	if o.TZ != "" && !safeValue.MatchString(o.TZ) {
		errs = append(errs, fmt.Errorf("time zone %q: want an IANA name such as Europe/Berlin", o.TZ))
	}
	if _, err := memBytes(o.MemoryMax); err != nil {
		errs = append(errs, err)
	}
	return port, errors.Join(errs...)
}

func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// memBytes parses a systemd size with a K, M or G suffix (at least 64M).
func memBytes(s string) (int64, error) {
	m := memSize.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("memory ceiling %q: want a size such as 512M or 1G", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("memory ceiling %q: %w", s, err)
	}
	n <<= map[string]int{"K": 10, "M": 20, "G": 30}[m[2]]
	if n < 64<<20 {
		return 0, fmt.Errorf("memory ceiling %q: Hearth needs at least 64M", s)
	}
	return n, nil
}

// Unit returns the systemd unit for o.
func Unit(o Options) (string, error) {
	o = o.withDefaults()
	port, err := o.check()
	if err != nil {
		return "", fmt.Errorf("systemd: %w", err)
	}
	limit, _ := memBytes(o.MemoryMax)
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	version := o.Version
	if version == "" {
		version = "dev"
	}
	w("# Hearth as a system service, written by `hearth service install` (hearth %s).", version)
	w("# `hearth service print` shows what it writes. Secrets (HEARTH_ADMIN_PASSWORD,")
	w("# OPENAI_API_KEY, PLEX_TOKEN) belong in %s, not here: this file is world-readable.", o.EnvFile)
	w("[Unit]")
	w("Description=Hearth household fitness dashboard")
	w("Wants=network-online.target")
	w("After=network-online.target")
	w("# Keep retrying (e.g. until a backup drive is mounted) rather than give up after a few quick failures.")
	w("StartLimitIntervalSec=0")
	w("")
	w("[Service]")
	w("Type=simple")
	w("User=%s", o.User)
	w("Group=%s", o.User)
	w("ExecStart=%s", o.Binary)
	w("WorkingDirectory=%s", o.DataDir)
	w("Environment=HEARTH_ADDR=%s", o.Addr)
	w("Environment=HEARTH_DATA=%s", o.DataDir)
	w("Environment=HEARTH_BACKUP_DIR=%s", o.BackupDir)
	if len(o.Hosts) > 0 {
		w("Environment=HEARTH_HOSTS=%s", strings.Join(o.Hosts, ","))
	}
	if o.TZ != "" {
		w("Environment=HEARTH_TZ=%s", o.TZ)
	}
	w("# Go's collector works harder near the ceiling instead of the kernel killing Hearth at it.")
	w("Environment=GOMEMLIMIT=%dMiB", limit*4/5>>20)
	w("EnvironmentFile=-%s", o.EnvFile)
	w("Restart=on-failure")
	w("RestartSec=5s")
	w("# Exit status %d: the database needs a person (written by a newer Hearth, or an upgrade failed and was undone).", ExitRefused)
	w("RestartPreventExitStatus=%d", ExitRefused)
	w("# SIGTERM: Hearth ends its streams, marks running coach runs interrupted and closes the database.")
	w("KillSignal=SIGTERM")
	w("TimeoutStopSec=30s")
	w("# Logs go to the journal in Hearth's key=value form: journalctl -u hearth")
	w("StandardOutput=journal")
	w("StandardError=journal")
	w("SyslogIdentifier=hearth")
	w("MemoryHigh=%dM", limit*7/8>>20)
	w("MemoryMax=%s", o.MemoryMax)
	w("TasksMax=512")
	w("UMask=0027")
	w("# Sandbox: the service may write its data and backup directories and nothing else.")
	w("NoNewPrivileges=yes")
	w("ProtectSystem=strict")
	w("ReadWritePaths=%s", o.DataDir)
	if !within(o.BackupDir, o.DataDir) {
		w("# '-': a backup drive that is not mounted fails the backup (logged, shown in Admin → Backups), not the start.")
		w("ReadWritePaths=-%s", o.BackupDir)
	}
	w("PrivateTmp=yes")
	w("PrivateMounts=yes")
	w("ProtectHome=yes")
	w("PrivateDevices=yes")
	w("ProtectKernelTunables=yes")
	w("ProtectKernelModules=yes")
	w("ProtectKernelLogs=yes")
	w("ProtectControlGroups=yes")
	w("ProtectClock=yes")
	w("ProtectHostname=yes")
	w("ProtectProc=invisible")
	w("ProcSubset=pid")
	w("RestrictSUIDSGID=yes")
	w("RestrictRealtime=yes")
	w("RestrictNamespaces=yes")
	w("LockPersonality=yes")
	w("MemoryDenyWriteExecute=yes")
	w("RemoveIPC=yes")
	w("DevicePolicy=closed")
	w("# AF_NETLINK: Hearth lists the machine's addresses for the screens' URL and the host allow-list.")
	w("RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK")
	w("SystemCallArchitectures=native")
	if port < 1024 {
		w("# Port %d is privileged: this capability alone lets the service bind it.", port)
		w("CapabilityBoundingSet=CAP_NET_BIND_SERVICE")
		w("AmbientCapabilities=CAP_NET_BIND_SERVICE")
	} else {
		w("CapabilityBoundingSet=")
	}
	w("")
	w("[Install]")
	w("WantedBy=multi-user.target")
	return b.String(), nil
}
