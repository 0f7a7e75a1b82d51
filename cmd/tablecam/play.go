package main

import (
	"context"
	"fmt"
)

// runPlay is not built yet.
func runPlay(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam play: not available yet")
	return 1
}
