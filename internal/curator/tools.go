// Package curator is the Plex tool factory the media-curator agent uses to
// keep the workout library in order: it reads the library (search, items,
// collections), analyses it against the catalog's content metadata (kinds,
// duration bands, intensity, body areas, duplicates, gaps) and proposes
// collections and labels. It never writes to Plex from a tool: the two
// write tools stage a proposals.Proposal, and the Appliers write one only
// after an admin confirms it in Admin → Curator.
package curator

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

// FactoryName is the name agent definitions list ("factories": ["plex"]).
const FactoryName = "plex"

// Tool names, as in the agents seed (seeds/002: PlexToolFactory).
const (
	ToolSearch           = "plex_search"
	ToolGetItem          = "plex_get_item"
	ToolListContents     = "plex_list_contents"
	ToolCreateCollection = "plex_create_collection"
	ToolFindDuplicates   = "plex_find_duplicates"
	ToolBulkLabel        = "plex_bulk_label"
	ToolAnalyzeLibrary   = "plex_analyze_library"
)

// ErrNotConfigured is what connect returns when Plex is not set up.
var ErrNotConfigured = errors.New("Plex is not configured: set its URL, token and section in Admin → Integrations")

// Connect gives a client for the settings in force and the workout
// library's section id; ErrNotConfigured (or why not) when Plex is not set
// up. It must not do network I/O: the factory's status calls it.
type Connect func(ctx context.Context) (*content.PlexClient, string, error)

// Catalog is the part of the content catalog the analysis reads.
type Catalog interface {
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
}

// Tools is the plex factory. catalog may be nil: the analysis then reads
// the section from Plex.
func Tools(connect Connect, catalog Catalog) *agent.Factory {
	if connect == nil {
		connect = func(context.Context) (*content.PlexClient, string, error) { return nil, "", ErrNotConfigured }
	}
	t := tools{connect: connect, catalog: catalog}
	return agent.NewFactory(FactoryName, "Plex",
		"Curate the household's Plex workout library: search it, read items and collections, find duplicates and gaps, and propose collections and labels. Proposals change nothing until an admin confirms them in Admin → Curator.",
		agent.NewTool(ToolSearch, "Search the workout library in Plex by title. Returns up to limit items (id, title, type, show, duration in minutes, labels).", t.search),
		agent.NewTool(ToolGetItem, "Read one Plex item of the workout library by id (its rating key): title, type, show, duration, summary and labels.", t.getItem),
		agent.NewTool(ToolListContents, "List what a Plex container holds, paged: the workout library's shows and movies (id null), a collection's items, a show's seasons or a season's episodes. total says how many there are; use offset to page.", t.listContents),
		agent.NewTool(ToolCreateCollection, fmt.Sprintf("Propose a Plex collection titled title holding the items (ids, at most %d, all movies or all episodes). An existing collection of that title gets only the items it lacks. Nothing changes until an admin confirms the proposal in Admin → Curator.", MaxProposalItems), t.createCollection),
		agent.NewTool(ToolFindDuplicates, "Find duplicate candidates in the workout library: items with the same title and duration.", t.findDuplicates),
		agent.NewTool(ToolBulkLabel, fmt.Sprintf("Propose adding one label to items (ids, at most %d), e.g. duration:short, area:knee, intensity:low. Items that already have it are left out. Nothing changes until an admin confirms the proposal in Admin → Curator.", MaxProposalItems), t.bulkLabel),
		agent.NewTool(ToolAnalyzeLibrary, "Analyse the workout library: items per kind (warm-up, main, cool-down…) and duration band (short under 10 minutes, medium 10–29, long 30 or more), body areas stated, items without an intensity label, gaps such as \"no cool-downs under 10 minutes\", and duplicate candidates.", t.analyze),
	).WithStatus(func(ctx context.Context) string {
		if _, _, err := connect(ctx); err != nil {
			return err.Error()
		}
		return ""
	})
}

type tools struct {
	connect Connect
	catalog Catalog
}

// ItemInfo is one Plex item as the tools report it.
type ItemInfo struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Type        string   `json:"type"`
	Show        string   `json:"show,omitempty"`
	DurationMin int      `json:"duration_min,omitempty"`
	Labels      []string `json:"labels,omitempty"`
	// Items is how many a collection holds.
	Items int `json:"items,omitempty"`
}

func info(md content.PlexMetadata) ItemInfo {
	ms := md.Duration
	if ms <= 0 && len(md.Media) > 0 {
		ms = md.Media[0].Duration
	}
	out := ItemInfo{ID: string(md.RatingKey), Title: clip(md.Title, 200), Type: md.Type, Show: clip(md.GrandparentTitle, 200),
		DurationMin: minutes(ms), Labels: md.Labels(), Items: md.ChildCount}
	if md.Type != "collection" {
		out.Items = 0
	}
	return out
}

func minutes(ms int64) int {
	if ms <= 0 {
		return 0
	}
	return max(1, int((ms+30_000)/60_000))
}

