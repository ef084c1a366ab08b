package dashboard

import (
	"slices"

	"hearth/internal/text"
)

// CleanText drops control characters and invalid UTF-8 from every text
// field (model output reaches screens over the live stream, see package
// text) and returns how many characters it dropped. Briefing and feedback
// may span lines; everything else is one line.
func (d *Document) CleanText() int {
	n := 0
	clean := func(m text.Mode, s *string) {
		var k int
		*s, k = text.Clean(m, *s)
		n += k
	}
	ref := func(c *ContentRef) {
		clean(text.Line, &c.ContentID)
		clean(text.Line, &c.Title)
		clean(text.Line, &c.ProgramContext)
		clean(text.Line, &c.Reason)
	}
	if d.Curated.UpNext.Primary != nil {
		ref(d.Curated.UpNext.Primary)
	}
	for i := range d.Curated.UpNext.Alternates {
		ref(&d.Curated.UpNext.Alternates[i])
	}
	for i := range d.Curated.PlaylistSuggestion {
		ref(&d.Curated.PlaylistSuggestion[i])
	}
	clean(text.Multi, &d.Coach.Briefing)
	for i := range d.Coach.CTA {
		c := &d.Coach.CTA[i]
		clean(text.Line, &c.Type)
		clean(text.Line, &c.Message)
		clean(text.Line, &c.Action)
	}
	for i := range d.Coach.Prompts {
		p := &d.Coach.Prompts[i]
		clean(text.Line, &p.ID)
		clean(text.Line, &p.Type)
		clean(text.Line, &p.Question)
		for j := range p.Options {
			clean(text.Line, &p.Options[j])
		}
	}
	for i := range d.Coach.Feedback {
		clean(text.Multi, &d.Coach.Feedback[i])
	}
	return n
}

// clone copies d deeply enough that CleanText on the copy leaves d alone.
func (d Document) clone() Document {
	if p := d.Curated.UpNext.Primary; p != nil {
		c := *p
		d.Curated.UpNext.Primary = &c
	}
	d.Curated.UpNext.Alternates = slices.Clone(d.Curated.UpNext.Alternates)
	d.Curated.PlaylistSuggestion = slices.Clone(d.Curated.PlaylistSuggestion)
	d.Coach.CTA = slices.Clone(d.Coach.CTA)
	prompts := make([]Prompt, len(d.Coach.Prompts))
	for i, p := range d.Coach.Prompts {
		p.Options = slices.Clone(p.Options)
		prompts[i] = p
	}
	if d.Coach.Prompts != nil {
		d.Coach.Prompts = prompts
	}
	d.Coach.Feedback = slices.Clone(d.Coach.Feedback)
	return d
}
