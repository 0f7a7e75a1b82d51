package main

import (
	"context"
	"fmt"
)

// runSynth is not built yet.
func runSynth(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam synth: not available yet")
	return 1
}
