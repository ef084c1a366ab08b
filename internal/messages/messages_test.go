package messages_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/messages"
	"hearth/internal/store/storetest"
)

func TestSendListDismiss(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bo")
	hub := live.NewHub()
	defer hub.Close()
	sub := hub.Subscribe(live.MemberTopic("ada"))
	defer sub.Close()
	s := messages.New(db, hub)
	ctx := context.Background()

	m, err := s.Send(ctx, "ada", "health-coach", "  Drink water.\r\x07  ", messages.Via{Source: "schedule", RunID: 7})
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "Drink water." || m.ID == 0 || m.RunID != 7 {
		t.Fatalf("sent %+v", m)
	}
	if ev := <-sub.C(); ev.Kind != live.KindMessage {
		t.Fatalf("event %+v, want a message event", ev)
	}
	if _, err := s.Send(ctx, "nobody", "health-coach", "hi", messages.Via{}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown member: %v", err)
	}
	if _, err := s.Send(ctx, "ada", "health-coach", " \t ", messages.Via{}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("empty message: %v", err)
	}
	long, _ := s.Send(ctx, "ada", "health-coach", strings.Repeat("é", messages.MaxLen+10), messages.Via{})
	if n := len([]rune(long.Text)); n != messages.MaxLen || !strings.HasSuffix(long.Text, "…") {
		t.Fatalf("long message cut to %d runes", n)
	}
	if n, _ := s.SentByRun(ctx, 7); n != 1 {
		t.Fatalf("sent by run 7: %d", n)
	}
	// Another member cannot dismiss ada's message.
	if err := s.Dismiss(ctx, "bo", m.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("bo dismissing ada's message: %v", err)
	}
	if err := s.Dismiss(ctx, "ada", m.ID); err != nil {
		t.Fatal(err)
	}
	open, _ := s.List(ctx, messages.Filter{Member: "ada", Open: true})
	all, _ := s.List(ctx, messages.Filter{Member: "ada"})
	if len(open) != 1 || open[0].ID == m.ID || len(all) != 2 || all[1].DismissedAt == nil {
		t.Fatalf("open %+v, all %+v", open, all)
	}
}
