package main

import (
	"context"
	"fmt"
)

// runWatch is not built yet.
func runWatch(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam watch: not available yet")
	return 1
}
