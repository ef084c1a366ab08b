package content

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"hearth/internal/text"
)

// PlexThumbPrefix is the kiosk path of a proxied Plex thumbnail:
// PlexThumbPrefix+ratingKey. The web layer serves it by looking up the item
// "plex:<ratingKey>" and streaming PlexClient.OpenThumb(item.SourceThumb).
const PlexThumbPrefix = "/plex/thumb/"

// SyncPlex imports a Plex library section into the catalog, all or nothing
// (see FetchSection for the mapping). Re-syncing an unchanged library changes nothing.
func (c *Catalog) SyncPlex(ctx context.Context, px *PlexClient, sectionID string) (Summary, error) {
	f, skipped, err := px.FetchSection(ctx, sectionID)
	if err != nil {
		return Summary{}, err
	}
	sum, err := c.Import(ctx, f, SourcePlex)
	sum.Skipped = skipped
	return sum, err
}

// FetchSection reads a section into a catalog File: each show becomes a
// program "plex-<slug of title>" whose days are its episodes in season and
// episode order (day = running episode number across seasons; specials,
// season 0, become items without a day); movies become standalone items.
// Items are "plex:<ratingKey>" with durations in minutes, a kind guessed from
// the titles, a token-free proxied thumbnail (PlexThumbPrefix) and a play URL
// into the Plex web app. Entries without a duration are skipped and counted.
//
// A large library costs a few requests: the section's shows or movies, then
// all its episodes in one paged listing (EachSectionEpisode), each answer
// decoded as it streams.
func (p *PlexClient) FetchSection(ctx context.Context, sectionID string) (File, int, error) {
	machine, err := p.Identity(ctx)
	if err != nil {
		return File{}, 0, err
	}
	top, err := p.SectionItems(ctx, sectionID)
	if err != nil {
		return File{}, 0, err
	}
	var (
		f        File
		skipped  int
		progIDs  = map[string]bool{}
		itemSeen = map[string]bool{}
		episodes = map[PlexKey][]PlexMetadata{} // by show
		shows    bool
	)
	for _, md := range top {
		shows = shows || md.Type == "show"
	}
	if shows {
		err := p.EachSectionEpisode(ctx, sectionID, func(ep PlexMetadata) error {
			if ep.Type == "episode" {
				episodes[ep.GrandparentRatingKey] = append(episodes[ep.GrandparentRatingKey], ep)
			}
			return nil
		})
		if err != nil {
			return File{}, 0, err
		}
	}
	add := func(it Item) {
		if !itemSeen[it.ID] {
			itemSeen[it.ID] = true
			f.Items = append(f.Items, it)
		}
	}
	for _, md := range top {
		switch md.Type {
		case "movie":
			it, ok := p.item(md, machine, "", 0, md)
			if !ok {
				skipped++
				continue
			}
			add(it)
		case "show":
			prog, items, n := p.show(md, episodes[md.RatingKey], machine, progIDs)
			skipped += n
			for _, it := range items {
				add(it)
			}
			if len(prog.Days) > 0 {
				f.Programs = append(f.Programs, prog)
			}
		}
	}
	if len(f.Items) == 0 {
		return File{}, skipped, fmt.Errorf("content: plex section %s has no shows or movies with a duration", sectionID)
	}
	return f, skipped, nil
}

