// Package homeassistant reads and drives a Home Assistant instance over its
// documented REST API (https://developers.home-assistant.io/docs/api/rest/):
// the connection check, entity states, service calls, areas (through the
// template endpoint, since REST has no area endpoint) and state history.
//
// The long-lived access token travels only in the Authorization header: it
// is never part of a URL, an error, a log line or a value this package
// returns. Redirects are followed only within the configured host, so the
// header never reaches another one.
package homeassistant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"hearth/internal/apperr"
)

// Errors a caller can tell apart; every error of a request wraps one of
// them or is an apperr (a bad URL, a bad argument).
var (
	// ErrNotConfigured: no Home Assistant URL and token are set.
	ErrNotConfigured = errors.New("Home Assistant is not configured: set its URL and token in Admin → Integrations (or HEARTH_HA_URL and HEARTH_HA_TOKEN)")
	// ErrUnauthorized: Home Assistant answered 401 (a wrong or revoked
	// token, or a non-admin user's token on an admin endpoint such as
	// /api/template).
	ErrUnauthorized = errors.New("Home Assistant refused the token (401): create a long-lived access token on your Home Assistant profile page")
	// ErrNotFound: Home Assistant answered 404 (an unknown entity).
	ErrNotFound = errors.New("not found in Home Assistant")
	// ErrUnreachable: no answer (connection refused, DNS, timeout).
	ErrUnreachable = errors.New("Home Assistant is unreachable")
	// ErrRedirect: Home Assistant (or something in front of it) redirected
	// to another host or scheme, which is not followed so the token stays
	// with the configured host.
	ErrRedirect = errors.New("Home Assistant redirected to another address, which Hearth does not follow (the token stays with the configured host): set the URL Home Assistant really answers on")
)

// DefaultTimeout bounds one request when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// maxBody bounds one answer (a house with thousands of entities answers
// /api/states with a few MB).
const maxBody = 32 << 20

// Config is where the instance is and how to reach it.
type Config struct {
	// URL is the instance's base address, e.g. http://homeassistant.local:8123.
	URL   string
	Token string
	// Timeout bounds each request (0: DefaultTimeout).
	Timeout time.Duration
	// Transport is the HTTP transport (nil: http.DefaultTransport); tests
	// and the settings page's check use their own.
	Transport http.RoundTripper
}

// Client talks to one Home Assistant instance.
type Client struct {
	base  *url.URL
	token string
	hc    *http.Client
}

// ParseURL checks an instance address as an admin typed it: http or https,
// a host, no credentials, query or fragment. It returns the URL without a
// trailing slash.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, apperr.Invalidf("the Home Assistant URL must start with http:// or https://, like http://homeassistant.local:8123")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, apperr.Invalidf("the Home Assistant URL must not contain a user name, password, query or fragment; the token is set separately")
	}
	if p := strings.TrimSuffix(u.Path, "/api"); p != u.Path { // someone pasted …/api
		u.Path = p
	}
	return u, nil
}

// New returns a client for cfg. A missing URL or token is ErrNotConfigured;
// a URL that is not http(s) is Invalid.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.URL) == "" || strings.TrimSpace(cfg.Token) == "" {
		return nil, ErrNotConfigured
	}
	u, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(cfg.Token, "\r\n") {
		return nil, apperr.Invalidf("the Home Assistant token must be one line")
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{Timeout: timeout, Transport: cfg.Transport}
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != u.Scheme || req.URL.Host != u.Host {
			return fmt.Errorf("%w (to %s://%s)", ErrRedirect, req.URL.Scheme, req.URL.Host)
		}
		if len(via) >= 5 {
			return errors.New("Home Assistant redirected too many times")
		}
		return nil
	}
	return &Client{base: u, token: strings.TrimSpace(cfg.Token), hc: hc}, nil
}

// BaseURL is the instance's address (no token).
func (c *Client) BaseURL() string { return c.base.String() }

// LogValue keeps the token out of logs.
func (c *Client) LogValue() slog.Value {
	return slog.GroupValue(slog.String("url", c.base.String()), slog.String("token", "***"))
}

