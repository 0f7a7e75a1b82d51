package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestInOrderRunsPrepareAtOnce: with 3 workers, 3 prepares must be running
// at once (each waits, up to 10 s, for the other two), the results are
// used in the items' order whatever order they are made in, and never more
// than 3 are made or waiting at once.
func TestInOrderRunsPrepareAtOnce(t *testing.T) {
	const workers = 3
	items := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	var running, held, maxHeld atomic.Int32
	var mu sync.Mutex
	gathered := 0
	prepare := func(i int) string {
		held.Add(1)
		for {
			m := maxHeld.Load()
			if h := held.Load(); h <= m || maxHeld.CompareAndSwap(m, h) {
				break
			}
		}
		running.Add(1)
		defer running.Add(-1)
		if i < workers {
			// The first three wait for one another: one worker at a
			// time would never get past this.
			mu.Lock()
			gathered++
			deadline := time.Now().Add(10 * time.Second)
			for gathered < workers && time.Now().Before(deadline) {
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
			}
			ok := gathered >= workers
			mu.Unlock()
			if !ok {
				return "alone"
			}
		}
		// Later items finish in reverse order of their starts.
		time.Sleep(time.Duration(len(items)-i) * time.Millisecond)
		return fmt.Sprint(i)
	}
	var used []string
	all := inOrder(context.Background(), items, workers, prepare, func(i int, r string) bool {
		held.Add(-1)
		if r == "alone" {
			t.Errorf("item %d was prepared alone: prepares do not run at once", i)
		}
		used = append(used, r)
		return true
	}, func(string) { t.Error("a result discarded though every use went on") })
	if !all {
		t.Error("inOrder reports a stop that did not happen")
	}
	if want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(used, want) {
		t.Errorf("used %v, want %v", used, want)
	}
	if m := maxHeld.Load(); m > workers {
		t.Errorf("%d results made or waiting at once, want at most %d", m, workers)
	}
}

// TestInOrderStops: when use says stop, or the context is done, no item is
// started after, every result made is used or discarded exactly once, and
// inOrder says it stopped.
func TestInOrderStops(t *testing.T) {
	items := make([]int, 40)
	for i := range items {
		items[i] = i
	}
	for _, tc := range []struct {
		name   string
		cancel bool
	}{{"use stops", false}, {"context done", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var prepared, used, discarded atomic.Int32
			all := inOrder(ctx, items, 4, func(i int) int {
				prepared.Add(1)
				return i
			}, func(i, r int) bool {
				used.Add(1)
				if i == 5 {
					if tc.cancel {
						cancel()
						return true
					}
					return false
				}
				return true
			}, func(int) { discarded.Add(1) })
			if all {
				t.Error("inOrder reports every item used")
			}
			if used.Load() != 6 {
				t.Errorf("%d results used, want 6 (items 0–5)", used.Load())
			}
			if p := prepared.Load(); p != used.Load()+discarded.Load() {
				t.Errorf("%d prepared, %d used and %d discarded: a result was lost", p, used.Load(), discarded.Load())
			}
			if p := prepared.Load(); p > 6+4 {
				t.Errorf("%d items prepared, want at most 10 (6 used, 4 in flight)", p)
			}
		})
	}
}
