package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"hearth/internal/apperr"
)

// ErrPlexUnauthorized is wrapped by errors for a 401/403 answer from Plex.
var ErrPlexUnauthorized = errors.New("content: plex rejected the token")

// maxPlexBody bounds one Plex JSON answer. Answers are decoded as they
// stream in, one entry at a time, so memory does not grow with this bound;
// it only stops a server that never ends its answer.
const maxPlexBody = 1 << 30

// plexPageSize is how many entries one listing request asks for
// (X-Plex-Container-Size); a 50,000-episode library takes 100 requests.
const plexPageSize = 500

var plexKeyPattern = regexp.MustCompile(`^[A-Za-z0-9]{1,40}$`)

// PlexClient reads a Plex Media Server library over its HTTP API. The token
// travels only in the X-Plex-Token header: it never appears in request URLs,
// errors, logs or the items it produces. Redirects are not followed, so the
// header cannot leak to another host.
type PlexClient struct {
	base  *url.URL
	token string
	hc    *http.Client
}

// NewPlexClient returns a client for the server at baseURL (e.g.
// "http://192.168.1.5:32400"). hc may be nil (30 s timeout); it is copied so
// that redirects can be refused. The URL must not carry credentials or a query.
func NewPlexClient(baseURL, token string, hc *http.Client) (*PlexClient, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(baseURL), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, apperr.Invalidf("Plex URL must look like http://host:32400")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, apperr.Invalidf("Plex URL must not contain credentials, a query or a fragment; set the token separately")
	}
	if strings.TrimSpace(token) == "" {
		return nil, apperr.Invalidf("a Plex token is required")
	}
	c := http.Client{Timeout: 30 * time.Second}
	if hc != nil {
		c = *hc
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &PlexClient{base: u, token: strings.TrimSpace(token), hc: &c}, nil
}

// BaseURL returns the server address (no token).
func (p *PlexClient) BaseURL() string { return p.base.String() }

// LogValue keeps the token out of logs.
func (p *PlexClient) LogValue() slog.Value {
	return slog.GroupValue(slog.String("url", p.base.String()), slog.String("token", "***"))
}

// AuthorizedURL returns base+path with the token as a query parameter, for
// server-side fetches by clients that cannot set headers. Never render it to
// a page, log it or store it.
func (p *PlexClient) AuthorizedURL(path string) string {
	return p.base.String() + path + "?X-Plex-Token=" + url.QueryEscape(p.token)
}

// PlexMetadata is one entry of a Plex MediaContainer (show, season, episode, movie).
type PlexMetadata struct {
	RatingKey            PlexKey     `json:"ratingKey"`
	GrandparentRatingKey PlexKey     `json:"grandparentRatingKey"` // an episode's show
	Key                  string      `json:"key"`
	Type                 string      `json:"type"`
	Title                string      `json:"title"`
	Summary              string      `json:"summary"`
	Index                int         `json:"index"`
	ParentIndex          int         `json:"parentIndex"`
	ParentTitle          string      `json:"parentTitle"`
	GrandparentTitle     string      `json:"grandparentTitle"`
	Duration             int64       `json:"duration"` // milliseconds
	Thumb                string      `json:"thumb"`
	LeafCount            int         `json:"leafCount"`
	Media                []plexMedia `json:"Media"`
	// Label are the item's labels ({"id", "filter", "tag"} on current
	// servers; only tag is read): "intensity:high", "impact:low",
	// "area:knee" set the content metadata (see labelMeta).
	Label []PlexTag `json:"Label"`
}

// PlexTag is one entry of a Plex tag list (Label, Genre, Collection).
type PlexTag struct {
	Tag string `json:"tag"`
}

// labels returns the tags' text.
func (md PlexMetadata) labels() []string {
	out := make([]string, 0, len(md.Label))
	for _, l := range md.Label {
		out = append(out, l.Tag)
	}
	return out
}

type plexMedia struct {
	Duration int64 `json:"duration"`
	Part     []struct {
		Key string `json:"key"`
	} `json:"Part"`
}

// PlexSection is a library section (Plex calls it a Directory).
type PlexSection struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	Type  string `json:"type"` // show, movie, artist, photo
}

// plexPage is what a listing answer says about itself.
type plexPage struct {
	count, size, totalSize, offset int
	hasTotal, hasOffset            bool
	machine                        string
}

// PlexKey is a Plex ratingKey; it decodes from a JSON string or number.
type PlexKey string

// UnmarshalJSON accepts a JSON string or number.
func (k *PlexKey) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*k = PlexKey(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*k = PlexKey(n.String())
	return nil
}

