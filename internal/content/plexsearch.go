package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"hearth/internal/apperr"
)

// maxPlexSmallBody bounds an answer that is decoded whole (a search, one
// item, a write's echo), unlike the streamed listings.
const maxPlexSmallBody = 8 << 20

// MaxPlexSearchQuery bounds a search text.
const MaxPlexSearchQuery = 200

// plexHubs is a /hubs/search answer: matches grouped in hubs by type.
type plexHubs struct {
	MediaContainer struct {
		Hub []struct {
			Type     string         `json:"type"`
			Metadata []PlexMetadata `json:"Metadata"`
		} `json:"Hub"`
		Metadata []PlexMetadata `json:"Metadata"`
	} `json:"MediaContainer"`
}

// Search finds items whose title (or a related field) matches query, with
// Plex's hub search: GET /hubs/search?query=…&sectionId=…&limit=… (plex-api-spec
// ae9507e, /hubs/search "searchHubs": matches are returned as Hub[] each with
// Metadata[]; limit is per hub, 3 when not given; sectionId "gives context";
// python-plexapi 4.16.1 server.py PlexServer.search and library.py
// LibrarySection.hubSearch send the same). sectionId only reorders the hubs,
// so entries of other sections are dropped here. Collections, people and
// genres are not items and are dropped too.
func (p *PlexClient) Search(ctx context.Context, query, sectionID string, limit int) ([]PlexMetadata, error) {
	query = strings.TrimSpace(query)
	if query == "" || len(query) > MaxPlexSearchQuery {
		return nil, apperr.Invalidf("a Plex search needs a text of 1 to %d characters", MaxPlexSearchQuery)
	}
	if !plexKeyPattern.MatchString(sectionID) {
		return nil, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	q := url.Values{"query": {query}, "sectionId": {sectionID}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var hubs plexHubs
	if err := p.decodeSmall(ctx, "GET", "/hubs/search?"+q.Encode(), &hubs); err != nil {
		return nil, err
	}
	var out []PlexMetadata
	seen := map[PlexKey]bool{}
	for _, h := range hubs.MediaContainer.Hub {
		for _, md := range h.Metadata {
			switch {
			case seen[md.RatingKey] || !plexKeyPattern.MatchString(string(md.RatingKey)):
			case md.LibrarySectionID != "" && string(md.LibrarySectionID) != sectionID:
			case md.Type != "movie" && md.Type != "show" && md.Type != "episode" && md.Type != "season":
			default:
				seen[md.RatingKey] = true
				out = append(out, md)
			}
		}
	}
	return out, nil
}

// Item reads one item (a movie, show, episode or collection) with its
// labels: GET /library/metadata/{ratingKey} → MediaContainer.Metadata[0]
// (plex-api-spec ae9507e, /library/metadata/{ids}).
func (p *PlexClient) Item(ctx context.Context, ratingKey string) (PlexMetadata, error) {
	if !plexKeyPattern.MatchString(ratingKey) {
		return PlexMetadata{}, apperr.Invalidf("Plex rating key %q is not valid", ratingKey)
	}
	var c struct {
		MediaContainer struct {
			Metadata []PlexMetadata `json:"Metadata"`
		} `json:"MediaContainer"`
	}
	if err := p.decodeSmall(ctx, "GET", "/library/metadata/"+ratingKey, &c); err != nil {
		return PlexMetadata{}, err
	}
	if len(c.MediaContainer.Metadata) == 0 {
		return PlexMetadata{}, apperr.NotFoundf("Plex has no item %s", ratingKey)
	}
	return c.MediaContainer.Metadata[0], nil
}

// Collections lists a section's collections, paged: GET
// /library/sections/{sectionId}/collections → Metadata[] of type collection
// (plex-api-spec ae9507e, "getCollections"; python-plexapi's
// LibrarySection.collections searches the section with type 18 instead).
func (p *PlexClient) Collections(ctx context.Context, sectionID string) ([]PlexMetadata, PlexListing, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return nil, PlexListing{}, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	return p.list(ctx, "/library/sections/"+sectionID+"/collections", nil, "section "+sectionID+"'s collections")
}

// CollectionItems lists a collection's items, paged: GET
// /library/collections/{collectionId}/items ("if this collection contains
// more than 100 items, paging must be used", plex-api-spec ae9507e).
func (p *PlexClient) CollectionItems(ctx context.Context, collectionKey string) ([]PlexMetadata, PlexListing, error) {
	if !plexKeyPattern.MatchString(collectionKey) {
		return nil, PlexListing{}, apperr.Invalidf("Plex collection id %q is not valid", collectionKey)
	}
	return p.list(ctx, "/library/collections/"+collectionKey+"/items", nil, "collection "+collectionKey)
}

// decodeSmall sends a request and decodes its JSON answer whole, bounded
// by maxPlexSmallBody (an answer cut there fails to decode).
func (p *PlexClient) decodeSmall(ctx context.Context, method, target string, v any) error {
	resp, err := p.send(ctx, method, target, "application/json", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	path, _, _ := strings.Cut(target, "?")
	lr := &io.LimitedReader{R: resp.Body, N: maxPlexSmallBody + 1}
	if err := json.NewDecoder(lr).Decode(v); err != nil {
		if lr.N <= 0 {
			return fmt.Errorf("content: plex %s %s: the answer is larger than %d bytes", method, path, maxPlexSmallBody)
		}
		return fmt.Errorf("content: plex %s %s: not a Plex JSON answer: %w", method, path, err)
	}
	return nil
}
