package main

import (
	"context"
	"fmt"
)

// runBenchCatalog is not built yet.
func runBenchCatalog(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam bench_catalog: not available yet")
	return 1
}
