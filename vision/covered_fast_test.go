//go:build linux

package vision

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// TestLeadingAsSorted checks leading against sorting in full and keeping
// the first k: scores from a few values (many equal) and from many, short
// lists and long, k from 1 to 9. Where leading passes over the sort, the k
// it keeps must be those the sort keeps (in the sort's order too when
// ordered), whichever way the sort orders equal scores.
func TestLeadingAsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	type item struct {
		id    int
		score float64
	}
	score := func(it *item) float64 { return it.score }
	fast := 0
	for trial := 0; trial < 4000; trial++ {
		n := 1 + rng.IntN(60)
		if trial%4 == 0 {
			n = 200 + rng.IntN(300)
		}
		values := 3 + rng.IntN(4)
		if trial%2 == 0 {
			values = 1 << 30
		}
		s := make([]item, n)
		for i := range s {
			s[i] = item{i, float64(rng.IntN(values)) / 7}
		}
		k := 1 + rng.IntN(9)
		ordered := rng.IntN(2) == 0
		want := slices.Clone(s)
		sort.SliceStable(want, func(i, j int) bool { return want[i].score > want[j].score })
		want = want[:min(k, n)]
		got := leading(slices.Clone(s), k, score, ordered, false)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d kept, want %d", trial, len(got), len(want))
		}
		// Where ties decide, leading sorts: the sort's own order, which
		// need not be the stable one; only the scores are comparable.
		tie := func(w []item) bool {
			all := slices.Clone(s)
			sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
			if len(all) > k && all[k-1].score == all[k].score {
				return true
			}
			for i := 1; ordered && i < len(w); i++ {
				if w[i-1].score == w[i].score {
					return true
				}
			}
			return false
		}
		for i := range want {
			if got[i].score != want[i].score {
				t.Fatalf("trial %d: score %d is %v, want %v", trial, i, got[i].score, want[i].score)
			}
		}
		if tie(want) {
			continue
		}
		fast++
		if !ordered {
			ids := func(w []item) []int {
				var out []int
				for _, it := range w {
					out = append(out, it.id)
				}
				slices.Sort(out)
				return out
			}
			if !reflect.DeepEqual(ids(got), ids(want)) {
				t.Fatalf("trial %d: kept %v, want %v", trial, got, want)
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: kept %v, want %v", trial, got, want)
		}
	}
	if fast < 1000 {
		t.Errorf("only %d trials without a deciding tie", fast)
	}
}

// TestCoveredSitesAsPlain runs the covered-site search on the bundled
// stills twice: as it runs, and plainly (faces.noLanes: every face summed
// on its own, every list of scores sorted in full). The sites found, their
// names, places and scores must be the same to the last bit.
func TestCoveredSitesAsPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 40 stills")
	}
	a := newTestAnalyzer(t, devCatalog(t))
	ins := coveredInputs(t, a, 40)
	var fast [][]coveredSite
	for _, in := range ins {
		fast = append(fast, a.findCoveredSites(in.gray, in.v, in.found, nil))
	}
	if a.covered.faces == nil || len(a.covered.faces.refs) == 0 {
		t.Skip("no site faces searched")
	}
	a.covered.faces.noLanes = true
	named := 0
	for i, in := range ins {
		plain := a.findCoveredSites(in.gray, in.v, in.found, nil)
		if !reflect.DeepEqual(fast[i], plain) {
			t.Fatalf("still %d: %+v, plainly %+v", i, fast[i], plain)
		}
		for _, s := range plain {
			if s.named {
				named++
			}
		}
	}
	if named == 0 {
		t.Error("no covered site named: nothing compared")
	}
	t.Logf("%d covered sites named alike", named)
}

// TestHalf16Exact checks that half16 gives every multiple of ¼ from 0 to
// 255 exactly, as IEEE half precision reads it back.
func TestHalf16Exact(t *testing.T) {
	for k := 0; k <= 1020; k++ {
		v := float32(k) / 4
		h := half16(v)
		e, m := int(h>>10&0x1f), float64(h&0x3ff)
		var got float64
		if e == 0 {
			got = m / 1024 * math.Pow(2, -14)
		} else {
			got = (1 + m/1024) * math.Pow(2, float64(e-15))
		}
		if h>>15 != 0 || got != float64(v) {
			t.Fatalf("half16(%v) = %#04x, which reads %v", v, h, got)
		}
	}
}
