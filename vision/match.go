package vision

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// Matching thresholds. A ratio test against the best match on any other face
// drops the keypoints every card shares (frame, text box); the similarity
// fit with its scale bound is the geometric verification.
const (
	maxHamming      = 64  // a keypoint match farther than this is noise
	ratio           = 0.9 // best distance must be below ratio × best on another face
	minMatches      = 8   // matches to a face before a fit is tried
	minInliers      = 8   // inliers for a card to be accepted
	inlierThreshold = 4.0 // pixels in the top-down image
	maxInstances    = 4   // copies of one face looked for in one image
	ransacRounds    = 400
)

// detection is one card found by matching: which reference, where, how well.
type detection struct {
	ref     int
	sim     similarity
	inliers int
	matches int
	quad    models.Quad // top-down pixels, from the face's top-left clockwise
	used    []int       // frame keypoints explained by this card
	score   float64     // when not 0, the confidence (a card named without keypoints)
}

// rotation snaps the card's turn to the nearest quarter.
func (d detection) rotation() models.Rotation {
	a := math.Mod(d.sim.angle()+360+45, 360)
	return models.Rotation(int(a/90) * 90 % 360)
}

// confidence grows with the inlier count and the share of matches explained.
func (d detection) confidence() float64 {
	if d.score > 0 {
		return math.Round(100*d.score) / 100
	}
	c := 1 - math.Exp(-float64(d.inliers)/12)
	share := float64(d.inliers) / float64(max(d.matches, 1))
	return math.Round(100*c*(0.7+0.3*share)) / 100
}

type keyMatch struct {
	frame    int // frame keypoint
	refPoint int // keypoint of the reference face
}

// matchFrame finds every catalog card in the top-down features: keypoints
// are matched to all faces at once, and per face, similarities are fitted
// with RANSAC one instance at a time; an accepted card's inliers leave the
// pool. skip, when not nil, marks frame keypoints already explained.
func (x *catalogIndex) matchFrame(f features, seed uint64) []detection {
	offsets := x.descriptorOffsets()
	byRef := map[int][]keyMatch{}
	for i := range f.Descs {
		n, ok := x.lsh.query(&f.Descs[i])
		if !ok || n.dist > maxHamming || float64(n.dist) >= ratio*float64(n.second) {
			continue
		}
		r := int(n.ref)
		byRef[r] = append(byRef[r], keyMatch{frame: i, refPoint: int(n.id) - offsets[r]})
	}
	refs := make([]int, 0, len(byRef))
	for r, ms := range byRef {
		if len(ms) >= minMatches {
			refs = append(refs, r)
		}
	}
	sort.Slice(refs, func(i, j int) bool {
		if len(byRef[refs[i]]) != len(byRef[refs[j]]) {
			return len(byRef[refs[i]]) > len(byRef[refs[j]])
		}
		return refs[i] < refs[j]
	})
	rng := rand.New(rand.NewPCG(seed, 7))
	taken := make([]bool, len(f.Points))
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	var out []detection
	for _, r := range refs {
		ref := &x.refs[r]
		for inst := 0; inst < maxInstances; inst++ {
			var pairs []pointPair
			var idx []int
			for _, m := range byRef[r] {
				if taken[m.frame] {
					continue
				}
				rp, fp := ref.Feat.Points[m.refPoint], f.Points[m.frame]
				pairs = append(pairs, pointPair{float64(rp.X), float64(rp.Y), float64(fp.X), float64(fp.Y)})
				idx = append(idx, m.frame)
			}
			if len(pairs) < minMatches {
				break
			}
			sim, flags, n := ransacSimilarity(pairs, params, rng)
			if n < minInliers || !spreadEnough(pairs, flags, ref) {
				break
			}
			d := detection{ref: r, sim: sim, inliers: n, matches: len(pairs)}
			for k, in := range flags {
				if in {
					taken[idx[k]] = true
					d.used = append(d.used, idx[k])
				}
			}
			w, h := float64(ref.W), float64(ref.H)
			for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
				px, py := sim.apply(c[0], c[1])
				d.quad[k] = models.Point{X: px, Y: py}
			}
			out = append(out, d)
		}
	}
	return out
}

// spreadEnough rejects fits whose inliers all sit in a tiny patch of the
// face, which a chance alignment of a few keypoints can produce.
func spreadEnough(pairs []pointPair, flags []bool, ref *reference) bool {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, f := range flags {
		if !f {
			continue
		}
		p := pairs[i]
		minX, maxX = math.Min(minX, p.rx), math.Max(maxX, p.rx)
		minY, maxY = math.Min(minY, p.ry), math.Max(maxY, p.ry)
	}
	return (maxX-minX)*(maxY-minY) >= 0.04*float64(ref.W*ref.H)
}
