package plexplay

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
)

// notSetUp is the answer when Plex is not configured.
const notSetUp = "Plex is not set up yet: an admin can set its URL and token in Admin → Integrations."

var (
	playVerb   = regexp.MustCompile(`^(?:play|put on|put|start|stream|cast) (.+)$`)
	politeHead = regexp.MustCompile(`^(?:(?:hey|hi|ok|okay|please|talos|can you|could you|would you|will you)\b[ ,]*)+`)
)

// maxMessage bounds the messages the heuristic reads: a request to play
// something is a sentence.
const maxMessage = 300

// maxWordSearches bounds the one-word searches tried when the whole title
// finds nothing.
const maxWordSearches = 4

// Reply answers "play <title> on <player>" and "put on <title> on the
// <player>" without a language model, through the plexplay tools (call),
// so the run records what was done: plex_list_clients to find the player,
// plex_find_media to find the item, plex_play to play it. ok is false for
// any other message, which the caller answers some other way.
func Reply(ctx context.Context, call agent.ToolCaller, message string) (reply string, ok bool) {
	if len(message) > maxMessage {
		return "", false
	}
	m := playVerb.FindStringSubmatch(normalize(message))
	if m == nil || !strings.Contains(m[1], " on ") {
		return "", false
	}
	h := heuristic{ctx: ctx, call: call}
	var players PlayerList
	if err := h.tool(ToolListClients, map[string]any{}, &players); err != nil {
		return failure("list the Plex players", err), true
	}
	title, target, pl, found := splitTarget(m[1], players.Players)
	switch {
	case !found && !slices.ContainsFunc(players.Players, func(p PlayerInfo) bool { return p.CanPlay }):
		return sentence(ErrNoPlayer.Error()), true
	case !found:
		return fmt.Sprintf("I couldn't find a Plex player called “%s”. The players on now: %s.", clip(target, 60), playerNames(players.Players)), true
	case !pl.CanPlay:
		return fmt.Sprintf("%s (%s) is on, but it does not take playback commands from Hearth.", pl.Name, pl.Product), true
	}
	item, reply := h.find(title)
	if reply != "" {
		return reply, true
	}
	client := pl.Name
	if n := countFunc(players.Players, func(p PlayerInfo) bool { return SameName(p.Name, pl.Name) }); n != 1 || client == "" {
		client = pl.ID // two players of one name: the id says which
	}
	var res PlayResult
	if err := h.tool(ToolPlay, map[string]any{"item": item.Item, "client": client}, &res); err != nil {
		return failure(fmt.Sprintf("play “%s” on %s", item.Title, pl.Name), err), true
	}
	return res.Message, true
}

// normalize lowercases a message and drops politeness, quotes and end
// punctuation.
func normalize(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	s = strings.NewReplacer("’", "'", "‘", "'", "“", "", "”", "", `"`, "").Replace(s)
	s = strings.TrimRight(s, " .!?")
	s = politeHead.ReplaceAllString(s, "")
	s = strings.TrimSuffix(s, " please")
	return strings.TrimSpace(strings.TrimRight(s, " ,"))
}

// splitTarget splits "<title> on <player>" at the " on " after which a
// player is named best (by its name or id rather than part of it), the
// last such one when several are: a title may say "on" itself ("yoga on
// the beach on the tv"). target is the last candidate when none matches.
func splitTarget(rest string, players []PlayerInfo) (title, target string, pl PlayerInfo, found bool) {
	best := 0
	for i := 0; ; {
		j := strings.Index(rest[i:], " on ")
		if j < 0 {
			break
		}
		t, tg := rest[:i+j], rest[i+j+len(" on "):]
		i += j + 1
		if strings.TrimSpace(t) == "" {
			continue
		}
		if p, q := matchPlayer(tg, players); q > 0 && q >= best {
			best, title, target, pl = q, t, tg, p
		} else if best == 0 {
			target = tg
		}
	}
	return title, strings.TrimPrefix(target, "the "), pl, best > 0
}

