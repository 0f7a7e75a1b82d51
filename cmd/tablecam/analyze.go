package main

import (
	"context"
	"fmt"
)

// runAnalyze is not built yet.
func runAnalyze(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam analyze: not available yet")
	return 1
}
