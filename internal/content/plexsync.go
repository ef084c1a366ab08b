package content

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/text"
)

// PlexThumbPrefix is the kiosk path of a proxied Plex thumbnail:
// PlexThumbPrefix+ratingKey. The web layer serves it by looking up the item
// "plex:<ratingKey>" and streaming PlexClient.OpenThumb(item.SourceThumb).
const PlexThumbPrefix = "/plex/thumb/"

// PlexFetch is a section read from Plex, ready to import.
type PlexFetch struct {
	File File
	// Title is the section's title as Plex names it ("" when it did not).
	Title string
	// Seen counts the episodes and movies read; Skipped names those left
	// out (no usable duration or rating key).
	Seen    int
	Skipped []string
	// Warnings say what the listings reported and did not send, and
	// episodes whose show the section did not list.
	Warnings []string
}

// FetchSection reads a section into a catalog File: each show becomes a
// program "plex-<slug of title>" whose days are its episodes in season and
// episode order (day = running episode number across seasons; specials,
// season 0, become items without a day); movies become standalone items.
// Items are "plex:<ratingKey>" with durations in minutes, a kind guessed from
// the titles, a token-free proxied thumbnail (PlexThumbPrefix) and a play URL
// into the Plex web app. Entries without a duration are skipped and named.
//
// A large library costs a few requests: the section's shows or movies, then
// all its episodes in one paged listing (EachSectionEpisode), each answer
// decoded as it streams. A missing section, an empty one or one without
// shows and movies is an error that says so.
func (p *PlexClient) FetchSection(ctx context.Context, sectionID string) (PlexFetch, error) {
	machine, err := p.Identity(ctx)
	if err != nil {
		return PlexFetch{}, err
	}
	top, ls, err := p.SectionItems(ctx, sectionID)
	if apperr.Is(err, apperr.NotFound) {
		return PlexFetch{}, p.noSection(ctx, sectionID)
	}
	if err != nil {
		return PlexFetch{}, err
	}
	out := PlexFetch{Title: ls.Title, Warnings: ls.Warnings}
	var (
		progIDs  = map[string]bool{}
		itemSeen = map[string]bool{}
		episodes = map[PlexKey][]PlexMetadata{} // by show
		shows    = map[PlexKey]bool{}
	)
	for _, md := range top {
		if md.Type == "show" {
			shows[md.RatingKey] = true
		}
	}
	if len(shows) > 0 {
		orphans := 0
		eps, err := p.EachSectionEpisode(ctx, sectionID, func(ep PlexMetadata) error {
			switch {
			case ep.Type != "episode":
			case shows[ep.GrandparentRatingKey]:
				episodes[ep.GrandparentRatingKey] = append(episodes[ep.GrandparentRatingKey], ep)
			default:
				orphans++
			}
			return nil
		})
		if err != nil {
			return PlexFetch{}, err
		}
		out.Warnings = append(out.Warnings, eps.Warnings...)
		if orphans > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%d episodes belong to shows the section's listing did not include: left out", orphans))
		}
	}
	add := func(it Item) {
		if !itemSeen[it.ID] {
			itemSeen[it.ID] = true
			out.File.Items = append(out.File.Items, it)
		}
	}
	for _, md := range top {
		switch md.Type {
		case "movie":
			out.Seen++
			it, ok := p.item(md, machine, "", 0, md)
			if !ok {
				out.Skipped = append(out.Skipped, skippedName(md))
				continue
			}
			add(it)
		case "show":
			prog, items, skipped := p.show(md, episodes[md.RatingKey], machine, progIDs)
			out.Seen += len(items) + len(skipped)
			out.Skipped = append(out.Skipped, skipped...)
			for _, it := range items {
				add(it)
			}
			if len(prog.Days) > 0 {
				out.File.Programs = append(out.File.Programs, prog)
			}
		}
	}
	if len(out.File.Items) == 0 {
		return out, emptySection(sectionID, out, len(top))
	}
	return out, nil
}

// noSection is the error for a section Plex does not have, naming the
// sections it has (when it lists them).
func (p *PlexClient) noSection(ctx context.Context, sectionID string) error {
	msg := fmt.Sprintf("Plex has no library section %s (HTTP 404): check PLEX_SECTION", sectionID)
	if secs, err := p.Sections(ctx); err == nil && len(secs) > 0 {
		names := make([]string, 0, len(secs))
		for _, s := range secs {
			names = append(names, fmt.Sprintf("%s %s (%s)", s.Key, clean(s.Title, 60, false), s.Type))
		}
		msg += "; this server's sections: " + strings.Join(names, ", ")
	}
	return apperr.NotFoundf("%s", msg)
}

// emptySection says why a section gave nothing to import.
func emptySection(sectionID string, f PlexFetch, entries int) error {
	name := "Plex section " + sectionID
	if t := clean(f.Title, 60, false); t != "" {
		name += " (" + t + ")"
	}
	switch {
	case entries == 0:
		return apperr.NotFoundf("%s is empty: it lists no shows or movies", name)
	case f.Seen == 0:
		return apperr.Invalidf("%s lists %d entries but no shows with episodes or movies: Hearth syncs show and movie sections", name, entries)
	}
	return apperr.Invalidf("%s lists %d episodes and movies, but none has a duration", name, f.Seen)
}

// skippedName names an entry left out, for a warning.
func skippedName(md PlexMetadata) string {
	if t := clean(md.Title, 60, false); t != "" {
		return fmt.Sprintf("%q (%s)", t, md.RatingKey)
	}
	return "rating key " + clean(string(md.RatingKey), 40, false)
}

// show makes a show's program from its episodes, in season and episode order.
func (p *PlexClient) show(show PlexMetadata, eps []PlexMetadata, machine string, used map[string]bool) (Program, []Item, []string) {
	prog := Program{ID: programIDFor(show, used), Title: clean(show.Title, maxTitle, false), Description: clean(show.Summary, maxSummary, true)}
	if prog.Title == "" {
		prog.Title = prog.ID
	}
	slices.SortStableFunc(eps, func(a, b PlexMetadata) int {
		return cmp.Or(cmp.Compare(seasonOrder(a.ParentIndex), seasonOrder(b.ParentIndex)), cmp.Compare(a.Index, b.Index))
	})
	var (
		items   []Item
		skipped []string
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
			skipped = append(skipped, skippedName(ep))
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
		Kind: GuessKind(md.Title, showTitle),
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
	// An episode without its own picture shows its season's or show's
	// (python-plexapi's thumbUrl: thumb, parentThumb, grandparentThumb).
	for _, th := range []string{md.Thumb, md.ParentThumb, md.GrandparentThumb, show.Thumb} {
		if strings.HasPrefix(th, "/library/") && len(th) <= maxURL {
			it.SourceThumb = th
			break
		}
	}
	it.Thumbnail = "/static/thumbs/" + string(it.Kind) + ".svg"
	if it.SourceThumb != "" {
		it.Thumbnail = PlexThumbPrefix + rk
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
