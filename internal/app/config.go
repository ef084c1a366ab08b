package app

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // a household time zone must work on images without zoneinfo

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/content"
	"hearth/internal/importer"
	"hearth/internal/voice"
	"hearth/web/ratelimit"
)

// Config is everything Hearth reads from the environment and flags (DESIGN §8).
type Config struct {
	Addr    string
	DataDir string
	DBPath  string
	// BackupDir is where backups go: HEARTH_BACKUP_DIR, default $HEARTH_DATA/backups.
	BackupDir string
	TZName    string
	Location  *time.Location
	// TZExplicit is set when HEARTH_TZ or -tz was given: that zone wins
	// over the one chosen on Admin → Household, which then shows it.
	TZExplicit bool
	// tzSaved: Location is the zone chosen on Admin → Household (applied
	// at start by householdZone).
	tzSaved       bool
	Demo          bool
	AdminPassword string
	APIToken      string
	OpenAIKey     string
	OpenAIBaseURL string
	Model         string
	// TranscribeModel names the speech-to-text model for voice replies on
	// the same endpoint; "off" keeps the audio without transcribing.
	TranscribeModel string
	Catalog         string
	PlexURL         string
	PlexToken       string
	PlexSection     string
	// HAURL and HAToken reach Home Assistant (HEARTH_HA_URL,
	// HEARTH_HA_TOKEN); set, they win over Admin → Integrations.
	HAURL   string
	HAToken string
	// ThumbCacheBytes caps the cache of Plex thumbnails under the data
	// directory (HEARTH_THUMB_CACHE_BYTES).
	ThumbCacheBytes int64
	KioskIdle       time.Duration
	CatchUp         time.Duration
	BudgetTokens    int64
	BudgetUSD       float64
	// RunBudget is the household's default token budget per run
	// (HEARTH_RUN_BUDGET_PROMPT_TOKENS, HEARTH_RUN_BUDGET_COMPLETION_TOKENS).
	RunBudget agent.RunBudget
	Prices    agent.Prices
	// ModelConcurrency caps model requests in flight across every agent
	// run (assignments, chat, definitions).
	ModelConcurrency int
	// ModelServer is the model server's family (HEARTH_MODEL_SERVER; ""
	// = detect it).
	ModelServer llm.Family
	// ModelContext is the model's context window in tokens (0 = learn it).
	ModelContext int
	// Timeouts of a model request's phases and of a whole run: connecting,
	// the first piece of a streamed reply, one request, one run.
	ModelConnectTimeout    time.Duration
	ModelFirstTokenTimeout time.Duration
	ModelTimeout           time.Duration
	RunTimeout             time.Duration
	LogLevel               string
	// Hosts are extra Host names Hearth answers to (HEARTH_HOSTS): the
	// household's LAN name or address. Loopback names and the listen
	// address always work.
	Hosts []string
	// SecureCookies marks admin cookies Secure even on plain HTTP (for a
	// TLS-terminating proxy); requests that came over TLS get it anyway.
	SecureCookies bool
	// MaxStreams and MaxStreamsPerClient cap open live streams in total and
	// per client address.
	MaxStreams          int
	MaxStreamsPerClient int
	// ImportMaxBytes caps an import: the uploaded file and what it
	// unpacks to (HEARTH_IMPORT_MAX_BYTES).
	ImportMaxBytes int64
	// KioskModelCalls limits the kiosk's model-calling requests per client
	// and member (zero: the ratelimit defaults; tests set a clock).
	KioskModelCalls ratelimit.Options
}

// dataDirectory is DataDir, or the database's directory when unset (a
// Config built by a test rather than LoadConfig).
func (c Config) dataDirectory() string {
	if c.DataDir != "" {
		return c.DataDir
	}
	return filepath.Dir(c.DBPath)
}

// backupDirectory is BackupDir, by default under the data directory.
func (c Config) backupDirectory() string {
	if c.BackupDir != "" {
		return c.BackupDir
	}
	return filepath.Join(c.dataDirectory(), "backups")
}

// ModelConfigured reports whether an OpenAI-compatible model should be used.
func (c Config) ModelConfigured() bool { return c.OpenAIKey != "" || c.OpenAIBaseURL != "" }

// Transcribes reports whether voice replies are sent for transcription.
func (c Config) Transcribes() bool { return c.ModelConfigured() && c.TranscribeModel != TranscribeOff }

