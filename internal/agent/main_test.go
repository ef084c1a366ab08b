package agent_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: runs,
// streams and timers must all stop when their owner closes.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