// Identity returns the server's machine identifier (used in play URLs).
func (p *PlexClient) Identity(ctx context.Context) (string, error) {
	pg, err := p.page(ctx, "/identity", nil, -1, nil, nil)
	return pg.machine, err
}

// Sections lists the library sections.
func (p *PlexClient) Sections(ctx context.Context) ([]PlexSection, error) {
	var dirs []PlexSection
	_, err := p.page(ctx, "/library/sections", nil, -1, nil, &dirs)
	return dirs, err
}

// SectionItems lists a section's top-level entries (shows or movies).
func (p *PlexClient) SectionItems(ctx context.Context, sectionID string) ([]PlexMetadata, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return nil, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	return p.list(ctx, "/library/sections/"+sectionID+"/all", nil)
}

// EachSectionEpisode hands every episode of a show section to fn: one
// listing of type 4 (episode), paged, instead of a request per show and
// season. Episodes carry their show (grandparentRatingKey), season
// (parentIndex) and number (index).
func (p *PlexClient) EachSectionEpisode(ctx context.Context, sectionID string, fn func(PlexMetadata) error) error {
	if !plexKeyPattern.MatchString(sectionID) {
		return apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	return p.each(ctx, "/library/sections/"+sectionID+"/all", url.Values{"type": {"4"}}, fn)
}

// Children lists a show's seasons or a season's episodes.
func (p *PlexClient) Children(ctx context.Context, ratingKey string) ([]PlexMetadata, error) {
	if !plexKeyPattern.MatchString(ratingKey) {
		return nil, apperr.Invalidf("Plex rating key %q is not valid", ratingKey)
	}
	return p.list(ctx, "/library/metadata/"+ratingKey+"/children", nil)
}

func (p *PlexClient) list(ctx context.Context, path string, query url.Values) ([]PlexMetadata, error) {
	var out []PlexMetadata
	err := p.each(ctx, path, query, func(md PlexMetadata) error {
		out = append(out, md)
		return nil
	})
	return out, err
}

// each pages through a listing with X-Plex-Container-Start/-Size, handing
// every entry to fn as it is decoded. It asks for the next page only after
// a full page from a server that reports where it is (offset, totalSize, in
// the body or the headers) and has more; a server that ignores paging sent
// everything at once.
func (p *PlexClient) each(ctx context.Context, path string, query url.Values, fn func(PlexMetadata) error) error {
	start := 0
	for pages := 1; ; pages++ {
		pg, err := p.page(ctx, path, query, start, fn, nil)
		if err != nil {
			return err
		}
		start += pg.count
		more := pg.count == plexPageSize && (pg.hasOffset || pg.hasTotal) &&
			(!pg.hasOffset || pg.offset == start-pg.count) && (!pg.hasTotal || start < pg.totalSize)
		if !more {
			return nil
		}
		if pages >= maxPlexPages {
			return fmt.Errorf("content: plex GET %s: more than %d entries", path, maxPlexPages*plexPageSize)
		}
	}
}

// maxPlexPages bounds one listing (10 million entries).
const maxPlexPages = 20_000

// page fetches one answer and decodes it as it streams: entries of its
// Metadata array go to fn one at a time, its Directory to dirs. start < 0
// asks for no paging.
func (p *PlexClient) page(ctx context.Context, path string, query url.Values, start int, fn func(PlexMetadata) error,
	dirs *[]PlexSection) (plexPage, error) {
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var hdr http.Header
	if start >= 0 {
		hdr = http.Header{"X-Plex-Container-Start": {strconv.Itoa(start)}, "X-Plex-Container-Size": {strconv.Itoa(plexPageSize)}}
	}
	resp, err := p.do(ctx, target, "application/json", hdr)
	if err != nil {
		return plexPage{}, err
	}
	defer resp.Body.Close()
	pg, err := decodePlexPage(io.LimitReader(resp.Body, maxPlexBody), fn, dirs)
	if err != nil {
		var fe fnError
		if errors.As(err, &fe) {
			return pg, fe.err
		}
		return pg, fmt.Errorf("content: plex GET %s: unreadable JSON answer: %w", path, err)
	}
	// Older servers put the paging figures in headers only.
	if v, err := strconv.Atoi(resp.Header.Get("X-Plex-Container-Total-Size")); err == nil && !pg.hasTotal {
		pg.totalSize, pg.hasTotal = v, true
	}
	if v, err := strconv.Atoi(resp.Header.Get("X-Plex-Container-Start")); err == nil && !pg.hasOffset {
		pg.offset, pg.hasOffset = v, true
	}
	return pg, nil
}

// fnError carries an error of the caller's fn out of the decoder untouched.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// decodePlexPage reads {"MediaContainer": {...}} token by token: only one
// Metadata entry is in memory at a time.
func decodePlexPage(r io.Reader, fn func(PlexMetadata) error, dirs *[]PlexSection) (plexPage, error) {
	var pg plexPage
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return pg, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return pg, err
		}
		if key == "MediaContainer" {
			err = decodeContainer(dec, &pg, fn, dirs)
		} else {
			err = skipValue(dec)
		}
		if err != nil {
			return pg, err
		}
	}
	return pg, expectDelim(dec, '}')
}