// show makes a show's program from its episodes, in season and episode order.
func (p *PlexClient) show(show PlexMetadata, eps []PlexMetadata, machine string, used map[string]bool) (Program, []Item, int) {
	prog := Program{ID: programIDFor(show, used), Title: clean(show.Title, maxTitle, false), Description: clean(show.Summary, maxSummary, true)}
	if prog.Title == "" {
		prog.Title = prog.ID
	}
	slices.SortStableFunc(eps, func(a, b PlexMetadata) int {
		return cmp.Or(cmp.Compare(seasonOrder(a.ParentIndex), seasonOrder(b.ParentIndex)), cmp.Compare(a.Index, b.Index))
	})
	var (
		items   []Item
		skipped int
		day     int
	)
	for _, ep := range eps {
		special := ep.ParentIndex == 0 || day >= maxDay
		d := 0
		if !special {
			d = day + 1
		}
		it, ok := p.item(ep, machine, prog.ID, d, show)
		if !ok {
			skipped++
			continue
		}
		items = append(items, it)
		if !special {
			day++
			prog.Days = append(prog.Days, Day{Day: day, ContentID: it.ID})
		}
	}
	return prog, items, skipped
}

// seasonOrder puts specials (season 0) after the numbered seasons.
func seasonOrder(i int) int {
	if i == 0 {
		return 1 << 30
	}
	return i
}

// item maps one episode or movie (show is the episode's show, or the movie
// itself); ok is false when it has no usable duration. The metadata comes
// from labels: the entry's own, else its show's, field by field.
func (p *PlexClient) item(md PlexMetadata, machine, program string, day int, show PlexMetadata) (Item, bool) {
	showTitle := show.Title
	rk := string(md.RatingKey)
	ms := md.Duration
	if ms <= 0 && len(md.Media) > 0 {
		ms = md.Media[0].Duration
	}
	minutes := plexMinutes(ms)
	if !plexKeyPattern.MatchString(rk) || minutes == 0 || minutes > MaxDurationMin {
		return Item{}, false
	}
	title := clean(md.Title, maxTitle, false)
	if title == "" {
		title = fmt.Sprintf("Episode %d", md.Index)
	}
	it := Item{
		ID: "plex:" + rk, Title: title, Program: program, Day: day, DurationMin: minutes,
		Kind:      GuessKind(md.Title, showTitle),
		Thumbnail: PlexThumbPrefix + rk,
		PlayURL: p.base.String() + "/web/index.html#!/server/" + url.PathEscape(machine) +
			"/details?key=" + url.QueryEscape("/library/metadata/"+rk),
		Tags:    []string{"plex"},
		Summary: clean(md.Summary, maxSummary, true),
	}
	it.Intensity, it.Impact, it.Areas = labelMeta(md.labels())
	if show.RatingKey != md.RatingKey {
		si, sm, sa := labelMeta(show.labels())
		it.Intensity, it.Impact = cmp.Or(it.Intensity, si), cmp.Or(it.Impact, sm)
		if it.Areas == nil {
			it.Areas = sa
		}
	}
	if strings.HasPrefix(md.Thumb, "/library/") && len(md.Thumb) <= maxURL {
		it.SourceThumb = md.Thumb
	}
	if len(md.Media) > 0 && len(md.Media[0].Part) > 0 && strings.HasPrefix(md.Media[0].Part[0].Key, "/library/") {
		it.MediaPath = md.Media[0].Part[0].Key
	}
	return it, true
}

func programIDFor(show PlexMetadata, used map[string]bool) string {
	slug := Slug(show.Title)
	if slug == "" {
		slug = "show"
	}
	id := "plex-" + trimTo(slug, 59)
	if used[id] {
		suffix := "-" + strings.ToLower(string(show.RatingKey))
		id = "plex-" + trimTo(slug, 59-len(suffix)) + suffix
	}
	used[id] = true
	return strings.TrimRight(id, "-")
}

func trimTo(s string, n int) string {
	if len(s) > n {
		s = strings.TrimRight(s[:max(n, 0)], "-")
	}
	return s
}

// clean drops what text cannot use (package text), trims, and cuts to at
// most limit bytes on a rune boundary.
func clean(s string, limit int, multiline bool) string {
	mode := text.Line
	if multiline {
		mode = text.Multi
	}
	s, _ = text.Clean(mode, s)
	s = strings.TrimSpace(s)
	for len(s) > limit {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return strings.TrimSpace(s)
}
