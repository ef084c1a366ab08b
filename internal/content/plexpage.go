package content

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// plexPageSize is how many entries one listing request asks for
// (X-Plex-Container-Size); a 50,000-episode library takes 100 requests.
const plexPageSize = 500

// maxPlexPages bounds one listing, whatever the server reports.
const maxPlexPages = 20_000

// PlexListing is what one paged listing came to: what the server said it
// held and what it sent. Warnings say where the two disagree.
type PlexListing struct {
	// Title is the section's title when the server named it (librarySectionTitle).
	Title string
	// Received counts the distinct entries handed on (a repeated ratingKey once).
	Received int
	// Total is the size the server reported (totalSize or
	// X-Plex-Container-Total-Size); -1 when it reported none.
	Total int
	// Pages counts the requests.
	Pages    int
	Warnings []string
}

// each pages through a listing with X-Plex-Container-Start/-Size, handing
// every entry to fn as it is decoded. A server may answer fewer entries
// than asked for, or not page at all ("the response must be checked",
// plex-api-spec description.md, Pagination): while it reports a total
// (the MediaContainer's totalSize, else the X-Plex-Container-Total-Size
// header) the next page starts after what has come, until the total is
// reached. Without a total, full pages are followed as before. The loop
// is bounded: an empty page, a page of only repeated entries (a server
// ignoring X-Plex-Container-Start) or maxPlexPages ends it, with a
// warning; so does a total that the entries received do not match.
func (p *PlexClient) each(ctx context.Context, path string, query url.Values, what string, fn func(PlexMetadata) error) (PlexListing, error) {
	ls := PlexListing{Total: -1}
	seen := map[PlexKey]bool{}
	fresh := 0
	onEntry := func(md PlexMetadata) error {
		if md.RatingKey != "" {
			if seen[md.RatingKey] {
				return nil
			}
			seen[md.RatingKey] = true
		}
		fresh++
		return fn(md)
	}
	for start := 0; ; {
		fresh = 0
		pg, err := p.page(ctx, path, query, start, onEntry, nil)
		if err != nil {
			return ls, err
		}
		ls.Pages++
		ls.Received += fresh
		ls.Title = cmp.Or(ls.Title, pg.title)
		if pg.hasTotal {
			ls.Total = pg.totalSize
		}
		start += pg.count
		stop := ""
		switch {
		case ls.Total < 0:
			// No total: a server that pages says where it is; follow its full pages.
			if pg.count < plexPageSize || !pg.hasOffset {
				return ls, nil
			}
		case ls.Received >= ls.Total:
			ls.warnMismatch(what)
			return ls, nil
		case pg.count == 0:
			stop = fmt.Sprintf("an empty page at entry %d", start)
		case fresh == 0:
			stop = fmt.Sprintf("the same entries again at entry %d (it ignores X-Plex-Container-Start)", start-pg.count)
		}
		if stop == "" && ls.Pages >= maxPlexPages {
			stop = fmt.Sprintf("more than %d pages", maxPlexPages)
		}
		if stop != "" {
			ls.Warnings = append(ls.Warnings, fmt.Sprintf("Plex reported %d entries in %s but sent %d, then %s: the rest was not read",
				ls.Total, what, ls.Received, stop))
			return ls, nil
		}
	}
}

// warnMismatch notes a listing that ended with more entries than reported.
func (ls *PlexListing) warnMismatch(what string) {
	if ls.Total >= 0 && ls.Received != ls.Total {
		ls.Warnings = append(ls.Warnings, fmt.Sprintf("Plex reported %d entries in %s but sent %d", ls.Total, what, ls.Received))
	}
}

// plexPage is what a listing answer says about itself.
type plexPage struct {
	count, size, totalSize, offset int
	hasTotal, hasOffset            bool
	machine, version               string
	title                          string // librarySectionTitle
}

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
		case "version":
			err = dec.Decode(&pg.version)
		case "librarySectionTitle":
			err = dec.Decode(&pg.title)
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
