package schedule

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"hearth/internal/store"
)

// The scheduler's mutex is never held while waiting for the database. An
// agent run's commit holds the one writer connection and asks the
// scheduler for things (it applies the coach's staged tasks); a control
// call waiting for the writer meanwhile must not hold the mutex, or the two
// would wait for each other forever.
func TestMutexNotHeldAcrossTransactions(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "60", MemberID: "ada"})

	inTx, release := make(chan struct{}), make(chan struct{})
	committed := make(chan error, 1)
	go func() {
		committed <- h.db.Tx(ctx, func(tx *store.Tx) error {
			close(inTx)
			<-release                // Pause starts and waits for the writer meanwhile
			h.svc.Scheduled(task.ID) // takes the scheduler's mutex
			_, err := h.svc.List(ctx, TaskFilter{})
			return err
		})
	}()
	<-inTx
	waits := h.db.Write.Stats().WaitCount
	paused := make(chan error, 1)
	go func() {
		_, err := h.svc.Pause(ctx, task.ID, "travel")
		paused <- err
	}()
	// Pause is waiting for the one writer connection (the pool counts the
	// wait) before the transaction goes on to ask the scheduler.
	for deadline := time.Now().Add(5 * time.Second); h.db.Write.Stats().WaitCount == waits; {
		if time.Now().After(deadline) {
			t.Fatal("Pause never waited for the writer")
		}
		runtime.Gosched()
	}
	close(release)
	select {
	case err := <-committed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		// Exit, not t.Fatal or panic: both run the cleanups, which would
		// wait on the deadlocked writer until the test binary's timeout.
		fmt.Fprintln(os.Stderr, "--- FAIL: TestMutexNotHeldAcrossTransactions: deadlock: a transaction asking the scheduler waited for a control call that held the mutex while waiting for the writer")
		os.Exit(1)
	}
	if err := <-paused; err != nil {
		t.Fatal(err)
	}
	if got := h.get(task.ID); got.Status != StatusPaused {
		t.Fatalf("status after pause = %s", got.Status)
	}
	if _, armed := h.svc.Scheduled(task.ID); armed {
		t.Fatal("a paused task is still armed")
	}
}
