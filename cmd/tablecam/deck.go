package main

import (
	"context"
	"fmt"
)

// runDeck is not built yet.
func runDeck(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam deck: not available yet")
	return 1
}