// State is one entity's state object (HA-core State.as_dict). State is
// always a string ("21.5", "on", "unavailable").
type State struct {
	EntityID    string         `json:"entity_id"`
	State       string         `json:"state"`
	Attributes  map[string]any `json:"attributes"`
	LastChanged time.Time      `json:"last_changed"`
	LastUpdated time.Time      `json:"last_updated"`
}

// Name is the entity's friendly name, or its id.
func (s State) Name() string {
	if n, ok := s.Attributes["friendly_name"].(string); ok && strings.TrimSpace(n) != "" {
		return n
	}
	return s.EntityID
}

// Unit is the state's unit_of_measurement ("" when it has none).
func (s State) Unit() string {
	u, _ := s.Attributes["unit_of_measurement"].(string)
	return u
}

// Domain is the part of the entity id before the dot ("light").
func (s State) Domain() string {
	d, _, _ := strings.Cut(s.EntityID, ".")
	return d
}

// Unavailable reports the states Home Assistant uses for "no reading".
func (s State) Unavailable() bool {
	switch strings.ToLower(strings.TrimSpace(s.State)) {
	case "unavailable", "unknown", "", "none":
		return true
	}
	return false
}

// Info is what the connection check learns.
type Info struct {
	Version      string `json:"version"`
	LocationName string `json:"location_name"`
	TimeZone     string `json:"time_zone"`
}

