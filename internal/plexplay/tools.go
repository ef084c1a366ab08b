// Package plexplay is the Plex playback tool factory: it lists the Plex
// players that are on, finds playable items by title and asks the Plex
// server to play one on a player ("play my yoga session on the living room
// TV"). It is separate from the media curator's plex factory
// (internal/curator), which reads and curates the library and never plays.
// Which roles may play where is the caller's policy: plex_play's arguments
// (PlayArgs) name the target player.
package plexplay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/text"
)

// FactoryName is the name agent definitions list ("factories": ["plexplay"]).
const FactoryName = "plexplay"

// Tool names.
const (
	ToolListClients = "plex_list_clients"
	ToolFindMedia   = "plex_find_media"
	ToolPlay        = "plex_play"
)

// MaxFound caps plex_find_media's answer: a model picks one item.
const MaxFound = 10

// ErrNotConfigured is what connect returns when Plex is not set up.
var ErrNotConfigured = errors.New("Plex is not configured: set its URL and token in Admin → Integrations")

// ErrNoPlayer: no player that takes playback commands is on.
var ErrNoPlayer = errors.New("no Plex player is on: open Plex on the TV first")

// Connect gives a client for the settings in force; ErrNotConfigured (or
// why not) when Plex is not set up. It must not do network I/O: the
// factory's status calls it.
type Connect func(ctx context.Context) (*content.PlexClient, error)

// Tools is the plexplay factory over the Plex settings in force at each
// call. Its status is "" when connect gives a client.
func Tools(connect Connect) *agent.Factory {
	if connect == nil {
		connect = func(context.Context) (*content.PlexClient, error) { return nil, ErrNotConfigured }
	}
	t := tools{connect: connect}
	return agent.NewFactory(FactoryName, "Plex playback",
		"Play the household's Plex videos on a Plex player that is on (a TV's Plex app): list the players, find an item by title, play it on a player.",
		agent.NewTool(ToolListClients, "List the Plex players on now: name, product, id and whether Hearth can start playback on it (can_play). A TV's Plex app appears only while it is open.", t.listClients),
		agent.NewTool(ToolFindMedia, fmt.Sprintf("Find Plex movies and episodes to play by words of their title, e.g. yoga or morning stretch. Returns up to %d items: item (pass it to plex_play), title, type, show, year and duration in minutes.", MaxFound), t.findMedia),
		agent.NewTool(ToolPlay, "Play a Plex item (item from plex_find_media) on a Plex player (client: a player's name from plex_list_clients, any case, or its id). Playback starts from the beginning.", t.play),
	).WithStatus(func(ctx context.Context) string {
		if _, err := connect(ctx); err != nil {
			return err.Error()
		}
		return ""
	})
}

type tools struct{ connect Connect }

// NoArgs are the arguments of tools that take none.
type NoArgs struct{}

// PlayerInfo is one Plex player as the tools report it.
type PlayerInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Product string `json:"product,omitempty"`
	CanPlay bool   `json:"can_play"`
}

// PlayerList is plex_list_clients' result.
type PlayerList struct {
	Count   int          `json:"count"`
	Players []PlayerInfo `json:"players"`
	Note    string       `json:"note,omitempty"`
}

func playerInfo(pl content.PlexPlayer) PlayerInfo {
	return PlayerInfo{ID: clip(pl.MachineIdentifier, 128), Name: displayName(pl), Product: clip(pl.Product, 100), CanPlay: pl.CanPlay()}
}

// displayName is a player's name, or its product when it has none.
func displayName(pl content.PlexPlayer) string {
	if n := clip(pl.Name, 100); n != "" {
		return n
	}
	return clip(pl.Product, 100)
}

func (t tools) listClients(ctx context.Context, _ agent.Scope, _ NoArgs) (PlayerList, error) {
	px, err := t.connect(ctx)
	if err != nil {
		return PlayerList{}, err
	}
	players, err := px.Clients(ctx)
	if err != nil {
		return PlayerList{}, err
	}
	out := PlayerList{Players: []PlayerInfo{}}
	playable := 0
	for _, pl := range players {
		out.Players = append(out.Players, playerInfo(pl))
		if pl.CanPlay() {
			playable++
		}
	}
	out.Count = len(out.Players)
	if playable == 0 {
		out.Note = ErrNoPlayer.Error()
	}
	return out, nil
}

// FindArgs are plex_find_media's arguments.
type FindArgs struct {
	Query string `json:"query" desc:"words of the title, e.g. yoga or morning stretch" schema:"minLength=1,maxLength=200"`
}

// MediaInfo is one playable item as the tools report it.
type MediaInfo struct {
	// Item is the Plex rating key plex_play takes.
	Item        string `json:"item"`
	Title       string `json:"title"`
	Type        string `json:"type"`
	Show        string `json:"show,omitempty"`
	Year        int    `json:"year,omitempty"`
	DurationMin int    `json:"duration_min,omitempty"`
}