// SearchArgs are plex_search's arguments.
type SearchArgs struct {
	Query string `json:"query" desc:"words of the title, e.g. cool-down or yoga" schema:"minLength=1,maxLength=200"`
	Limit *int   `json:"limit" desc:"at most this many items (default 10)" schema:"minimum=1,maximum=50"`
}

// ItemList is plex_search's result.
type ItemList struct {
	Count int        `json:"count"`
	Items []ItemInfo `json:"items"`
}

func (t tools) search(ctx context.Context, _ agent.Scope, a SearchArgs) (ItemList, error) {
	px, section, err := t.connect(ctx)
	if err != nil {
		return ItemList{}, err
	}
	limit := 10
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), 50)
	}
	found, err := px.Search(ctx, a.Query, section, limit)
	if err != nil {
		return ItemList{}, err
	}
	out := ItemList{Items: []ItemInfo{}}
	for _, md := range found[:min(len(found), limit)] {
		out.Items = append(out.Items, info(md))
	}
	out.Count = len(out.Items)
	return out, nil
}

// GetArgs are plex_get_item's arguments.
type GetArgs struct {
	ID string `json:"id" desc:"the item's id (Plex rating key) from plex_search or plex_list_contents" pattern:"^[A-Za-z0-9]{1,40}$"`
}

// ItemDetail is plex_get_item's result.
type ItemDetail struct {
	ItemInfo
	Summary string `json:"summary,omitempty"`
	Year    int    `json:"year,omitempty"`
}

func (t tools) getItem(ctx context.Context, _ agent.Scope, a GetArgs) (ItemDetail, error) {
	px, section, err := t.connect(ctx)
	if err != nil {
		return ItemDetail{}, err
	}
	md, err := item(ctx, px, section, a.ID)
	if err != nil {
		return ItemDetail{}, err
	}
	return ItemDetail{ItemInfo: info(md), Summary: clip(md.Summary, 500), Year: md.Year}, nil
}

// item reads one item of the workout library's section.
func item(ctx context.Context, px *content.PlexClient, section, id string) (content.PlexMetadata, error) {
	md, err := px.Item(ctx, id)
	if apperr.Is(err, apperr.NotFound) {
		return md, apperr.NotFoundf("Plex has no item %s: find ids with plex_search or plex_list_contents", id)
	}
	if err != nil {
		return md, err
	}
	if md.LibrarySectionID != "" && string(md.LibrarySectionID) != section {
		return md, apperr.Invalidf("item %s is in another Plex library section, not the workout library", id)
	}
	return md, nil
}

// ListArgs are plex_list_contents' arguments.
type ListArgs struct {
	ID     *string `json:"id" desc:"a collection, show or season id; null for the workout library's shows and movies" pattern:"^[A-Za-z0-9]{1,40}$"`
	Offset *int    `json:"offset" desc:"skip this many (default 0)" schema:"minimum=0"`
	Limit  *int    `json:"limit" desc:"at most this many (default 20)" schema:"minimum=1,maximum=100"`
}

// Contents is plex_list_contents' result.
type Contents struct {
	Container string     `json:"container"`
	Total     int        `json:"total"`
	Offset    int        `json:"offset"`
	Shown     int        `json:"shown"`
	Items     []ItemInfo `json:"items"`
	Note      string     `json:"note,omitempty"`
}

func (t tools) listContents(ctx context.Context, _ agent.Scope, a ListArgs) (Contents, error) {
	px, section, err := t.connect(ctx)
	if err != nil {
		return Contents{}, err
	}
	var (
		all []content.PlexMetadata
		out Contents
	)
	if a.ID == nil {
		out.Container = "the workout library (section " + section + ")"
		all, _, err = px.SectionItems(ctx, section)
	} else {
		var md content.PlexMetadata
		if md, err = item(ctx, px, section, *a.ID); err != nil {
			return Contents{}, err
		}
		out.Container = md.Type + " “" + clip(md.Title, 200) + "”"
		switch md.Type {
		case "collection":
			all, _, err = px.CollectionItems(ctx, *a.ID)
		case "show", "season":
			all, _, err = px.Children(ctx, *a.ID)
		default:
			return Contents{}, apperr.Invalidf("item %s is a %s: it holds nothing to list (use plex_get_item)", *a.ID, md.Type)
		}
	}
	if err != nil {
		return Contents{}, err
	}
	offset, limit := 0, 20
	if a.Offset != nil {
		offset = max(*a.Offset, 0)
	}
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), 100)
	}
	out.Total, out.Offset, out.Items = len(all), offset, []ItemInfo{}
	for _, md := range all[min(offset, len(all)):min(offset+limit, len(all))] {
		out.Items = append(out.Items, info(md))
	}
	out.Shown = len(out.Items)
	if rest := out.Total - offset - out.Shown; rest > 0 {
		out.Note = fmt.Sprintf("%d more: ask again with offset %d", rest, offset+out.Shown)
	}
	return out, nil
}

// clip makes Plex text one clean line of at most n bytes.
func clip(s string, n int) string {
	s, _ = text.Clean(text.Line, s)
	s = strings.TrimSpace(s)
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
