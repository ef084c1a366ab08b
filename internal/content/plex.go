package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"regexp"
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
	u, err := ParsePlexURL(baseURL)
	if err != nil {
		return nil, err
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

// ParsePlexURL checks a Plex server address: http or https, a host, no
// credentials, query or fragment (the token travels in a header).
func ParsePlexURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, apperr.Invalidf("Plex URL must look like http://host:32400")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, apperr.Invalidf("Plex URL must not contain credentials, a query or a fragment; set the token separately")
	}
	return u, nil
}

// ValidPlexKey reports whether s can be a section id or rating key.
func ValidPlexKey(s string) bool { return plexKeyPattern.MatchString(s) }

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
	ParentThumb          string      `json:"parentThumb"`      // an episode's season
	GrandparentThumb     string      `json:"grandparentThumb"` // an episode's show
	LeafCount            int         `json:"leafCount"`
	Media                []plexMedia `json:"Media"`
	// Label are the item's labels ({"id", "filter", "tag"} on current
	// servers; only tag is read): "intensity:high", "impact:low",
	// "area:knee" set the content metadata (see labelMeta).
	Label []PlexTag `json:"Label"`
	// LibrarySectionID is the item's section (metadata and search answers).
	LibrarySectionID PlexKey `json:"librarySectionID"`
	Year             int     `json:"year"`
	// ChildCount and Subtype describe a collection: how many items it
	// holds and their type.
	ChildCount int    `json:"childCount"`
	Subtype    string `json:"subtype"`
}

// PlexTag is one entry of a Plex tag list (Label, Genre, Collection).
type PlexTag struct {
	Tag string `json:"tag"`
}

// Labels returns the item's labels' text.
func (md PlexMetadata) Labels() []string { return md.labels() }

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
func (p *PlexClient) SectionItems(ctx context.Context, sectionID string) ([]PlexMetadata, PlexListing, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return nil, PlexListing{}, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	return p.list(ctx, "/library/sections/"+sectionID+"/all", nil, "section "+sectionID+"'s shows and movies")
}

// EachSectionEpisode hands every episode of a show section to fn: one
// listing of type 4 (episode), paged, instead of a request per show and
// season. Episodes carry their show (grandparentRatingKey), season
// (parentIndex) and number (index).
func (p *PlexClient) EachSectionEpisode(ctx context.Context, sectionID string, fn func(PlexMetadata) error) (PlexListing, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return PlexListing{}, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	return p.each(ctx, "/library/sections/"+sectionID+"/all", url.Values{"type": {"4"}}, "section "+sectionID+"'s episodes", fn)
}

// Children lists a show's seasons or a season's episodes.
func (p *PlexClient) Children(ctx context.Context, ratingKey string) ([]PlexMetadata, PlexListing, error) {
	if !plexKeyPattern.MatchString(ratingKey) {
		return nil, PlexListing{}, apperr.Invalidf("Plex rating key %q is not valid", ratingKey)
	}
	return p.list(ctx, "/library/metadata/"+ratingKey+"/children", nil, "the children of "+ratingKey)
}

func (p *PlexClient) list(ctx context.Context, path string, query url.Values, what string) ([]PlexMetadata, PlexListing, error) {
	var out []PlexMetadata
	ls, err := p.each(ctx, path, query, what, func(md PlexMetadata) error {
		out = append(out, md)
		return nil
	})
	return out, ls, err
}

// OpenThumb fetches an image under /library/ (an Item's SourceThumb) with the
// token in a header, for the server-side thumbnail cache (PlexThumbs). Only
// raster pictures (JPEG, PNG, GIF, WebP) are returned, with their media type
// (parameters dropped); the body is capped at MaxThumbBytes+1 so that the
// caller can tell a picture that is too large. The caller closes it.
func (p *PlexClient) OpenThumb(ctx context.Context, path string) (body io.ReadCloser, contentType string, err error) {
	if !strings.HasPrefix(path, "/library/") || strings.Contains(path, "..") || strings.ContainsAny(path, "?#") {
		return nil, "", apperr.Invalidf("not a Plex library image path")
	}
	resp, err := p.do(ctx, path, "image/*", nil)
	if err != nil {
		return nil, "", err
	}
	// Only pictures pass: HTML or SVG from upstream served on our origin could run script.
	contentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if _, ok := thumbTypes[contentType]; !ok {
		_ = resp.Body.Close()
		return nil, "", fmt.Errorf("content: plex GET %s: not a raster image (%q)", path, resp.Header.Get("Content-Type"))
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, MaxThumbBytes+1), resp.Body}, contentType, nil
}

// do sends an authorized GET and returns a 200 response or a clear error.
func (p *PlexClient) do(ctx context.Context, path, accept string, hdr http.Header) (*http.Response, error) {
	return p.send(ctx, http.MethodGet, path, accept, hdr)
}

// send sends an authorized request without a body (Plex writes carry
// everything in the query) and returns a 200 response or a clear error.
func (p *PlexClient) send(ctx context.Context, method, path, accept string, hdr http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.base.String()+path, nil)
	if err != nil {
		return nil, fmt.Errorf("content: plex %s %s: %w", method, path, err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("X-Plex-Token", p.token)
	req.Header.Set("Accept", accept)
	req.Header.Set("X-Plex-Product", "Hearth")
	resp, err := p.hc.Do(req)
	if err != nil {
		return nil, &redactedError{msg: p.redact(fmt.Sprintf("Plex did not answer at %s (%s %s): %v", p.base, method, path, err)), err: err}
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, &apperr.Error{Code: apperr.Invalid, Err: ErrPlexUnauthorized, Message: fmt.Sprintf(
			"Plex rejected the token (HTTP %d) for %s: the token is wrong or was revoked; check the Plex token (Admin → Integrations, or PLEX_TOKEN)", resp.StatusCode, path)}
	case http.StatusNotFound:
		return nil, apperr.NotFoundf("Plex has nothing at %s (HTTP 404)", path)
	}
	return nil, fmt.Errorf("content: plex %s %s: unexpected HTTP %d", method, path, resp.StatusCode)
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
