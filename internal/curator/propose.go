package curator

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/proposals"
	"hearth/internal/text"
)

// Proposal kinds (the Appliers' keys).
const (
	KindCollection = "plex.collection"
	KindLabel      = "plex.label"
)

// MaxProposalItems caps the items one proposal names: an admin reads the
// preview, and the keys travel in one URL.
const MaxProposalItems = 100

// Proposed is what the model reads: the change is staged, not made.
const Proposed = "proposed: an admin confirms it in Admin → Curator"

// CollectionPayload is a plex.collection proposal's payload: the
// collection Title in Section gets the items Keys (of Type).
type CollectionPayload struct {
	Section string   `json:"section"`
	Title   string   `json:"title"`
	Type    string   `json:"type"`
	Keys    []string `json:"keys"`
}

// LabelPayload is a plex.label proposal's payload: Label goes on Keys.
type LabelPayload struct {
	Section string   `json:"section"`
	Label   string   `json:"label"`
	Keys    []string `json:"keys"`
}

// ProposalResult is what a write tool answers.
type ProposalResult struct {
	Status  string   `json:"status"`
	Summary string   `json:"summary"`
	Items   []string `json:"items"`
	// Skipped names items left out (already in the collection or labelled).
	Skipped []string `json:"skipped,omitempty"`
}

// CollectionArgs are plex_create_collection's arguments.
type CollectionArgs struct {
	Title   string   `json:"title" desc:"the collection's title, e.g. Cool-downs or Iron Forge: week 1" schema:"minLength=1,maxLength=100"`
	ItemIDs []string `json:"item_ids" desc:"the items' ids (Plex rating keys)" schema:"minItems=1,maxItems=100"`
}

// proposedItems reads the items a proposal names from the workout
// section, refusing any that is missing or elsewhere (checkItems).
func (t tools) proposedItems(ctx context.Context, ids []string) (*content.PlexClient, string, []content.PlexMetadata, error) {
	px, section, err := t.connect(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	items, err := checkItems(ctx, px, section, ids)
	return px, section, items, err
}

func (t tools) createCollection(ctx context.Context, scope agent.Scope, a CollectionArgs) (ProposalResult, error) {
	title, err := collectionTitle(a.Title)
	if err != nil {
		return ProposalResult{}, err
	}
	px, section, items, err := t.proposedItems(ctx, a.ItemIDs)
	if err != nil {
		return ProposalResult{}, err
	}
	typ := items[0].Type
	for _, md := range items {
		if md.Type != typ {
			return ProposalResult{}, apperr.Invalidf("a collection holds one type of item: %s is a %s, %s a %s",
				items[0].RatingKey, typ, md.RatingKey, md.Type)
		}
	}
	have, existing, err := collectionHolding(ctx, px, section, title)
	if err != nil {
		return ProposalResult{}, err
	}
	var add []content.PlexMetadata
	res := ProposalResult{Status: Proposed, Items: []string{}}
	for _, md := range items {
		if have[string(md.RatingKey)] {
			res.Skipped = append(res.Skipped, clip(md.Title, 200)+" (already in it)")
			continue
		}
		add = append(add, md)
	}
	if have != nil {
		title = existing // the collection's own spelling, for the preview and the applier
	}
	if len(add) == 0 {
		return ProposalResult{}, apperr.Invalidf("collection “%s” already holds all of these items: nothing to propose", title)
	}
	p := CollectionPayload{Section: section, Title: title, Type: typ}
	for _, md := range add {
		p.Keys = append(p.Keys, string(md.RatingKey))
		res.Items = append(res.Items, clip(md.Title, 200))
	}
	res.Summary = fmt.Sprintf("Collection “%s” gets %s", title, count(len(add), "item"))
	if have != nil {
		res.Summary = fmt.Sprintf("Collection “%s” (it exists) gets %s more", title, count(len(add), "item"))
	}
	if err := proposals.Stage(scope, proposals.Proposal{Kind: KindCollection, Summary: res.Summary, Lines: res.Items, Payload: p}); err != nil {
		return ProposalResult{}, err
	}
	return res, nil
}

// collectionTitle checks a title: one line of 1 to 100 characters.
func collectionTitle(s string) (string, error) {
	s = strings.Join(strings.Fields(s), " ")
	if _, err := text.Check(text.Line, s); err != nil || s == "" || utf8.RuneCountInString(s) > 100 {
		return "", apperr.Invalidf("a collection title is one line of 1 to 100 characters")
	}
	return s, nil
}

// collectionHolding returns the items of the section's collection titled
// title (any case) and its own title, or nil when there is none.
func collectionHolding(ctx context.Context, px *content.PlexClient, section, title string) (map[string]bool, string, error) {
	c, ok, err := findCollection(ctx, px, section, title)
	if err != nil || !ok {
		return nil, "", err
	}
	items, _, err := px.CollectionItems(ctx, string(c.RatingKey))
	if err != nil {
		return nil, "", err
	}
	have := map[string]bool{}
	for _, md := range items {
		have[string(md.RatingKey)] = true
	}
	return have, clip(c.Title, 100), nil
}

func findCollection(ctx context.Context, px *content.PlexClient, section, title string) (content.PlexMetadata, bool, error) {
	cs, _, err := px.Collections(ctx, section)
	if err != nil {
		return content.PlexMetadata{}, false, err
	}
	for _, c := range cs {
		if strings.EqualFold(strings.TrimSpace(c.Title), title) {
			return c, true, nil
		}
	}
	return content.PlexMetadata{}, false, nil
}

// checkItems reads each named item (once) and refuses unknown ones,
// those of another section and those that are not playable entries.
func checkItems(ctx context.Context, px *content.PlexClient, section string, ids []string) ([]content.PlexMetadata, error) {
	if len(ids) == 0 || len(ids) > MaxProposalItems {
		return nil, apperr.Invalidf("name 1 to %d items, not %d", MaxProposalItems, len(ids))
	}
	var out []content.PlexMetadata
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if seen[id] {
			continue
		}
		seen[id] = true
		md, err := item(ctx, px, section, id)
		if err != nil {
			return nil, err
		}
		if content.PlexTypeNumber(md.Type) == 0 {
			return nil, apperr.Invalidf("item %s is a %s, not a movie, show, season or episode", id, md.Type)
		}
		out = append(out, md)
	}
	return out, nil
}

