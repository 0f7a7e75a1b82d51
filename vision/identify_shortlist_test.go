package vision

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// shortlistPlain is the first-written shortlist: the faces for which keep
// is true (all when nil) ranked by their hash distance to the nearest of
// hashes, then by index, sorted, and the first k kept. shortlist's
// reference.
func shortlistPlain(x *catalogIndex, hashes []phash, k int, keep func(ref int) bool) []int {
	type scored struct{ ref, dist int }
	all := make([]scored, 0, len(x.refs))
	for i := range x.refs {
		if keep != nil && !keep(i) {
			continue
		}
		best := 64
		for _, h := range hashes {
			best = min(best, h.distance(x.refs[i].Hash))
		}
		all = append(all, scored{i, best})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].dist != all[j].dist {
			return all[i].dist < all[j].dist
		}
		return all[i].ref < all[j].ref
	})
	out := make([]int, 0, k)
	for i := 0; i < k && i < len(all); i++ {
		out = append(out, all[i].ref)
	}
	return out
}

// guidedFaceListPlain is the first-written choice of the guided matching's
// faces: the sizes gathered in a map, each that fits the outline
// shortlisted by shortlistPlain. Its faces in increasing order (the map's
// order is any).
func guidedFaceListPlain(x *catalogIndex, quad models.Quad, hashes []phash) []int {
	var guided []int
	sizes := map[[2]int]bool{}
	for i := range x.refs {
		sizes[[2]int{x.refs[i].W, x.refs[i].H}] = true
	}
	for size := range sizes {
		if !outlineFitsFace(quad, float64(size[0]), float64(size[1])) {
			continue
		}
		guided = append(guided, shortlistPlain(x, hashes, guidedFaces, func(ri int) bool {
			return x.refs[ri].W == size[0] && x.refs[ri].H == size[1]
		})...)
	}
	slices.Sort(guided)
	return guided
}

// TestShortlistAsSorted checks the hash shortlists, counted, against
// ranking all faces and sorting them (shortlistPlain), and the guided
// matching's faces against choosing them size by size through a map:
// catalogs of up to 1,500 faces of a few sizes, hashes near some faces
// (many ties) and far from all, none at all, and shortlists of every
// length up to more than the catalog holds.
func TestShortlistAsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	sizes := [][2]int{{126, 176}, {176, 126}, {88, 124}, {126, 177}}
	compared, guided := 0, 0
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(1500)
		refs := make([]reference, n)
		for i := range refs {
			sz := sizes[rng.IntN(1+trial%len(sizes))]
			refs[i] = reference{W: sz[0], H: sz[1], Hash: phash(rng.Uint64())}
			if rng.IntN(4) == 0 && i > 0 { // near another face: ties
				refs[i].Hash = refs[rng.IntN(i)].Hash ^ phash(1)<<rng.IntN(64)
			}
		}
		x := &catalogIndex{refs: refs, faceSizes: facesBySize(refs)}
		var hashes []phash
		for range rng.IntN(5) {
			h := phash(rng.Uint64())
			if rng.IntN(2) == 0 {
				h = refs[rng.IntN(n)].Hash ^ phash(rng.Uint64()&rng.Uint64()&rng.Uint64())
			}
			hashes = append(hashes, h)
		}
		dist := x.hashDistances(hashes)
		for _, k := range []int{0, 1, 2, guidedFaces, shortlistSize, rng.IntN(n + 1), n, n + 5} {
			if got, want := shortlist(dist, nil, k), shortlistPlain(x, hashes, k, nil); !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d faces, k %d: shortlist %v, sorted %v", trial, n, k, got, want)
			}
			for _, s := range x.faceSizes {
				keep := func(ri int) bool { return refs[ri].W == s.w && refs[ri].H == s.h }
				if got, want := shortlist(dist, s.refs, k), shortlistPlain(x, hashes, k, keep); !slices.Equal(got, want) {
					t.Fatalf("trial %d, %d faces of %d×%d, k %d: shortlist %v, sorted %v", trial, len(s.refs), s.w, s.h, k, got, want)
				}
				compared++
			}
		}
		for range 10 {
			w, h := 100+rng.Float64()*120, 100+rng.Float64()*120
			x0, y0 := rng.Float64()*500, rng.Float64()*500
			quad := models.Quad{{X: x0, Y: y0}, {X: x0 + w, Y: y0}, {X: x0 + w, Y: y0 + h}, {X: x0, Y: y0 + h}}
			got := x.guidedFaceList(quad, dist)
			slices.Sort(got)
			if want := guidedFaceListPlain(x, quad, hashes); !slices.Equal(got, want) {
				t.Fatalf("trial %d, outline %.0f×%.0f: guided faces %v, by the map %v", trial, w, h, got, want)
			}
			guided += len(got)
		}
	}
	if compared == 0 || guided == 0 {
		t.Fatalf("%d shortlists compared, %d guided faces: the comparison says little", compared, guided)
	}
}