// nameKey is a player name or a target as compared: lowercase words
// without "the", "my", "our" and "'s".
func nameKey(s string) string {
	s = strings.NewReplacer("'s", "", ",", " ", "_", " ").Replace(strings.ToLower(s))
	var words []string
	for _, w := range strings.Fields(s) {
		if w != "the" && w != "my" && w != "our" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// matchPlayer finds the player target names: by name or id (quality 2),
// else the one player (that can play) whose name holds the target's words
// or whose words the target holds ("the tv" → "Living Room TV", quality
// 1); quality 0 when none.
func matchPlayer(target string, players []PlayerInfo) (PlayerInfo, int) {
	key := nameKey(target)
	if key == "" {
		return PlayerInfo{}, 0
	}
	for _, p := range players {
		if nameKey(p.Name) == key || strings.EqualFold(p.ID, strings.TrimSpace(target)) {
			return p, 2
		}
	}
	var partial []PlayerInfo
	for _, p := range players {
		pk := nameKey(p.Name)
		if p.CanPlay && pk != "" && (containsWords(pk, key) || containsWords(key, pk)) {
			partial = append(partial, p)
		}
	}
	if len(partial) == 1 {
		return partial[0], 1
	}
	return PlayerInfo{}, 0
}

// containsWords says whether the words of part appear in s in a row.
func containsWords(s, part string) bool {
	return strings.Contains(" "+s+" ", " "+part+" ")
}

type heuristic struct {
	ctx  context.Context
	call agent.ToolCaller
}

// tool calls name with args and decodes its result into out.
func (h heuristic) tool(name string, args map[string]any, out any) error {
	return agent.CallInto(h.ctx, h.call, name, args, out)
}

// find picks the item title names: the best match of a search for the
// whole title or, when that finds nothing, for its longest words. Items
// that share the best score are asked about (reply) rather than guessed.
func (h heuristic) find(title string) (MediaInfo, string) {
	query := strings.TrimSpace(titleKey(title))
	if query == "" {
		return MediaInfo{}, "What should I play? Say “play the morning yoga session on the living room TV”."
	}
	var found MediaList
	if err := h.tool(ToolFindMedia, map[string]any{"query": query}, &found); err != nil {
		return MediaInfo{}, failure("search Plex", err)
	}
	items := found.Items
	if len(items) == 0 {
		words := significant(query)
		for _, w := range words[:min(len(words), maxWordSearches)] {
			var more MediaList
			if err := h.tool(ToolFindMedia, map[string]any{"query": w}, &more); err != nil {
				return MediaInfo{}, failure("search Plex", err)
			}
			for _, it := range more.Items {
				if !slices.ContainsFunc(items, func(x MediaInfo) bool { return x.Item == it.Item }) {
					items = append(items, it)
				}
			}
		}
	}
	if len(items) == 0 {
		return MediaInfo{}, fmt.Sprintf("I couldn't find “%s” in Plex.", clip(query, 60))
	}
	best, top := -1, []MediaInfo(nil)
	for _, it := range items {
		s := score(query, it)
		switch {
		case s > best:
			best, top = s, []MediaInfo{it}
		case s == best:
			top = append(top, it)
		}
	}
	if len(top) > 1 {
		var names []string
		for _, it := range top[:min(len(top), 4)] {
			names = append(names, "“"+label(it)+"”")
		}
		return MediaInfo{}, fmt.Sprintf("Which one: %s? Say its full title.", join(names, "or"))
	}
	return top[0], ""
}

// titleKey drops the words people put before a title ("my", "the", "some").
func titleKey(s string) string {
	for {
		t := s
		for _, w := range []string{"my ", "the ", "a ", "an ", "some ", "our "} {
			s = strings.TrimPrefix(s, w)
		}
		if s == t {
			return s
		}
	}
}

// significant are query's words worth a search of their own, longest first.
func significant(query string) []string {
	var out []string
	for _, w := range strings.Fields(query) {
		if len(w) >= 3 && !slices.Contains(out, w) && !slices.Contains([]string{"and", "for", "with", "from", "the"}, w) {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// score rates an item against the query: the whole title said scores
// highest, then how many of the query's words its title (and show) holds.
func score(query string, it MediaInfo) int {
	t := strings.ToLower(it.Title + " " + it.Show)
	if strings.EqualFold(strings.TrimSpace(it.Title), query) {
		return 1000
	}
	n := 0
	for _, w := range strings.Fields(query) {
		if containsWords(strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '-' || r == ':' || r == ',' }), " "), w) {
			n++
		}
	}
	return n
}

func label(it MediaInfo) string {
	if it.Show != "" {
		return it.Show + ": " + it.Title
	}
	return it.Title
}

// failure is the sentence for a tool error.
func failure(what string, err error) string {
	var refused interface{ Refused() string }
	switch {
	case errors.As(err, &refused): // a policy's refusal (Talos)
		return refused.Refused()
	case errors.Is(err, ErrNotConfigured) || strings.Contains(err.Error(), "not configured"):
		return notSetUp
	case errors.Is(err, ErrNoPlayer):
		return sentence(ErrNoPlayer.Error())
	case errors.Is(err, content.ErrPlayerGone):
		return "That player has just gone away: open Plex on it and ask again."
	case errors.Is(err, content.ErrPlexUnauthorized):
		return "Plex rejected Hearth's token: an admin can check it in Admin → Integrations."
	case apperr.Is(err, apperr.Invalid), apperr.Is(err, apperr.NotFound):
		return fmt.Sprintf("I couldn't %s: %s", what, err.Error())
	}
	return fmt.Sprintf("I couldn't reach Plex to %s: %s", what, err.Error())
}

// sentence capitalizes s and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func playerNames(players []PlayerInfo) string {
	var names []string
	for _, p := range players {
		if p.CanPlay {
			names = append(names, p.Name)
		}
	}
	return join(names, "and")
}

func join(names []string, conj string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

func countFunc[T any](s []T, f func(T) bool) int {
	n := 0
	for _, v := range s {
		if f(v) {
			n++
		}
	}
	return n
}
