package main

import (
	"context"
	"fmt"
)

// runBenchVision is not built yet.
func runBenchVision(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam bench_vision: not available yet")
	return 1
}
