package plextest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The players and remote-control endpoints, as Plex and python-plexapi
// 4.16.1 (commit a8d051f) use them:
//   - GET /clients answers MediaContainer.Server[] with name, host,
//     address, port (a number), machineIdentifier, version, protocol,
//     product, deviceClass, protocolVersion (a number) and
//     protocolCapabilities, a comma list (LukeHagar/plex-api-spec at
//     6c561d8, output/plex-media-server-spec-dereferenced.yaml
//     "getAvailableClients"; python-plexapi server.py clients).
//   - POST /playQueues?type=video&uri=server://{machine}/com.plexapp.plugins.library/library/metadata/{id}&…
//     answers MediaContainer.playQueueID (python-plexapi playqueue.py
//     PlayQueue.create).
//   - GET /player/playback/playMedia?key=&machineIdentifier=&address=&port=&offset=&type=&containerKey=&commandID=
//     with the header X-Plex-Target-Client-Identifier is passed on to that
//     player (python-plexapi client.py playMedia/sendCommand through the
//     server; home-assistant/core#51769 logs one).
//
// Not verified against a real server (integrations.md "Could not verify"):
// what the server answers for a target it does not know. The fake answers
// 404 for an unknown or non-playing target and 400 for a command without
// a target or with parameters that do not hold together, so a client that
// sends the wrong header fails here.

// Player is a player the server knows of.
type Player struct {
	Name, Host, Address string
	Port                int
	MachineIdentifier   string
	Product             string
	DeviceClass         string
	// Capabilities is protocolCapabilities, e.g. "timeline,playback,navigation".
	Capabilities string
}

// TV is a player that plays: a Plex for Android (TV) app, as /clients
// lists one.
func TV(name, id string) Player {
	return Player{Name: name, Host: "192.168.1.40", Address: "192.168.1.40", Port: 32500, MachineIdentifier: id,
		Product: "Plex for Android (TV)", DeviceClass: "stb", Capabilities: "timeline,playback,navigation,mirror,playqueues,provider-playback"}
}

// Play is one playMedia command the server passed on.
type Play struct {
	// Client is the X-Plex-Target-Client-Identifier header; Controller the
	// X-Plex-Client-Identifier one.
	Client, Controller string
	// Key is the key parameter (/library/metadata/{id}); RatingKey its id.
	Key, RatingKey string
	// Params are all the query parameters sent.
	Params url.Values
}

// playback is the fake's player state (Server.players).
type playback struct {
	players []Player
	plays   []Play
	queues  map[string]string // play queue id → the rating key it holds
}

// SetPlayers replaces the players the server knows of.
func (s *Server) SetPlayers(players ...Player) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.players.players = append([]Player(nil), players...)
}

// Plays returns the playMedia commands passed on so far.
func (s *Server) Plays() []Play {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Play, len(s.players.plays))
	for i, p := range s.players.plays {
		p.Params = cloneValues(p.Params)
		out[i] = p
	}
	return out
}

// servePlayers answers the player endpoints; false when r is none of them.
// Called under s.mu with the token checked.
func (s *Server) servePlayers(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/clients":
		list := make([]map[string]any, 0, len(s.players.players))
		for _, p := range s.players.players {
			list = append(list, map[string]any{"name": p.Name, "host": p.Host, "address": p.Address, "port": p.Port,
				"machineIdentifier": p.MachineIdentifier, "version": "8.17", "protocol": "plex", "product": p.Product,
				"deviceClass": p.DeviceClass, "protocolVersion": 2, "protocolCapabilities": p.Capabilities})
		}
		c := map[string]any{"size": len(list)}
		if len(list) > 0 {
			c["Server"] = list
		}
		s.json(w, r, c)
	case r.Method == http.MethodPost && r.URL.Path == "/playQueues":
		q := r.URL.Query()
		keys, ok := s.uriKeys(q.Get("uri"))
		if !ok || len(keys) != 1 || q.Get("type") == "" {
			badRequest(w)
			return true
		}
		if s.players.queues == nil {
			s.players.queues = map[string]string{}
		}
		id := strconv.Itoa(800 + len(s.players.queues))
		s.players.queues[id] = keys[0]
		it, _ := s.find(keys[0])
		s.json(w, r, map[string]any{"size": 1, "identifier": "com.plexapp.plugins.library", "playQueueID": number(id),
			"playQueueSelectedItemID": 9000, "playQueueSelectedItemOffset": 0, "playQueueTotalCount": 1,
			"playQueueVersion": 1, "Metadata": []map[string]any{it.metadata()}})
	case strings.HasPrefix(r.URL.Path, "/player/"):
		s.playerCommand(w, r)
	default:
		return false
	}
	return true
}

// playerCommand checks a proxied player command and records a playMedia.
func (s *Server) playerCommand(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Plex-Target-Client-Identifier")
	if target == "" {
		badRequest(w)
		return
	}
	var player *Player
	for i, p := range s.players.players {
		if p.MachineIdentifier == target {
			player = &s.players.players[i]
		}
	}
	if player == nil || !strings.Contains(","+player.Capabilities+",", ",playback,") {
		notFound(w)
		return
	}
	if r.URL.Path != "/player/playback/playMedia" {
		w.WriteHeader(http.StatusOK)
		return
	}
	q := r.URL.Query()
	rk, ok := strings.CutPrefix(q.Get("key"), "/library/metadata/")
	queue, _, _ := strings.Cut(strings.TrimPrefix(q.Get("containerKey"), "/playQueues/"), "?")
	if _, err := strconv.Atoi(q.Get("commandID")); err != nil || !ok || q.Get("machineIdentifier") != s.Machine ||
		q.Get("address") == "" || q.Get("port") == "" || (q.Get("containerKey") != "" && s.players.queues[queue] != rk) {
		badRequest(w)
		return
	}
	if it, _ := s.find(rk); it == nil {
		badRequest(w)
		return
	}
	s.players.plays = append(s.players.plays, Play{Client: target, Controller: r.Header.Get("X-Plex-Client-Identifier"),
		Key: q.Get("key"), RatingKey: rk, Params: cloneValues(q)})
	// Players answer with a bare Response element (python-plexapi sendCommand's notes).
	w.Header().Set("Content-Type", "text/xml;charset=utf-8")
	_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Response code="200" status="OK"/>`))
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
