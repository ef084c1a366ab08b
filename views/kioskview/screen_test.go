package kioskview

import "testing"

// The briefing's first sentence is shown large: it ends at a full stop,
// question or exclamation mark before a space, not inside "1.5 kg" or
// after an initial.
func TestLeadSentence(t *testing.T) {
	cases := []struct{ in, lead, rest string }{
		{"Weight 71.5 kg, trend −0.2 kg over 7 days. At this pace you reach 68 kg.", "Weight 71.5 kg, trend −0.2 kg over 7 days.", "At this pace you reach 68 kg."},
		{"Rest day!  Take a walk.", "Rest day!", "Take a walk."},
		{"Ask Dr. J. Smith first. Then rest.", "Ask Dr. J. Smith first.", "Then rest."},
		{"One sentence only.", "One sentence only.", ""},
		{"No full stop", "No full stop", ""},
	}
	for _, c := range cases {
		lead, rest := leadSentence(c.in)
		if lead != c.lead || rest != c.rest {
			t.Errorf("leadSentence(%q) = %q, %q; want %q, %q", c.in, lead, rest, c.lead, c.rest)
		}
	}
}
