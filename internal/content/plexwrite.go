package content

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"hearth/internal/apperr"
)

// Writes to a Plex library: collections and labels. Every write carries
// its arguments in the query string and no body, as python-plexapi 4.16.1
// sends them (collection.py, mixins.py, library.py) and plex-api-spec
// ae9507e documents them. Callers decide whether to write: Hearth's tools
// only propose, and an admin's confirmation applies (internal/curator).

// MaxPlexWriteItems bounds the rating keys one write names (they travel in
// the URL).
const MaxPlexWriteItems = 200

// PlexTypeNumber is the search type number of an item type, as the
// type= parameter of writes takes it (python-plexapi utils.SEARCHTYPES;
// plex-api-spec agrees for 1–4); 0 for others.
func PlexTypeNumber(typ string) int {
	switch typ {
	case "movie":
		return 1
	case "show":
		return 2
	case "season":
		return 3
	case "episode":
		return 4
	}
	return 0
}

// metadataURI names items for a collection write:
// server://{machineIdentifier}/com.plexapp.plugins.library/library/metadata/{k1,k2}
// (python-plexapi server._uriRoot() + "/library/metadata/" + comma-joined keys).
func metadataURI(machine string, keys []string) (string, error) {
	if !plexKeyPattern.MatchString(machine) {
		return "", fmt.Errorf("content: plex machine identifier %q is not valid", machine)
	}
	if err := checkWriteKeys(keys); err != nil {
		return "", err
	}
	return "server://" + machine + "/com.plexapp.plugins.library/library/metadata/" + strings.Join(keys, ","), nil
}

func checkWriteKeys(keys []string) error {
	if len(keys) == 0 || len(keys) > MaxPlexWriteItems {
		return apperr.Invalidf("a Plex write names 1 to %d items, not %d", MaxPlexWriteItems, len(keys))
	}
	for _, k := range keys {
		if !plexKeyPattern.MatchString(k) {
			return apperr.Invalidf("Plex rating key %q is not valid", k)
		}
	}
	return nil
}

// CreateCollection creates a regular collection titled title in a section
// holding the items keys (all of type typ: movie or episode) and returns
// it: POST /library/collections?type=…&title=…&smart=0&sectionId=…&uri=…
// (python-plexapi collection.py Collection._create; plex-api-spec
// "createCollection" answers MediaContainer.Metadata[0]).
func (p *PlexClient) CreateCollection(ctx context.Context, sectionID, title, typ string, keys []string) (PlexMetadata, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return PlexMetadata{}, apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	n := PlexTypeNumber(typ)
	if n == 0 {
		return PlexMetadata{}, apperr.Invalidf("a collection holds movies, shows, seasons or episodes, not %q", typ)
	}
	title = strings.TrimSpace(title)
	if title == "" {
		return PlexMetadata{}, apperr.Invalidf("a collection needs a title")
	}
	machine, err := p.Identity(ctx)
	if err != nil {
		return PlexMetadata{}, err
	}
	uri, err := metadataURI(machine, keys)
	if err != nil {
		return PlexMetadata{}, err
	}
	q := url.Values{"type": {strconv.Itoa(n)}, "title": {title}, "smart": {"0"}, "sectionId": {sectionID}, "uri": {uri}}
	var c struct {
		MediaContainer struct {
			Metadata []PlexMetadata `json:"Metadata"`
		} `json:"MediaContainer"`
	}
	if err := p.decodeSmall(ctx, http.MethodPost, "/library/collections?"+q.Encode(), &c); err != nil {
		return PlexMetadata{}, err
	}
	if len(c.MediaContainer.Metadata) == 0 {
		return PlexMetadata{}, fmt.Errorf("content: plex created collection %q but did not return it", title)
	}
	return c.MediaContainer.Metadata[0], nil
}

// AddToCollection adds items to a regular collection: PUT
// /library/collections/{collectionId}/items?uri=… (plex-api-spec
// "addCollectionItems"; python-plexapi Collection.addItems sends the same
// to /library/metadata/{id}/items, which the spec says is the same route).
func (p *PlexClient) AddToCollection(ctx context.Context, collectionKey string, keys []string) error {
	if !plexKeyPattern.MatchString(collectionKey) {
		return apperr.Invalidf("Plex collection id %q is not valid", collectionKey)
	}
	machine, err := p.Identity(ctx)
	if err != nil {
		return err
	}
	uri, err := metadataURI(machine, keys)
	if err != nil {
		return err
	}
	return p.write(ctx, http.MethodPut, "/library/collections/"+collectionKey+"/items?"+url.Values{"uri": {uri}}.Encode())
}

// SetLabels sets the labels of items of one type in a section to labels,
// locked: PUT /library/sections/{id}/all?type=…&id=k1,k2&label[0].tag.tag=…&label.locked=1
// (python-plexapi mixins.py EditTagsMixin.editTags/_tagHelper and
// library.py LibrarySection._edit; plex-api-spec PUT
// /library/sections/{sectionId}/all). python-plexapi's addLabel sends the
// item's current labels plus the new one, as if the indexed list replaces
// the set, so labels must be the items' whole desired set: callers group
// items by their current labels.
func (p *PlexClient) SetLabels(ctx context.Context, sectionID, typ string, keys, labels []string) error {
	if !plexKeyPattern.MatchString(sectionID) {
		return apperr.Invalidf("Plex section id %q is not valid", sectionID)
	}
	n := PlexTypeNumber(typ)
	if n == 0 {
		return apperr.Invalidf("labels go on movies, shows, seasons or episodes, not %q", typ)
	}
	if err := checkWriteKeys(keys); err != nil {
		return err
	}
	q := url.Values{"type": {strconv.Itoa(n)}, "id": {strings.Join(keys, ",")}, "label.locked": {"1"}}
	for i, l := range labels {
		q.Set("label["+strconv.Itoa(i)+"].tag.tag", l)
	}
	return p.write(ctx, http.MethodPut, "/library/sections/"+sectionID+"/all?"+q.Encode())
}

// write sends a write whose answer Hearth does not read (drained, bounded).
func (p *PlexClient) write(ctx context.Context, method, target string) error {
	resp, err := p.send(ctx, method, target, "application/json", nil)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxPlexSmallBody))
	return resp.Body.Close()
}