// Ping checks that the API answers and the token is accepted (GET /api/,
// whose trailing slash is required), then reads the version (GET
// /api/config).
func (c *Client) Ping(ctx context.Context) (Info, error) {
	var ping struct {
		Message string `json:"message"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/", nil, nil, &ping); err != nil {
		return Info{}, err
	}
	var info Info
	if err := c.do(ctx, http.MethodGet, "/api/config", nil, nil, &info); err != nil {
		return Info{}, err
	}
	return info, nil
}

// States returns every entity's state (GET /api/states).
func (c *Client) States(ctx context.Context) ([]State, error) {
	var out []State
	err := c.do(ctx, http.MethodGet, "/api/states", nil, nil, &out)
	return out, err
}

// State returns one entity's state (GET /api/states/<entity_id>); an
// unknown entity is ErrNotFound.
func (c *Client) State(ctx context.Context, entityID string) (State, error) {
	if err := CheckEntityID(entityID); err != nil {
		return State{}, err
	}
	var out State
	err := c.do(ctx, http.MethodGet, "/api/states/"+url.PathEscape(entityID), nil, nil, &out)
	return out, err
}

// CallService calls domain.service with data (POST
// /api/services/<domain>/<service>) and returns the states the call
// changed (possibly none: a device may report its new state later).
func (c *Client) CallService(ctx context.Context, domain, service string, data map[string]any) ([]State, error) {
	if !slugPattern(domain) || !slugPattern(service) {
		return nil, apperr.Invalidf("domain and service are lowercase names like light and turn_on")
	}
	if data == nil {
		data = map[string]any{}
	}
	body, err := json.Marshal(data)
	if err != nil {
		return nil, apperr.Invalidf("service data: %v", err)
	}
	var out []State
	err = c.do(ctx, http.MethodPost, "/api/services/"+domain+"/"+service, nil, body, &out)
	return out, err
}

// Area is one area with the entities in it.
type Area struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Entities []string `json:"entities"`
}

// AreasTemplate renders every area with its entities as JSON. REST has no
// area endpoint; the template functions areas(), area_name() and
// area_entities() are documented at
// https://www.home-assistant.io/template-functions/category/area and
// tojson at https://www.home-assistant.io/template-functions/tojson.
const AreasTemplate = `{% set ns = namespace(out=[]) %}{% for a in areas() %}{% set ns.out = ns.out + [{"id": a, "name": area_name(a), "entities": area_entities(a)}] %}{% endfor %}{{ ns.out | tojson }}`

// Areas lists the areas (POST /api/template, which needs an admin user's
// token; its answer is text/plain).
func (c *Client) Areas(ctx context.Context) ([]Area, error) {
	body, _ := json.Marshal(map[string]string{"template": AreasTemplate})
	var raw []byte
	if err := c.do(ctx, http.MethodPost, "/api/template", nil, body, &raw); err != nil {
		return nil, err
	}
	var out []Area
	if err := json.Unmarshal(bytes.TrimSpace(raw), &out); err != nil {
		return nil, fmt.Errorf("homeassistant: the areas template did not render JSON: %w", err)
	}
	return out, nil
}

// History returns the entity's states from since to now, oldest first
// (GET /api/history/period/<since>?filter_entity_id=…&end_time=…). The
// first state is the one in force at since: Home Assistant reports it
// with last_changed clamped to since when it is older.
func (c *Client) History(ctx context.Context, entityID string, since, until time.Time) ([]State, error) {
	if err := CheckEntityID(entityID); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("filter_entity_id", entityID)
	q.Set("end_time", until.UTC().Format(time.RFC3339))
	var out [][]State
	if err := c.do(ctx, http.MethodGet, "/api/history/period/"+url.PathEscape(since.UTC().Format(time.RFC3339)), q, nil, &out); err != nil {
		return nil, err
	}
	var states []State
	for _, series := range out {
		for _, s := range series {
			if s.EntityID == "" || s.EntityID == entityID {
				s.EntityID = entityID // minimal_response rows omit it
				states = append(states, s)
			}
		}
	}
	return states, nil
}

// CheckEntityID accepts "domain.object_id" ids as Home Assistant makes them.
func CheckEntityID(id string) error {
	d, o, ok := strings.Cut(id, ".")
	if !ok || !slugPattern(d) || o == "" || len(id) > 255 || strings.IndexFunc(o, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	}) >= 0 {
		return apperr.Invalidf("%q is not an entity id (like light.living_room)", clip(id, 80))
	}
	return nil
}

func slugPattern(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// do sends one request and decodes a JSON answer into out (a *[]byte
// receives the raw body: /api/template answers text).
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body []byte, out any) error {
	u := *c.base
	u.Path = strings.TrimRight(c.base.Path, "/") + path
	u.RawPath = ""
	if strings.Contains(path, "%") { // keep an escaped entity id or timestamp escaped
		u.RawPath = strings.TrimRight(c.base.EscapedPath(), "/") + path
		if p, err := url.PathUnescape(u.RawPath); err == nil {
			u.Path = p
		}
	}
	if q != nil {
		u.RawQuery = q.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return fmt.Errorf("homeassistant: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, ErrRedirect) {
			var ue *url.Error
			if errors.As(err, &ue) {
				return ue.Err // the redirect refusal, not a transport failure
			}
			return ErrRedirect
		}
		return fmt.Errorf("%w at %s: %s", ErrUnreachable, c.base.Host, reason(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("%w at %s: reading the answer: %s", ErrUnreachable, c.base.Host, reason(err))
	}
	if len(raw) > maxBody {
		return fmt.Errorf("homeassistant: %s %s answered more than %d MB", method, path, maxBody>>20)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return ErrUnauthorized
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNotFound, message(raw, "404"))
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("%w: %s %s answered %d", ErrRedirect, method, path, resp.StatusCode)
	case resp.StatusCode < 200 || resp.StatusCode >= 300:
		return fmt.Errorf("homeassistant: %s %s: %d %s", method, path, resp.StatusCode, message(raw, http.StatusText(resp.StatusCode)))
	}
	if b, ok := out.(*[]byte); ok {
		*b = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("homeassistant: %s %s: the answer is not the documented JSON: %w", method, path, err)
	}
	return nil
}

// message is the "message" of a JSON error body, else the body's first
// line (aiohttp's plain-text errors), else def.
func message(raw []byte, def string) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &m) == nil && m.Message != "" {
		return clip(m.Message, 200)
	}
	if line, _, _ := strings.Cut(strings.TrimSpace(string(raw)), "\n"); line != "" && !strings.HasPrefix(line, "<") {
		return clip(line, 200)
	}
	return def
}

// reason shortens a transport error to what a person can act on.
func reason(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "no answer in time"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "no such host"):
		return "no such host"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// Connect returns a client for the settings in force now, or
// ErrNotConfigured. The admin can change the settings at any time, so
// tools, the sensor poller and the settings page ask for a client per use
// instead of keeping one.
type Connect func(ctx context.Context) (*Client, error)
