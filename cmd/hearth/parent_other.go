//go:build !linux

package main

import (
	"context"
	"time"
)

// watchParent needs /proc; elsewhere Hearth stops on its own signals only.
func watchParent(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}
