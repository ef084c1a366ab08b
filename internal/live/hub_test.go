package live

import (
	"testing"
	"time"
)

func TestPublishDeliversToTopicOnly(t *testing.T) {
	h := NewHub()
	a := h.Subscribe(MemberTopic("ada"))
	b := h.Subscribe(MemberTopic("bo"))
	defer a.Close()
	defer b.Close()
	h.Publish(MemberTopic("ada"), "weight", 81.2)
	select {
	case ev := <-a.C():
		if ev.Kind != "weight" || ev.Data.(float64) != 81.2 {
			t.Fatalf("got %+v", ev)
		}
	case <-time.After(time.Second):
		t.Fatal("no event for ada")
	}
	select {
	case ev := <-b.C():
		t.Fatalf("bo got %+v", ev)
	default:
	}
}

func TestOverflowCoalescesIntoResync(t *testing.T) {
	h := NewHub()
	s := h.Subscribe(TopicAdmin)
	defer s.Close()
	done := make(chan struct{})
	go func() {
		for i := 0; i < QueueSize*10; i++ {
			h.Publish(TopicAdmin, "run", i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("publish blocked on a slow reader")
	}
	if got := len(s.C()); got != QueueSize {
		t.Fatalf("queue holds %d, want %d", got, QueueSize)
	}
	select {
	case <-s.Resync():
	default:
		t.Fatal("no resync after overflow")
	}
}

func TestCloseUnsubscribesAndHubCloseEndsAll(t *testing.T) {
	h := NewHub()
	s := h.Subscribe("x", "y")
	s.Close()
	s.Close()
	if h.Subscribers("x")+h.Subscribers("y") != 0 {
		t.Fatal("still subscribed after Close")
	}
	s2 := h.Subscribe("x")
	h.Close()
	select {
	case <-s2.Done():
	case <-time.After(time.Second):
		t.Fatal("hub close did not end subscription")
	}
	s3 := h.Subscribe("x")
	select {
	case <-s3.Done():
	default:
		t.Fatal("subscribe after close should be done at once")
	}
}

func TestGenRisesBeforeDelivery(t *testing.T) {
	h := NewHub()
	s := h.Subscribe("m")
	defer s.Close()
	if h.Gen("m") != 0 {
		t.Fatal("fresh topic has a generation")
	}
	h.Publish("m", "weight", nil)
	<-s.C()
	if g := h.Gen("m"); g != 1 {
		t.Fatalf("gen after one publish = %d", g)
	}
	h.Publish("other", "x", nil)
	if h.Gen("m") != 1 || h.Gen("other") != 1 {
		t.Fatal("generations are per topic")
	}
}
