package main

import "context"

// inOrder calls prepare on each of items, on up to workers goroutines at
// once, and use with each result, in the items' order, on the calling
// goroutine: a slow step that needs nothing from the others (reading an
// image and finding its realm, up to seconds each) runs on every core,
// while the step that must keep the order (the analyzer, which learns the
// mat's cell size from frame to frame, and the output) runs one at a time. At most workers
// results are made or wait to be used at once, so memory stays bounded.
// When use returns false, or ctx is done, no further item is started, and
// the results already made are given to discard instead (to free them)
// before inOrder returns; it reports whether every item was used.
func inOrder[T, R any](ctx context.Context, items []T, workers int, prepare func(T) R, use func(T, R) bool, discard func(R)) bool {
	workers = max(workers, 1)
	results := make([]chan R, len(items))
	for i := range results {
		results[i] = make(chan R, 1)
	}
	slots := make(chan struct{}, workers)
	stop := make(chan struct{})
	go func() {
		for i, it := range items {
			select {
			case <-stop:
			default:
				select {
				case slots <- struct{}{}:
					go func() { results[i] <- prepare(it) }()
					continue
				case <-stop:
				}
			}
			// Stopped: the items not started get no result.
			for _, r := range results[i:] {
				close(r)
			}
			return
		}
	}()
	all := true
	for i, it := range items {
		if all && ctx.Err() != nil {
			all = false
			close(stop)
		}
		r, ok := <-results[i]
		if !ok {
			continue // never started
		}
		switch {
		case !all:
			discard(r)
		case !use(it, r):
			all = false
			close(stop)
		}
		<-slots
	}
	return all
}
