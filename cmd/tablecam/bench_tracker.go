package main

import (
	"context"
	"fmt"
)

// runBenchTracker is not built yet.
func runBenchTracker(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam bench_tracker: not available yet")
	return 1
}