// TranscribeOff as HEARTH_TRANSCRIBE_MODEL turns transcription off, e.g. for
// a local server without an /audio/transcriptions endpoint.
const TranscribeOff = "off"

// LoadConfig reads env (through getenv) and then flags, flags winning.
func LoadConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	env := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	var c Config
	fs := flag.NewFlagSet("hearth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Addr, "addr", env("HEARTH_ADDR", "127.0.0.1:8080"), "listen address (HEARTH_ADDR)")
	fs.StringVar(&c.DataDir, "data", env("HEARTH_DATA", "./data"), "data directory (HEARTH_DATA)")
	fs.StringVar(&c.DBPath, "db", env("HEARTH_DB", ""), "database file (HEARTH_DB, default $HEARTH_DATA/hearth.db)")
	fs.StringVar(&c.BackupDir, "backup-dir", env("HEARTH_BACKUP_DIR", ""), "backup directory, e.g. a USB drive or NAS mount (HEARTH_BACKUP_DIR, default $HEARTH_DATA/backups)")
	fs.StringVar(&c.TZName, "tz", env("HEARTH_TZ", "Local"), "household time zone (HEARTH_TZ)")
	demo := fs.String("demo", env("HEARTH_DEMO", "0"), "seed a demo household into an empty database (HEARTH_DEMO)")
	fs.StringVar(&c.AdminPassword, "admin-password", env("HEARTH_ADMIN_PASSWORD", ""), "admin password (HEARTH_ADMIN_PASSWORD)")
	fs.StringVar(&c.APIToken, "api-token", env("HEARTH_API_TOKEN", ""), "bearer token for admin APIs (HEARTH_API_TOKEN)")
	fs.StringVar(&c.OpenAIKey, "openai-key", env("OPENAI_API_KEY", ""), "OpenAI-compatible API key (OPENAI_API_KEY)")
	fs.StringVar(&c.OpenAIBaseURL, "openai-base-url", env("OPENAI_BASE_URL", ""), "OpenAI-compatible base URL (OPENAI_BASE_URL)")
	fs.StringVar(&c.Model, "model", env("HEARTH_MODEL", "gpt-4o-mini"), "model name (HEARTH_MODEL)")
	fs.StringVar(&c.TranscribeModel, "transcribe-model", env("HEARTH_TRANSCRIBE_MODEL", voice.DefaultModel),
		"speech-to-text model for voice replies, or off (HEARTH_TRANSCRIBE_MODEL)")
	fs.StringVar(&c.Catalog, "catalog", env("HEARTH_CATALOG", ""), "catalog file to import at start (HEARTH_CATALOG)")
	fs.StringVar(&c.PlexURL, "plex-url", env("PLEX_URL", ""), "Plex server URL (PLEX_URL)")
	fs.StringVar(&c.PlexToken, "plex-token", env("PLEX_TOKEN", ""), "Plex token (PLEX_TOKEN)")
	fs.StringVar(&c.PlexSection, "plex-section", env("PLEX_SECTION", ""), "Plex library section id to sync (PLEX_SECTION)")
	fs.StringVar(&c.HAURL, "ha-url", env("HEARTH_HA_URL", ""), "Home Assistant URL, e.g. http://homeassistant.local:8123 (HEARTH_HA_URL)")
	fs.StringVar(&c.HAToken, "ha-token", env("HEARTH_HA_TOKEN", ""), "Home Assistant long-lived access token (HEARTH_HA_TOKEN)")
	thumbCache := fs.String("thumb-cache-bytes", env("HEARTH_THUMB_CACHE_BYTES", strconv.Itoa(content.DefaultThumbCacheBytes)),
		"most bytes the cache of Plex thumbnails keeps on disk (HEARTH_THUMB_CACHE_BYTES)")
	idle := fs.String("kiosk-idle", env("HEARTH_KIOSK_IDLE", "3m"), "return to the household view after this idle time (HEARTH_KIOSK_IDLE)")
	catchUp := fs.String("catch-up", env("HEARTH_CATCHUP", "12h"), "run schedules missed while down within this window (HEARTH_CATCHUP)")
	budgetTok := fs.String("budget-tokens", env("HEARTH_BUDGET_TOKENS", "0"), "daily model token budget, 0 = unlimited (HEARTH_BUDGET_TOKENS)")
	budgetUSD := fs.String("budget-usd", env("HEARTH_BUDGET_USD", "0"), "daily model cost budget in USD, 0 = unlimited (HEARTH_BUDGET_USD)")
	runPrompt := fs.String("run-budget-prompt-tokens", env("HEARTH_RUN_BUDGET_PROMPT_TOKENS", "0"),
		"prompt tokens one agent run may send in all, 0 = unlimited (HEARTH_RUN_BUDGET_PROMPT_TOKENS)")
	runCompletion := fs.String("run-budget-completion-tokens", env("HEARTH_RUN_BUDGET_COMPLETION_TOKENS", "0"),
		"completion tokens one agent run may receive in all, 0 = unlimited (HEARTH_RUN_BUDGET_COMPLETION_TOKENS)")
	modelConc := fs.String("model-concurrency", env("HEARTH_MODEL_CONCURRENCY", "2"), "model requests in flight at most, across all agents (HEARTH_MODEL_CONCURRENCY)")
	server := fs.String("model-server", env("HEARTH_MODEL_SERVER", "auto"),
		"model server: auto, openai, ollama, llamacpp, vllm, lmstudio or generic (HEARTH_MODEL_SERVER)")
	modelCtx := fs.String("model-context", env("HEARTH_MODEL_CONTEXT", "0"), "model context window in tokens, 0 = learn it (HEARTH_MODEL_CONTEXT)")
	connectTO := fs.String("model-connect-timeout", env("HEARTH_MODEL_CONNECT_TIMEOUT", "10s"), "time to connect to the model server (HEARTH_MODEL_CONNECT_TIMEOUT)")
	firstTO := fs.String("model-first-token-timeout", env("HEARTH_MODEL_FIRST_TOKEN_TIMEOUT", "0"),
		"longest wait for a piece of a streamed reply, 0 = the model timeout (HEARTH_MODEL_FIRST_TOKEN_TIMEOUT)")
	modelTO := fs.String("model-timeout", env("HEARTH_MODEL_TIMEOUT", "3m"), "one model request, reply included (HEARTH_MODEL_TIMEOUT)")
	runTO := fs.String("run-timeout", env("HEARTH_RUN_TIMEOUT", "10m"), "one agent run, all its model requests included (HEARTH_RUN_TIMEOUT)")
	prices := fs.String("prices", env("HEARTH_PRICES", ""), "model prices, model=in/out USD per 1M tokens, comma separated (HEARTH_PRICES)")
	fs.StringVar(&c.LogLevel, "log-level", env("HEARTH_LOG_LEVEL", "info"), "debug, info, warn or error (HEARTH_LOG_LEVEL)")
	hosts := fs.String("hosts", env("HEARTH_HOSTS", ""), "extra host names Hearth answers to, comma separated (HEARTH_HOSTS)")
	secure := fs.String("secure-cookies", env("HEARTH_SECURE_COOKIES", "0"), "mark admin cookies Secure (HEARTH_SECURE_COOKIES)")
	maxStreams := fs.String("max-streams", env("HEARTH_MAX_STREAMS", "2000"), "most open live streams (HEARTH_MAX_STREAMS)")
	importMax := fs.String("import-max-bytes", env("HEARTH_IMPORT_MAX_BYTES", strconv.FormatInt(importer.DefaultMaxBytes, 10)),
		"most bytes one import may upload or unpack to (HEARTH_IMPORT_MAX_BYTES)")
	maxPerClient := fs.String("max-streams-per-client", env("HEARTH_MAX_STREAMS_PER_CLIENT", "50"),
		"most open live streams per client address (HEARTH_MAX_STREAMS_PER_CLIENT)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("config: unexpected argument %q", fs.Arg(0))
	}
	c.TZExplicit = getenv("HEARTH_TZ") != ""
	fs.Visit(func(f *flag.Flag) { c.TZExplicit = c.TZExplicit || f.Name == "tz" })
	var err error
	if c.Demo, err = parseBool(*demo); err != nil {
		return c, fmt.Errorf("config: HEARTH_DEMO: %w", err)
	}
	if c.DBPath == "" {
		c.DBPath = filepath.Join(c.DataDir, "hearth.db")
	}
	if c.BackupDir == "" {
		c.BackupDir = filepath.Join(c.DataDir, "backups")
	}
	if c.Location, err = time.LoadLocation(c.TZName); err != nil {
		return c, fmt.Errorf("config: HEARTH_TZ %q: %w", c.TZName, err)
	}
	if c.KioskIdle, err = time.ParseDuration(*idle); err != nil || c.KioskIdle < 10*time.Second {
		return c, fmt.Errorf("config: HEARTH_KIOSK_IDLE %q: want a duration of at least 10s", *idle)
	}
	if c.CatchUp, err = time.ParseDuration(*catchUp); err != nil || c.CatchUp < 0 {
		return c, fmt.Errorf("config: HEARTH_CATCHUP %q: want a duration", *catchUp)
	}
	if c.BudgetTokens, err = strconv.ParseInt(*budgetTok, 10, 64); err != nil || c.BudgetTokens < 0 {
		return c, fmt.Errorf("config: HEARTH_BUDGET_TOKENS %q: want a whole number ≥ 0", *budgetTok)
	}
	if c.BudgetUSD, err = strconv.ParseFloat(*budgetUSD, 64); err != nil || !finiteNonNeg(c.BudgetUSD) {
		return c, fmt.Errorf("config: HEARTH_BUDGET_USD %q: want a number ≥ 0", *budgetUSD)
	}
	if c.RunBudget.PromptTokens, err = strconv.ParseInt(*runPrompt, 10, 64); err != nil || c.RunBudget.PromptTokens < 0 {
		return c, fmt.Errorf("config: HEARTH_RUN_BUDGET_PROMPT_TOKENS %q: want a whole number ≥ 0", *runPrompt)
	}
	if c.RunBudget.CompletionTokens, err = strconv.ParseInt(*runCompletion, 10, 64); err != nil || c.RunBudget.CompletionTokens < 0 {
		return c, fmt.Errorf("config: HEARTH_RUN_BUDGET_COMPLETION_TOKENS %q: want a whole number ≥ 0", *runCompletion)
	}
	if c.ModelConcurrency, err = strconv.Atoi(*modelConc); err != nil || c.ModelConcurrency < 1 || c.ModelConcurrency > 64 {
		return c, fmt.Errorf("config: HEARTH_MODEL_CONCURRENCY %q: want a whole number from 1 to 64", *modelConc)
	}
	if c.ModelServer, err = llm.ParseFamily(*server); err != nil {
		return c, fmt.Errorf("config: HEARTH_MODEL_SERVER: %w", err)
	}
	if c.ModelContext, err = strconv.Atoi(*modelCtx); err != nil || c.ModelContext < 0 || c.ModelContext > 0 && c.ModelContext < 512 {
		return c, fmt.Errorf("config: HEARTH_MODEL_CONTEXT %q: want 0 (learn it) or a number of tokens from 512", *modelCtx)
	}
	for _, d := range []struct {
		name string
		in   string
		out  *time.Duration
		zero bool
	}{
		{"HEARTH_MODEL_CONNECT_TIMEOUT", *connectTO, &c.ModelConnectTimeout, false},
		{"HEARTH_MODEL_FIRST_TOKEN_TIMEOUT", *firstTO, &c.ModelFirstTokenTimeout, true},
		{"HEARTH_MODEL_TIMEOUT", *modelTO, &c.ModelTimeout, false},
		{"HEARTH_RUN_TIMEOUT", *runTO, &c.RunTimeout, false},
	} {
		v, perr := time.ParseDuration(d.in)
		if d.zero && d.in == "0" {
			v, perr = 0, nil
		}
		if perr != nil || v < 0 || v == 0 && !d.zero || v > 0 && v < time.Second {
			return c, fmt.Errorf("config: %s %q: want a duration of at least 1s, like 90s or 10m", d.name, d.in)
		}
		*d.out = v
	}
	if c.RunTimeout < c.ModelTimeout {
		return c, fmt.Errorf("config: HEARTH_RUN_TIMEOUT (%s) is shorter than HEARTH_MODEL_TIMEOUT (%s): a run could not finish one model request",
			c.RunTimeout, c.ModelTimeout)
	}
	if c.Prices, err = ParsePrices(*prices); err != nil {
		return c, err
	}
	for _, h := range strings.Split(*hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			if strings.ContainsAny(h, "/ @") {
				return c, fmt.Errorf("config: HEARTH_HOSTS %q: want host names or addresses, comma separated", h)
			}
			c.Hosts = append(c.Hosts, h)
		}
	}
	if c.SecureCookies, err = parseBool(*secure); err != nil {
		return c, fmt.Errorf("config: HEARTH_SECURE_COOKIES: %w", err)
	}
	if c.MaxStreams, err = strconv.Atoi(*maxStreams); err != nil || c.MaxStreams < 1 {
		return c, fmt.Errorf("config: HEARTH_MAX_STREAMS %q: want a whole number ≥ 1", *maxStreams)
	}
	if c.ImportMaxBytes, err = strconv.ParseInt(*importMax, 10, 64); err != nil || c.ImportMaxBytes < 1<<20 {
		return c, fmt.Errorf("config: HEARTH_IMPORT_MAX_BYTES %q: want a number of bytes, at least 1048576", *importMax)
	}
	if c.ThumbCacheBytes, err = strconv.ParseInt(*thumbCache, 10, 64); err != nil || c.ThumbCacheBytes < content.MinThumbCacheBytes {
		return c, fmt.Errorf("config: HEARTH_THUMB_CACHE_BYTES %q: want a number of bytes, at least %d", *thumbCache, content.MinThumbCacheBytes)
	}
	if c.MaxStreamsPerClient, err = strconv.Atoi(*maxPerClient); err != nil || c.MaxStreamsPerClient < 1 {
		return c, fmt.Errorf("config: HEARTH_MAX_STREAMS_PER_CLIENT %q: want a whole number ≥ 1", *maxPerClient)
	}
	return c, nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "", "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("want 1/0, true/false, got %q", s)
}

