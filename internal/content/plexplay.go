package content

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"hearth/internal/apperr"
)

// Playback on a Plex player through the server: Plex's legacy remote
// control ("companion") API, proxied by the Plex Media Server to the player
// named in the X-Plex-Target-Client-Identifier header. Sources:
//   - GET /clients → MediaContainer.Server[] (name, host, address, port,
//     machineIdentifier, version, protocol, product, deviceClass,
//     protocolVersion, protocolCapabilities as a comma list such as
//     "playback,playqueues,timeline,provider-playback"): LukeHagar/plex-api-spec
//     at 6c561d8 (2025-10, before the overhaul dropped it),
//     output/plex-media-server-spec-dereferenced.yaml "getAvailableClients";
//     python-plexapi 4.16.1 (a8d051f) server.py PlexServer.clients, which
//     reads the same attributes from the XML answer.
//   - the play command: python-plexapi client.py PlexClient.playMedia and
//     sendCommand (with proxyThroughServer the command goes to the server
//     itself): GET /player/playback/playMedia?providerIdentifier=com.plexapp.plugins.library
//     &machineIdentifier={server}&protocol=&address=&port=&offset=0&key=/library/metadata/{id}
//     &type=video&containerKey=/playQueues/{id}?window=100&own=1&commandID=N, header
//     X-Plex-Target-Client-Identifier; the play queue from playqueue.py
//     PlayQueue.create (POST /playQueues?type=video&uri=server://{server}/com.plexapp.plugins.library/library/metadata/{id}
//     → MediaContainer.playQueueID). A logged proxied request of the same
//     form: home-assistant/core#51769. Controllers identify themselves with
//     X-Plex-Client-Identifier and number their commands (commandID) —
//     plexinc/plex-media-player wiki "Remote control API".
//
// Not sent: python-plexapi's token= (a delegation token from
// /security/token for the player to reach the server). A player signed in
// to the household's Plex account reaches its server without it, and
// Hearth hands no credential to a device on the network.
//
// Plex removed "advertise as player" from Plex Web and the desktop apps in
// 2022, so /clients lists mostly TV and mobile apps that are open now.

// PlexControllerID is the X-Plex-Client-Identifier Hearth sends with player
// commands: the controller the player sees.
const PlexControllerID = "hearth-controller"

// PlexPlayer is a player the server knows of now (GET /clients).
type PlexPlayer struct {
	Name              string `json:"name"`
	Host              string `json:"host"`
	Address           string `json:"address"`
	Port              string `json:"port"`
	MachineIdentifier string `json:"machineIdentifier"`
	Product           string `json:"product"`
	DeviceClass       string `json:"deviceClass"`
	Version           string `json:"version"`
	// Capabilities are protocolCapabilities split: timeline, playback,
	// navigation, mirror, playqueues, provider-playback.
	Capabilities []string `json:"capabilities"`
}

// CanPlay says whether the player takes playback commands (its
// protocolCapabilities list "playback") and can be addressed.
func (pl PlexPlayer) CanPlay() bool {
	return slices.Contains(pl.Capabilities, "playback") && plexPlayerID.MatchString(pl.MachineIdentifier)
}

// plexPlayerID bounds a player's machineIdentifier, which travels in a
// header: UUIDs ("A2E901F8-E016-…") and Plex's base-36 ids.
var plexPlayerID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// plexClientsAnswer is /clients in JSON; port, version and protocolVersion
// are numbers in some answers and strings in others (the spec's examples).
type plexClientsAnswer struct {
	MediaContainer struct {
		Server []struct {
			Name                 string  `json:"name"`
			Host                 string  `json:"host"`
			Address              string  `json:"address"`
			Port                 PlexKey `json:"port"`
			MachineIdentifier    string  `json:"machineIdentifier"`
			Product              string  `json:"product"`
			DeviceClass          string  `json:"deviceClass"`
			Version              PlexKey `json:"version"`
			ProtocolCapabilities string  `json:"protocolCapabilities"`
		} `json:"Server"`
	} `json:"MediaContainer"`
}

// Clients lists the players the server knows of now: GET /clients.
func (p *PlexClient) Clients(ctx context.Context) ([]PlexPlayer, error) {
	var c plexClientsAnswer
	if err := p.decodeSmall(ctx, http.MethodGet, "/clients", &c); err != nil {
		return nil, err
	}
	out := make([]PlexPlayer, 0, len(c.MediaContainer.Server))
	for _, s := range c.MediaContainer.Server {
		pl := PlexPlayer{Name: s.Name, Host: s.Host, Address: s.Address, Port: string(s.Port), MachineIdentifier: s.MachineIdentifier,
			Product: s.Product, DeviceClass: s.DeviceClass, Version: string(s.Version)}
		for _, c := range strings.Split(s.ProtocolCapabilities, ",") {
			if c = strings.TrimSpace(c); c != "" {
				pl.Capabilities = append(pl.Capabilities, c)
			}
		}
		out = append(out, pl)
	}
	return out, nil
}

