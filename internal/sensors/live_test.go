package sensors

import (
	"context"
	"sync"
	"testing"

	"hearth/internal/live"
)

type published struct {
	mu   sync.Mutex
	msgs []string
}

func (p *published) Publish(topic string, kind live.Kind, _ any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, topic+" "+string(kind))
}

func (p *published) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// New readings refresh the member's screens as an import does (after the
// commit); a poll that adds nothing publishes nothing.
func TestPollPublishesLikeAnImport(t *testing.T) {
	e := newEnv(t)
	pub := &published{}
	e.svc = New(e.db, e.ha.Connect(), nil, pub, nil)
	e.mapping("sensor.scale_weight", "ada", KindWeight)
	e.add("sensor.scale_weight", "80.1", "kg", at(10, 7, 0))
	if _, err := e.svc.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := pub.list()
	if len(got) != 2 || got[0] != live.MemberTopic("ada")+" "+string(live.KindImport) || got[1] != live.TopicHousehold+" "+string(live.KindImport) {
		t.Errorf("published %v", got)
	}
	e.now = e.now.Add(Every)
	if _, err := e.svc.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(pub.list()); n != 2 {
		t.Errorf("a poll that added nothing published: %v", pub.list())
	}
}