func mask(s string) string {
	if s == "" {
		return "(unset)"
	}
	return "****"
}

// Summary lists the effective configuration with secrets masked, for the start log.
func (c Config) Summary() []any {
	return []any{
		"addr", c.Addr, "data", c.DataDir, "db", c.DBPath, "backup_dir", c.BackupDir, "tz", c.Location.String(), "demo", c.Demo,
		"admin_password", mask(c.AdminPassword), "api_token", mask(c.APIToken),
		"openai_api_key", mask(c.OpenAIKey), "openai_base_url", c.OpenAIBaseURL, "model", c.Model,
		"transcribe_model", c.TranscribeModel,
		"catalog", c.Catalog, "plex_url", c.PlexURL, "plex_token", mask(c.PlexToken), "plex_section", c.PlexSection,
		"ha_url", c.HAURL, "ha_token", mask(c.HAToken),
		"thumb_cache_bytes", c.ThumbCacheBytes,
		"kiosk_idle", c.KioskIdle, "catch_up", c.CatchUp, "budget_tokens", c.BudgetTokens, "budget_usd", c.BudgetUSD,
		"run_budget_prompt_tokens", c.RunBudget.PromptTokens, "run_budget_completion_tokens", c.RunBudget.CompletionTokens,
		"model_concurrency", c.ModelConcurrency, "model_server", orAuto(c.ModelServer), "model_context", c.ModelContext,
		"model_connect_timeout", c.ModelConnectTimeout, "model_first_token_timeout", c.ModelFirstTokenTimeout,
		"model_timeout", c.ModelTimeout, "run_timeout", c.RunTimeout,
		"hosts", strings.Join(c.Hosts, ","), "secure_cookies", c.SecureCookies,
		"max_streams", c.MaxStreams, "max_streams_per_client", c.MaxStreamsPerClient, "import_max_bytes", c.ImportMaxBytes,
	}
}

func orAuto(f llm.Family) string {
	if f == "" {
		return "auto"
	}
	return string(f)
}

// ModelConfig is the OpenAI runtime's configuration; profiles remembers
// what is learned per endpoint (nil = in memory).
func (c Config) ModelConfig(profiles llm.ProfileStore) llm.OpenAIConfig {
	return llm.OpenAIConfig{BaseURL: c.OpenAIBaseURL, APIKey: c.OpenAIKey, Model: c.Model, Server: c.ModelServer,
		ContextTokens: c.ModelContext, ConnectTimeout: c.ModelConnectTimeout, FirstTokenTimeout: c.ModelFirstTokenTimeout,
		RequestTimeout: c.ModelTimeout, MaxRetries: 2, Profiles: profiles}
}
