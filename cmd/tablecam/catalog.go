package main

import (
	"context"
	"fmt"
)

// runCatalog is not built yet.
func runCatalog(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam catalog: not available yet")
	return 1
}
