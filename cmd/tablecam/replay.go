package main

import (
	"context"
	"fmt"
)

// runReplay is not built yet.
func runReplay(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam replay: not available yet")
	return 1
}
