package coach

import (
	"testing"

	"hearth/internal/health"
)

// A request for a message is written from its own words, turned to the
// member: the stretching reminder is a stretching reminder (it was a
// sleep reminder: "bed" matched first in a fixed topic order), and "me"
// and "my" in a request that addresses the member as "me" are theirs
// ("A note from your coach, Maya: me about my knee in 20 minutes." came
// from cutting the verb off and quoting the rest). Time phrases the
// schedule already acted on ("in 20 minutes") are dropped; a request for
// something else gets no message.
func TestRequestMessagesAreWrittenFromTheRequestsWords(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "theo", Name: "Theo"})
	f.member(health.Member{ID: "maya", Name: "Maya Lin"})
	r := newReplier(newCore(f.deps))
	for _, c := range []struct {
		member, request, want string
	}{
		{"theo", "Remind Theo to do 10 minutes of stretching before bed",
			"Stretching reminder: do 10 minutes of stretching before bed."},
		{"maya", "Please check in with me about my knee in 20 minutes",
			"Checking in about your knee: how is it going? Tap Ask the coach to tell me."},
		{"maya", "In an hour, remind me to take my vitamins",
			"Reminder: take your vitamins."},
		{"theo", "Remind Theo to log his dinner",
			"Meal reminder: log your dinner. Nothing logged today yet."},
		{"theo", "Remind him that he has a check-up tomorrow morning at 9",
			"Reminder: you have a check-up."},
		{"theo", "Tell Theo that he did great this week!", "You did great this week."},
		{"maya", "Ask Maya how her knee feels after the run",
			"Quick question about how your knee feels after the run: tap Ask the coach to tell me."},
		{"maya", "Congratulate Maya on her first 5k", "Congratulations on your first 5k!"},
		{"maya", "Encourage her to keep up her walks",
			"You can do it: keep up your walks. This week so far: 0 workouts."},
		{"maya", "Add a short hydration reminder",
			"Hydration reminder: keep a glass of water within reach and sip through the day; one with each meal is an easy rule."},
		{"maya", "Send Maya a short note about rest days",
			"A note on rest: rest days are when training pays off; keep today easy and sleep well."},
		{"maya", "Send Maya a reminder to go to bed early",
			"Sleep reminder: go to bed early."},
		{"theo", "Write Theo a note about his posture at the desk",
			"A note on stretching: a few minutes of gentle stretching loosens you up after sitting."},
		{"theo", "Send Theo a note about the family holiday",
			"A note from your coach about the family holiday."},
		{"theo", "Remind Theo to call Theo's sister", "Reminder: call your sister."},
		{"maya", "Remind Maya to send me her weigh-in", "Weigh-in reminder: send me your weigh-in."},
	} {
		m, err := f.db.Member(f.ctx, c.member)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := r.request(f.ctx, m, f.clk.Now(), c.request)
		if err != nil || !ok || got != c.want {
			t.Errorf("%q for %s:\n got %q (%v, %v)\nwant %q", c.request, c.member, got, ok, err, c.want)
		}
	}
	for _, req := range []string{"Review Theo's training week and note what stands out", "Plan next week", ""} {
		if got, ok, err := r.request(f.ctx, health.Member{ID: "theo", Name: "Theo"}, f.clk.Now(), req); ok || err != nil {
			t.Errorf("%q is not a request for a message: %q %v %v", req, got, ok, err)
		}
	}
}