// MediaList is plex_find_media's result.
type MediaList struct {
	Count int         `json:"count"`
	Items []MediaInfo `json:"items"`
}

func mediaInfo(md content.PlexMetadata) MediaInfo {
	ms := md.Duration
	if ms <= 0 && len(md.Media) > 0 {
		ms = md.Media[0].Duration
	}
	return MediaInfo{Item: string(md.RatingKey), Title: clip(md.Title, 200), Type: md.Type, Show: clip(md.GrandparentTitle, 200),
		Year: md.Year, DurationMin: minutes(ms)}
}

func minutes(ms int64) int {
	if ms <= 0 {
		return 0
	}
	return max(1, int((ms+30_000)/60_000))
}

func (t tools) findMedia(ctx context.Context, _ agent.Scope, a FindArgs) (MediaList, error) {
	px, err := t.connect(ctx)
	if err != nil {
		return MediaList{}, err
	}
	found, err := px.SearchPlayable(ctx, a.Query, MaxFound)
	if err != nil {
		return MediaList{}, err
	}
	out := MediaList{Items: []MediaInfo{}}
	for _, md := range found[:min(len(found), MaxFound)] {
		out.Items = append(out.Items, mediaInfo(md))
	}
	out.Count = len(out.Items)
	return out, nil
}

// PlayArgs are plex_play's arguments. A policy reads Client to know the
// target player: a player's name (any case, see SameName) or its id.
type PlayArgs struct {
	Item   string `json:"item" desc:"the item to play (item from plex_find_media)" pattern:"^[A-Za-z0-9]{1,40}$"`
	Client string `json:"client" desc:"the player: its name from plex_list_clients (any case), e.g. Living Room TV, or its id" schema:"minLength=1,maxLength=200"`
}

// PlayResult is plex_play's result.
type PlayResult struct {
	Playing MediaInfo  `json:"playing"`
	On      PlayerInfo `json:"on"`
	Message string     `json:"message"`
}

// playable are the item types a player starts on its own.
var playable = map[string]bool{"movie": true, "episode": true, "clip": true}

func (t tools) play(ctx context.Context, _ agent.Scope, a PlayArgs) (PlayResult, error) {
	px, err := t.connect(ctx)
	if err != nil {
		return PlayResult{}, err
	}
	md, err := px.Item(ctx, a.Item)
	if apperr.Is(err, apperr.NotFound) {
		return PlayResult{}, apperr.NotFoundf("Plex has no item %s: find items with %s", a.Item, ToolFindMedia)
	}
	if err != nil {
		return PlayResult{}, err
	}
	if !playable[md.Type] {
		return PlayResult{}, apperr.Invalidf("item %s is a %s, which a player cannot start: play a movie or an episode (find one with %s)", a.Item, md.Type, ToolFindMedia)
	}
	players, err := px.Clients(ctx)
	if err != nil {
		return PlayResult{}, err
	}
	pl, err := pick(players, a.Client)
	if err != nil {
		return PlayResult{}, err
	}
	if err := px.PlayMedia(ctx, pl, a.Item); err != nil {
		return PlayResult{}, err
	}
	out := PlayResult{Playing: mediaInfo(md), On: playerInfo(pl)}
	out.Message = fmt.Sprintf("Playing “%s” on %s.", out.Playing.Title, out.On.Name)
	return out, nil
}

// pick finds the player client names (or ids) among those that can play.
func pick(players []content.PlexPlayer, client string) (content.PlexPlayer, error) {
	var names []string
	for _, pl := range players {
		if pl.MachineIdentifier == client || SameName(pl.Name, client) || SameName(displayName(pl), client) {
			if !pl.CanPlay() {
				return pl, apperr.Invalidf("the Plex player %s (%s) does not take playback commands from Hearth", displayName(pl), clip(pl.Product, 100))
			}
			return pl, nil
		}
		if pl.CanPlay() {
			names = append(names, "“"+displayName(pl)+"”")
		}
	}
	if len(names) == 0 {
		return content.PlexPlayer{}, ErrNoPlayer
	}
	return content.PlexPlayer{}, apperr.NotFoundf("no Plex player called “%s” is on: the players on now are %s", clip(client, 100), strings.Join(names, ", "))
}

// SameName says whether a player's name and a client argument name the
// same player: equal ignoring case and runs of spaces.
func SameName(name, client string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	n := norm(name)
	return n != "" && n == norm(client)
}

// clip makes Plex text one clean line of at most n bytes (names come from
// devices on the network and go to a model).
func clip(s string, n int) string {
	s, _ = text.Clean(text.Line, s)
	s = strings.TrimSpace(s)
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
