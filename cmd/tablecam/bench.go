package main

import (
	"context"
	"fmt"
)

// runBench dispatches "tablecam bench vision|tracker|catalog".
func runBench(ctx context.Context, e env) int {
	subs := map[string]func(context.Context, env) int{
		"vision":  runBenchVision,
		"tracker": runBenchTracker,
		"catalog": runBenchCatalog,
	}
	if len(e.args) == 0 || subs[e.args[0]] == nil {
		fmt.Fprintln(e.stderr, "usage: tablecam bench vision|tracker|catalog [FLAGS]")
		return 2
	}
	sub := subs[e.args[0]]
	e.args = e.args[1:]
	return sub(ctx, e)
}
