package main

import (
	"context"
	"fmt"
)

// runCalibrate is not built yet.
func runCalibrate(_ context.Context, e env) int {
	fmt.Fprintln(e.stderr, "tablecam calibrate: not available yet")
	return 1
}
