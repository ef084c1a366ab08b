package curator

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/proposals"
)

// Appliers apply confirmed plex.collection and plex.label proposals.
// Each reads Plex first and writes only what is missing, so a confirmation
// retried after a crash (or a change an admin made by hand meanwhile)
// writes nothing twice.
func Appliers(connect Connect) map[string]proposals.Applier {
	if connect == nil {
		connect = func(context.Context) (*content.PlexClient, string, error) { return nil, "", ErrNotConfigured }
	}
	a := appliers{connect: connect}
	return map[string]proposals.Applier{KindCollection: a.collection, KindLabel: a.label}
}

type appliers struct{ connect Connect }

// client connects and checks that the payload names the section in force.
func (a appliers) client(ctx context.Context, section string) (*content.PlexClient, error) {
	px, current, err := a.connect(ctx)
	if err != nil {
		return nil, err
	}
	if section != current {
		return nil, apperr.Invalidf("this proposal is for Plex section %s, but the workout library is now section %s: propose it again", section, current)
	}
	return px, nil
}

func (a appliers) collection(ctx context.Context, raw json.RawMessage) (string, error) {
	var p CollectionPayload
	if err := agent.DecodeArgs(raw, &p); err != nil {
		return "", fmt.Errorf("curator: plex.collection payload: %w", err)
	}
	title, err := collectionTitle(p.Title)
	if err != nil {
		return "", err
	}
	px, err := a.client(ctx, p.Section)
	if err != nil {
		return "", err
	}
	c, ok, err := findCollection(ctx, px, p.Section, title)
	if err != nil {
		return "", err
	}
	if !ok {
		if _, err := px.CreateCollection(ctx, p.Section, title, p.Type, p.Keys); err != nil {
			return "", err
		}
		return fmt.Sprintf("created collection “%s” with %s", title, count(len(p.Keys), "item")), nil
	}
	have, _, err := px.CollectionItems(ctx, string(c.RatingKey))
	if err != nil {
		return "", err
	}
	var missing []string
	for _, k := range p.Keys {
		if !slices.ContainsFunc(have, func(md content.PlexMetadata) bool { return string(md.RatingKey) == k }) && !slices.Contains(missing, k) {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return fmt.Sprintf("collection “%s” already holds all %s: nothing written", c.Title, count(len(p.Keys), "item")), nil
	}
	if err := px.AddToCollection(ctx, string(c.RatingKey), missing); err != nil {
		return "", err
	}
	return fmt.Sprintf("added %s to collection “%s”", count(len(missing), "item"), c.Title), nil
}

func (a appliers) label(ctx context.Context, raw json.RawMessage) (string, error) {
	var p LabelPayload
	if err := agent.DecodeArgs(raw, &p); err != nil {
		return "", fmt.Errorf("curator: plex.label payload: %w", err)
	}
	label, err := CheckLabel(p.Label)
	if err != nil {
		return "", err
	}
	if len(p.Keys) == 0 || len(p.Keys) > MaxProposalItems {
		return "", apperr.Invalidf("a label proposal names 1 to %d items", MaxProposalItems)
	}
	px, err := a.client(ctx, p.Section)
	if err != nil {
		return "", err
	}
	// Plex sets an item's whole label list (see PlexClient.SetLabels), so
	// items are grouped by their current labels: each group is sent its
	// labels plus the new one, and no other label is lost.
	type group struct {
		typ    string
		labels []string
		keys   []string
	}
	var (
		groups       []*group
		had, missing int
	)
	for _, k := range p.Keys {
		md, err := px.Item(ctx, k)
		if apperr.Is(err, apperr.NotFound) {
			missing++
			continue
		}
		if err != nil {
			return "", err
		}
		if hasLabel(md, label) {
			had++
			continue
		}
		labels := md.Labels()
		i := slices.IndexFunc(groups, func(g *group) bool { return g.typ == md.Type && slices.Equal(g.labels, labels) })
		if i < 0 {
			groups = append(groups, &group{typ: md.Type, labels: labels})
			i = len(groups) - 1
		}
		groups[i].keys = append(groups[i].keys, k)
	}
	added := 0
	for _, g := range groups {
		if err := px.SetLabels(ctx, p.Section, g.typ, g.keys, append(slices.Clone(g.labels), label)); err != nil {
			return "", fmt.Errorf("label %s on %d of %d items (%d done): %w", label, len(g.keys), len(p.Keys), added, err)
		}
		added += len(g.keys)
	}
	var notes []string
	if had > 0 {
		notes = append(notes, fmt.Sprintf("%d already had it", had))
	}
	if missing > 0 {
		notes = append(notes, fmt.Sprintf("%d no longer in Plex", missing))
	}
	out := fmt.Sprintf("added label “%s” to %s that lacked it", label, count(added, "item"))
	if added == 0 {
		out = fmt.Sprintf("label “%s”: nothing written", label)
	}
	if len(notes) > 0 {
		out += " (" + strings.Join(notes, "; ") + ")"
	}
	return out, nil
}