// LabelArgs are plex_bulk_label's arguments.
type LabelArgs struct {
	Label   string   `json:"label" desc:"one label, e.g. duration:short, area:knee, intensity:low, impact:high or a plain word" schema:"minLength=1,maxLength=40"`
	ItemIDs []string `json:"item_ids" desc:"the items' ids (Plex rating keys)" schema:"minItems=1,maxItems=100"`
}

// labelPattern is a sane tag: letters, digits and a few separators.
var labelPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _:.+-]{0,39}$`)

// CheckLabel refuses a label that is not a sane tag, and a metadata label
// (intensity:, impact:, area:, duration:) whose value Hearth would not read.
func CheckLabel(label string) (string, error) {
	label = strings.Join(strings.Fields(label), " ")
	if !labelPattern.MatchString(label) {
		return "", apperr.Invalidf("a label is 1 to 40 letters, digits, spaces or _ : . + - (like duration:short or area:knee)")
	}
	key, val, ok := strings.Cut(label, ":")
	if !ok {
		return label, nil
	}
	key, val = strings.ToLower(strings.TrimSpace(key)), strings.ToLower(strings.TrimSpace(val))
	var valid []string
	switch key {
	case "intensity":
		valid = content.Intensities()
	case "impact":
		valid = content.Impacts()
	case "area", "areas", "loads":
		if content.AreaOf(val) != "" {
			return label, nil
		}
		valid = content.Areas()
	case "duration":
		valid = []string{BandShort, BandMedium, BandLong}
	default:
		return label, nil
	}
	if !slices.Contains(valid, val) {
		return "", apperr.Invalidf("label %s: %s is one of %s", label, key, strings.Join(valid, ", "))
	}
	return label, nil
}

func (t tools) bulkLabel(ctx context.Context, scope agent.Scope, a LabelArgs) (ProposalResult, error) {
	label, err := CheckLabel(a.Label)
	if err != nil {
		return ProposalResult{}, err
	}
	_, section, items, err := t.proposedItems(ctx, a.ItemIDs)
	if err != nil {
		return ProposalResult{}, err
	}
	p := LabelPayload{Section: section, Label: label}
	res := ProposalResult{Status: Proposed, Items: []string{}}
	for _, md := range items {
		if hasLabel(md, label) {
			res.Skipped = append(res.Skipped, clip(md.Title, 200)+" (already labelled)")
			continue
		}
		p.Keys = append(p.Keys, string(md.RatingKey))
		res.Items = append(res.Items, clip(md.Title, 200))
	}
	if len(p.Keys) == 0 {
		return ProposalResult{}, apperr.Invalidf("every one of these items already has label %s: nothing to propose", label)
	}
	res.Summary = fmt.Sprintf("Label “%s” added to %s", label, count(len(p.Keys), "item"))
	if err := proposals.Stage(scope, proposals.Proposal{Kind: KindLabel, Summary: res.Summary, Lines: res.Items, Payload: p}); err != nil {
		return ProposalResult{}, err
	}
	return res, nil
}

func hasLabel(md content.PlexMetadata, label string) bool {
	return slices.ContainsFunc(md.Labels(), func(l string) bool { return strings.EqualFold(strings.TrimSpace(l), label) })
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
