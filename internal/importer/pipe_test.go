package importer

import (
	"context"
	"hearth/internal/testkit"
	"strings"
	"testing"
)

// A batch handed to the writer belongs to the writer. When the import is
// cancelled while the parser waits for a free batch, the parser's final
// flush must not send that batch a second time: the writer would apply it
// twice and return it to the ring twice, overfilling the ring so the
// writer blocked forever (TestImportCancelled hung once this way).
func TestFlushAfterCancelSendsNothingAgain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newPipe(ctx, newProgress(strings.NewReader(""), "f.csv", 0, nil))
	for len(p.free) > 0 { // the writer holds every free batch
		<-p.free
	}
	if err := p.add(event{kind: evUnknown, label: "x"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.flush() }() // sends the batch, then waits for a free one
	testkit.WaitFor(t, testkit.Patience, "the pipe to fill", func() bool { return len(p.full) == 1 })
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("flush = %v, want context.Canceled", err)
	}
	<-p.full       // the writer took it
	for range 50 { // the parser's last flush, racing the cancelled context
		if err := p.flush(); err == nil {
			t.Fatal("flush after cancel succeeded")
		}
		if len(p.full) != 0 {
			t.Fatal("a flush after cancel sent a batch again")
		}
	}
}
