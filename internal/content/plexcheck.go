package content

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// PlexIdentity is what GET /identity says of a server. Plex answers it
// without a token (LukeHagar/plex-api-spec plex-api-spec.yaml, /identity:
// security - {}; MediaContainer.machineIdentifier and version), so it
// proves the address, not the token.
type PlexIdentity struct {
	Machine, Version string
}

// ServerIdentity asks the server who it is.
func (p *PlexClient) ServerIdentity(ctx context.Context) (PlexIdentity, error) {
	pg, err := p.page(ctx, "/identity", nil, -1, nil, nil)
	return PlexIdentity{Machine: pg.machine, Version: pg.version}, err
}

// SectionSize is how many top-level entries (shows or movies) a section
// holds, asked as a page of none: the answer carries only totalSize (the
// way pkkid/python-plexapi plexapi/library.py LibrarySection.totalViewSize
// asks: X-Plex-Container-Start 0, X-Plex-Container-Size 0). -1 when the
// server reports no total.
func (p *PlexClient) SectionSize(ctx context.Context, sectionID string) (int, error) {
	if !plexKeyPattern.MatchString(sectionID) {
		return 0, fmt.Errorf("content: Plex section id %q is not valid", sectionID)
	}
	path := "/library/sections/" + sectionID + "/all"
	resp, err := p.do(ctx, path, "application/json", http.Header{"X-Plex-Container-Start": {"0"}, "X-Plex-Container-Size": {"0"}})
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	pg, err := decodePlexPage(io.LimitReader(resp.Body, 1<<20), nil, nil)
	if err != nil {
		return 0, fmt.Errorf("content: plex GET %s: unreadable JSON answer: %w", path, err)
	}
	if v, err := strconv.Atoi(resp.Header.Get("X-Plex-Container-Total-Size")); err == nil && !pg.hasTotal {
		pg.totalSize, pg.hasTotal = v, true
	}
	if !pg.hasTotal {
		return -1, nil
	}
	return pg.totalSize, nil
}
