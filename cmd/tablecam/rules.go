package main

import (
	"context"
	"fmt"
)

// runRules is not built yet.
func runRules(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam rules: not available yet")
	return 1
}