// ErrPlayerGone is wrapped by PlayMedia's error when the server no longer
// knows the player (it was closed or went to sleep).
var ErrPlayerGone = errors.New("content: the Plex player is not available")

// plexCommandID numbers player commands. Players drop a command whose
// commandID is not above the last one seen from the same controller, and
// Hearth builds a PlexClient per use, so the count is process-wide and
// starts from the seconds since 2025 (rising across restarts, well inside
// a 32-bit int for decades).
var plexCommandID atomic.Int64

func init() {
	plexCommandID.Store(time.Now().Unix() - time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
}

// PlayMedia asks the server to make the player play the item ratingKey
// from its start: a play queue holding the item, then
// /player/playback/playMedia proxied to the player (see the sources above).
// The player must be one Clients listed that can play.
func (p *PlexClient) PlayMedia(ctx context.Context, player PlexPlayer, ratingKey string) error {
	if !plexKeyPattern.MatchString(ratingKey) {
		return apperr.Invalidf("Plex rating key %q is not valid", ratingKey)
	}
	if !player.CanPlay() {
		return apperr.Invalidf("the Plex player %q does not take playback commands", player.Name)
	}
	machine, err := p.Identity(ctx)
	if err != nil {
		return err
	}
	uri, err := metadataURI(machine, []string{ratingKey})
	if err != nil {
		return err
	}
	pq := url.Values{"type": {"video"}, "uri": {uri}, "shuffle": {"0"}, "repeat": {"0"}, "continuous": {"0"},
		"includeChapters": {"1"}, "includeRelated": {"1"}}
	var queue struct {
		MediaContainer struct {
			PlayQueueID PlexKey `json:"playQueueID"`
		} `json:"MediaContainer"`
	}
	if err := p.decodeSmall(ctx, http.MethodPost, "/playQueues?"+pq.Encode(), &queue); err != nil {
		return err
	}
	qid := string(queue.MediaContainer.PlayQueueID)
	if !plexKeyPattern.MatchString(qid) {
		return fmt.Errorf("content: plex created a play queue for %s but did not return its id", ratingKey)
	}
	port := p.base.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[p.base.Scheme]
	}
	cmd := url.Values{
		"providerIdentifier": {"com.plexapp.plugins.library"},
		"machineIdentifier":  {machine},
		"protocol":           {p.base.Scheme},
		"address":            {p.base.Hostname()},
		"port":               {port},
		"offset":             {"0"},
		"key":                {"/library/metadata/" + ratingKey},
		"type":               {"video"},
		"containerKey":       {"/playQueues/" + qid + "?window=100&own=1"},
		"commandID":          {strconv.FormatInt(plexCommandID.Add(1), 10)},
	}
	hdr := http.Header{
		"X-Plex-Target-Client-Identifier": {player.MachineIdentifier},
		"X-Plex-Client-Identifier":        {PlexControllerID},
		"X-Plex-Device-Name":              {"Hearth"},
	}
	resp, err := p.send(ctx, http.MethodGet, "/player/playback/playMedia?"+cmd.Encode(), "application/json", hdr)
	if apperr.Is(err, apperr.NotFound) {
		return &apperr.Error{Code: apperr.NotFound, Err: ErrPlayerGone, Message: fmt.Sprintf(
			"Plex cannot reach the player %q any more (HTTP 404): open Plex on it and try again", player.Name)}
	}
	if err != nil && !errors.Is(err, ErrPlexUnauthorized) {
		return fmt.Errorf("Plex could not pass the play command to the player %q: %w", player.Name, err)
	}
	if err != nil {
		return err
	}
	// Players answer XML, "OK" or nothing (python-plexapi sendCommand): only the status counts.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxPlexSmallBody))
	return resp.Body.Close()
}

// SearchPlayable finds movies and episodes in every library section whose
// title matches query: the hub search Search uses (GET /hubs/search),
// without a section, keeping only what a player can start on its own.
func (p *PlexClient) SearchPlayable(ctx context.Context, query string, limit int) ([]PlexMetadata, error) {
	query = strings.TrimSpace(query)
	if query == "" || len(query) > MaxPlexSearchQuery {
		return nil, apperr.Invalidf("a Plex search needs a text of 1 to %d characters", MaxPlexSearchQuery)
	}
	q := url.Values{"query": {query}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var hubs plexHubs
	if err := p.decodeSmall(ctx, http.MethodGet, "/hubs/search?"+q.Encode(), &hubs); err != nil {
		return nil, err
	}
	var out []PlexMetadata
	seen := map[PlexKey]bool{}
	for _, h := range hubs.MediaContainer.Hub {
		for _, md := range h.Metadata {
			if (md.Type == "movie" || md.Type == "episode") && !seen[md.RatingKey] && plexKeyPattern.MatchString(string(md.RatingKey)) {
				seen[md.RatingKey] = true
				out = append(out, md)
			}
		}
	}
	return out, nil
}