// decodeContainer reads the MediaContainer object's fields.
func decodeContainer(dec *json.Decoder, pg *plexPage, fn func(PlexMetadata) error, dirs *[]PlexSection) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case "Metadata":
			err = decodeMetadata(dec, pg, fn)
		case "Directory":
			if dirs == nil {
				err = skipValue(dec)
			} else {
				err = dec.Decode(dirs)
			}
		case "size":
			err = dec.Decode(&pg.size)
		case "totalSize":
			err, pg.hasTotal = dec.Decode(&pg.totalSize), true
		case "offset":
			err, pg.hasOffset = dec.Decode(&pg.offset), true
		case "machineIdentifier":
			err = dec.Decode(&pg.machine)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// decodeMetadata hands each entry of the Metadata array to fn as it is read.
func decodeMetadata(dec *json.Decoder, pg *plexPage, fn func(PlexMetadata) error) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		var md PlexMetadata
		if err := dec.Decode(&md); err != nil {
			return err
		}
		pg.count++
		if fn != nil {
			if err := fn(md); err != nil {
				return fnError{err}
			}
		}
	}
	return expectDelim(dec, ']')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, found %v", want, tok)
	}
	return nil
}

// skipValue reads past one value without keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// OpenThumb fetches an image under /library/ (an Item's SourceThumb) with the
// token in a header, for a server-side thumbnail proxy (which should also send
// X-Content-Type-Options: nosniff). Only raster image answers are returned;
// the body is capped at 10 MiB. The caller closes it.
func (p *PlexClient) OpenThumb(ctx context.Context, path string) (body io.ReadCloser, contentType string, err error) {
	if !strings.HasPrefix(path, "/library/") || strings.Contains(path, "..") || strings.ContainsAny(path, "?#") {
		return nil, "", apperr.Invalidf("not a Plex library image path")
	}
	resp, err := p.do(ctx, path, "image/*", nil)
	if err != nil {
		return nil, "", err
	}
	// Only images pass: HTML or SVG from upstream served on our origin could run script.
	contentType = resp.Header.Get("Content-Type")
	if !strings.HasPrefix(contentType, "image/") || strings.Contains(contentType, "svg") {
		_ = resp.Body.Close()
		return nil, "", fmt.Errorf("content: plex GET %s: not a raster image (%q)", path, contentType)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, 10<<20), resp.Body}, contentType, nil
}

// do sends an authorized GET and returns a 200 response or a clear error.
func (p *PlexClient) do(ctx context.Context, path, accept string, hdr http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base.String()+path, nil)
	if err != nil {
		return nil, fmt.Errorf("content: plex GET %s: %w", path, err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("X-Plex-Token", p.token)
	req.Header.Set("Accept", accept)
	req.Header.Set("X-Plex-Product", "Hearth")
	resp, err := p.hc.Do(req)
	if err != nil {
		return nil, &redactedError{msg: p.redact(fmt.Sprintf("content: plex GET %s: %v", path, err)), err: err}
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, &apperr.Error{Code: apperr.Invalid, Err: ErrPlexUnauthorized, Message: fmt.Sprintf(
			"Plex rejected the token (HTTP %d) for %s: check PLEX_TOKEN", resp.StatusCode, path)}
	case http.StatusNotFound:
		return nil, apperr.NotFoundf("Plex has nothing at %s (HTTP 404)", path)
	}
	return nil, fmt.Errorf("content: plex GET %s: unexpected HTTP %d", path, resp.StatusCode)
}

func (p *PlexClient) redact(s string) string {
	s = strings.ReplaceAll(s, p.token, "***")
	return strings.ReplaceAll(s, url.QueryEscape(p.token), "***")
}

// redactedError hides a message that might echo a secret while keeping the
// cause reachable for errors.Is (context cancellation, timeouts).
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// plexMinutes converts a Plex duration in milliseconds to whole minutes (≥ 1 when positive).
func plexMinutes(ms int64) int {
	if ms <= 0 {
		return 0
	}
	return max(1, int((ms+30_000)/60_000))
}
