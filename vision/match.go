package vision

import (
	"image"
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
	// agreed are the frame keypoints that verify found agreeing with the
	// face (besides used).
	agreed []int
	score  float64 // when not 0, the confidence (a card named without keypoints)
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
// pool.
//
// Most keypoints lie on cards, and a card in plain view has hundreds of
// them, far more than its fit needs. So matching runs in two passes: half
// the keypoints (see quickSample) are described, and a spatially even part
// of those (see quickLookups) is looked up in the first quickTables hash
// tables only, which finds the cards in plain view; then the keypoints
// those cards do not explain (see unexplained: the visible part of a card
// under another, a blurred card, the mat) are described and looked up in
// all the tables (a keypoint of the first pass in the tables it did not
// look in; see lookupAgain), and fitted again. The keypoints neither pass
// describes are never described: describing a keypoint costs about as much
// as finding it. The first pass describes more keypoints than it looks up
// for the checks that read a found card's face in the keypoints described
// inside it (verify, the name check, faceShowsWithin): their thresholds
// hold for half the keypoints.
func (x *catalogIndex) matchFrame(f features, seed uint64) []detection {
	return x.matchFrameLaps(f, seed, func(string) {})
}

// matchFrameLaps is matchFrame, telling lap each time one of its stages
// ends (for BenchmarkFrameStages: see Analyzer.laps).
func (x *catalogIndex) matchFrameLaps(f features, seed uint64, lap func(stage string)) []detection {
	dets, _ := x.matchFrameLooked(f, seed, lap)
	return dets
}

// lookedUp is the second matching pass's lookups: the keypoints it looked
// up (which) and their nearest reference descriptors in all the tables.
type lookedUp struct {
	which []int
	near  []nearest
}

// matchFrameLooked is matchFrameLaps, giving the second pass's lookups too.
func (x *catalogIndex) matchFrameLooked(f features, seed uint64, lap func(stage string)) ([]detection, lookedUp) {
	rng := rand.New(rand.NewPCG(seed, 7))
	taken := make([]bool, len(f.Points))
	f.describe(quickSample(f))
	lap("matching: describing 1")
	sample, at := quickLookups(f)
	grid := newPointGrid(f.Points, frameGridCell)
	quick := x.lookup(f, sample, quickTables)
	lap("matching: lookups 1")
	out := x.fitCards(f, x.groupMatches(sample, quick), grid, taken, rng)
	lap("matching: fits 1")
	rest := unexplained(f, out, grid)
	f.describe(rest)
	lap("matching: describing 2")
	near := x.lookupAgain(f, rest, quick, at)
	lap("matching: lookups 2")
	return append(out, x.fitCards(f, x.groupMatches(rest, near), grid, taken, rng)...), lookedUp{rest, near}
}

// lookupAgain finds the nearest reference descriptor of each listed
// keypoint in all the hash tables, as lookup does; those the first pass
// looked up go on from there: keypoint i's first-pass find is quick[at[i]]
// when at[i] ≥ 0 (see quickLookups).
func (x *catalogIndex) lookupAgain(f features, which []int, quick []nearest, at []int32) []nearest {
	var again, fresh []int // positions in which
	for q, i := range which {
		if at[i] >= 0 {
			again = append(again, q)
		} else {
			fresh = append(fresh, q)
		}
	}
	near := make([]nearest, len(which))
	for _, part := range []struct {
		at    []int
		again bool
	}{{again, true}, {fresh, false}} {
		ids := make([]int, len(part.at))
		got := make([]nearest, len(part.at))
		for j, q := range part.at {
			ids[j] = which[q]
		}
		if part.again {
			for j, i := range ids {
				got[j] = quick[at[i]]
			}
			x.lsh.queryMore(f.Descs, ids, quickTables, len(x.lsh.tables), lshBucketCap, got)
		} else {
			x.lsh.queryBatch(f.Descs, ids, len(x.lsh.tables), lshBucketCap, got)
		}
		for j, q := range part.at {
			near[q] = got[j]
		}
	}
	return near
}

// frameGridCell is the cell side (pixels) of the grid of frame keypoints.
const frameGridCell = 16

// The first matching pass describes every quickStride-th keypoint and
// looks up, among those, one in each quickCell-pixel square of the image
// per pyramid level, in the first quickTables hash tables. Where a card
// shows its art, keypoints crowd (dozens in such a square): a few are
// plenty to find the card, and the keypoints the pass skips on a card it
// finds lie near that card's inliers, so the second pass does not look
// them up either. (Looking up every described keypoint found the same
// cards with more lookups; squares of 16 pixels lost sites seen in part;
// the strongest half of the keypoints of each part of the image found the
// same cards at no lower cost.)
const (
	quickTables = 3
	quickStride = 2
	quickCell   = 12
)

// quickSample lists the keypoints the first pass describes: every
// quickStride-th.
func quickSample(f features) []int {
	out := make([]int, 0, len(f.Points)/quickStride+1)
	for i := 0; i < len(f.Points); i += quickStride {
		out = append(out, i)
	}
	return out
}

// quickLookups lists the keypoints the first pass looks up: in each
// quickCell square, per pyramid level, the first of quickSample's that the
// detector lists there. at[i] is keypoint i's place in the list, or -1
// when it is not in it.
//
// The detector lists its keypoints level by level, each level row by row
// (see frameORB), so a level begins where the rows start again from the
// top. (Were a level to begin below the last row of the one before, the
// two would share squares: fewer lookups, never a wrong one.)
func quickLookups(f features) (sample []int, at []int32) {
	var w, h int
	for _, p := range f.Points {
		w, h = max(w, int(p.X)/quickCell+1), max(h, int(p.Y)/quickCell+1)
	}
	// taken[c] is the level (from 1) of the last keypoint listed in square c.
	taken := make([]int32, w*h)
	at = make([]int32, len(f.Points))
	sample = make([]int, 0, len(f.Points)/quickStride+1)
	level := int32(1)
	for i, p := range f.Points {
		if i > 0 && p.Y < f.Points[i-1].Y {
			level++
		}
		at[i] = -1
		if i%quickStride != 0 {
			continue
		}
		c := int(p.Y)/quickCell*w + int(p.X)/quickCell
		if taken[c] == level {
			continue
		}
		taken[c] = level
		at[i] = int32(len(sample))
		sample = append(sample, i)
	}
	return sample, at
}

// explainCell is the side, in top-down pixels, of the grid cells in which
// keypoints are checked against the inliers of the cards found.
const explainCell = 12

// explainDeep is how many cells away an inlier of a card explains a
// keypoint inside that card's outline: the card's text box and frame, which
// every card shares, yield keypoints that match no face (and, looked up
// again, would only add chance matches). Farther from its inliers, a card
// lying on top of it would show.
const explainDeep = 3

// A keypoint inside a found card within edgeBand pixels of its outline is
// left out of the second pass: its patch straddles the card's edge, matches
// no face, and looked up again would only add chance matches. Outside the
// outline, only outsideBand pixels (the fit's error) are left out: a card
// under it may show right beside its edge.
const (
	edgeBand    = 8
	outsideBand = 3
)

// unexplained lists the keypoints the cards found do not explain: those on
// a card's outline (see edgeBand), or inside it within explainDeep cells of
// one of its inliers, are explained. Outside its outline a card explains
// nothing: what shows there is another card, or the mat. The grid holds
// the keypoints by position.
func unexplained(f features, dets []detection, grid *pointGrid) []int {
	type area struct {
		box       image.Rectangle // the card's outline grown by edgeBand, pixels
		x0, y0, w int             // its cells: first column and row, columns
		deep      []bool          // cells within explainDeep of an inlier
		outline   outline
	}
	areas := make([]area, len(dets))
	for k, d := range dets {
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range d.quad {
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
		a := area{box: image.Rect(int(minX)-edgeBand, int(minY)-edgeBand, int(maxX)+edgeBand+1, int(maxY)+edgeBand+1), outline: newOutline(d.quad)}
		a.x0, a.y0 = floorDiv(a.box.Min.X, explainCell), floorDiv(a.box.Min.Y, explainCell)
		a.w = floorDiv(a.box.Max.X, explainCell) - a.x0 + 1
		h := floorDiv(a.box.Max.Y, explainCell) - a.y0 + 1
		a.deep = make([]bool, a.w*h)
		for _, i := range d.used {
			cx, cy := int(f.Points[i].X)/explainCell-a.x0, int(f.Points[i].Y)/explainCell-a.y0
			for y := max(cy-explainDeep, 0); y <= min(cy+explainDeep, h-1); y++ {
				for x := max(cx-explainDeep, 0); x <= min(cx+explainDeep, a.w-1); x++ {
					a.deep[y*a.w+x] = true
				}
			}
		}
		areas[k] = a
	}
	// Each card's keypoints are read from the grid: a card's box holds a
	// small part of the frame's.
	explained := make([]bool, len(f.Points))
	for k := range areas {
		a := &areas[k]
		x0, x1, y0, y1 := grid.cellsIn(float64(a.box.Min.X), float64(a.box.Min.Y), float64(a.box.Max.X), float64(a.box.Max.Y))
		for gy := y0; gy <= y1; gy++ {
			for gx := x0; gx <= x1; gx++ {
				for _, i := range grid.at(gx, gy) {
					p := f.Points[i]
					if explained[i] || !image.Pt(int(p.X), int(p.Y)).In(a.box) {
						continue
					}
					d := a.outline.insideDistance(models.Point{X: float64(p.X), Y: float64(p.Y)})
					cx, cy := int(p.X)/explainCell-a.x0, int(p.Y)/explainCell-a.y0
					explained[i] = (d >= -outsideBand && d <= edgeBand) || (d > 0 && a.deep[cy*a.w+cx])
				}
			}
		}
	}
	var out []int
	for i, e := range explained {
		if !e {
			out = append(out, i)
		}
	}
	return out
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int) int {
	if a < 0 {
		return -((-a + b - 1) / b)
	}
	return a / b
}

// insideDistance is the distance from p to the outline of the convex quad
// q: positive inside, negative outside (the distance to the nearest side's
// line, which is exact inside and near the sides).
func insideDistance(p models.Point, q models.Quad) float64 {
	o := newOutline(q)
	return o.insideDistance(p)
}

// outline is a convex quad's sides, each as a point on it and its unit
// direction turned so that inside is positive: what insideDistance needs
// of the quad, worked out once for the many points tested against it.
type outline struct {
	sides [4]struct{ ax, ay, ux, uy float64 }
	n     int
}

func newOutline(q models.Quad) outline {
	// Orient by the quad's winding so that inside is positive.
	sign := 1.0
	if (q[1].X-q[0].X)*(q[2].Y-q[0].Y)-(q[1].Y-q[0].Y)*(q[2].X-q[0].X) < 0 {
		sign = -1
	}
	var o outline
	for i := range q {
		a, c := q[i], q[(i+1)%4]
		l := math.Hypot(c.X-a.X, c.Y-a.Y)
		if l < 1e-9 {
			continue
		}
		s := &o.sides[o.n]
		s.ax, s.ay, s.ux, s.uy = a.X, a.Y, sign*(c.X-a.X)/l, sign*(c.Y-a.Y)/l
		o.n++
	}
	return o
}

// insideDistance is the package function's distance from p to the outline.
// (Plain comparisons: math.Min, which a call away minds NaNs and signed
// zeros that finite sides never give, cost half the time of unexplained.)
func (o *outline) insideDistance(p models.Point) float64 {
	d := math.Inf(1)
	for _, s := range o.sides[:o.n] {
		if v := s.ux*(p.Y-s.ay) - s.uy*(p.X-s.ax); v < d {
			d = v
		}
	}
	return d
}

// matchKeypoints matches the listed frame keypoints against all faces,
// looking in the first k hash tables, and groups the matches that pass the
// distance and ratio tests by face.
func (x *catalogIndex) matchKeypoints(f features, which []int, k int) map[int][]keyMatch {
	return x.groupMatches(which, x.lookup(f, which, k))
}

// lookup finds the nearest reference descriptor of each listed keypoint in
// the first k hash tables.
func (x *catalogIndex) lookup(f features, which []int, k int) []nearest {
	near := make([]nearest, len(which))
	x.lsh.queryBatch(f.Descs, which, k, lshBucketCap, near)
	return near
}

// groupMatches groups by face the matches of the listed keypoints (near[q]
// is which[q]'s nearest reference descriptor) that pass the distance and
// ratio tests.
func (x *catalogIndex) groupMatches(which []int, near []nearest) map[int][]keyMatch {
	offsets := x.descriptorOffsets()
	byRef := map[int][]keyMatch{}
	for q, i := range which {
		n := near[q]
		if n.id < 0 || n.dist > maxHamming || float64(n.dist) >= ratio*float64(n.second) {
			continue
		}
		r := int(n.ref)
		byRef[r] = append(byRef[r], keyMatch{frame: i, refPoint: int(n.id) - offsets[r]})
	}
	return byRef
}

// fitCards fits the cards the matches show, face by face (the face with
// most matches first), up to maxInstances copies of each, and verifies each
// card accepted against all the keypoints in its outline (grid holds them by
// position). Keypoints taken by an accepted card are marked in taken and
// not used again.
func (x *catalogIndex) fitCards(f features, byRef map[int][]keyMatch, grid *pointGrid, taken []bool, rng *rand.Rand) []detection {
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
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	var out []detection
	for _, r := range refs {
		ref := &x.refs[r]
		for inst := 0; inst < maxInstances; inst++ {
			pairs := make([]pointPair, 0, len(byRef[r]))
			idx := make([]int, 0, len(byRef[r]))
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
			least := minInliers
			if x.peers[r] >= minWeakPeers {
				least = minWeakInliers
			}
			if n < least || !spreadEnough(pairs, flags, ref) || byChanceInLine(pairs, flags, n) {
				break
			}
			d := detection{ref: r, sim: sim, inliers: n, matches: len(pairs)}
			w, h := float64(ref.W), float64(ref.H)
			for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
				px, py := sim.apply(c[0], c[1])
				d.quad[k] = models.Point{X: px, Y: py}
			}
			mark := taken
			if n < minInliers {
				// Too few hash-table inliers to accept the card on their
				// own: it is accepted when the keypoints in its outline
				// bear it out (see confirmed); nothing is taken until then.
				mark = append([]bool(nil), taken...)
			}
			for k, in := range flags {
				if in {
					mark[idx[k]] = true
					d.used = append(d.used, idx[k])
				}
			}
			x.verify(&d, f, grid, mark)
			if n < minInliers {
				if !confirmed(d, n, len(pairs), x.ownKeypoints(r)) {
					break
				}
				copy(taken, mark)
			}
			out = append(out, d)
		}
	}
	return out
}

// A fit with at least minWeakInliers but fewer than minInliers hash-table
// inliers (a small card, a token, seen blurred or at a low resolution:
// few of its keypoints find their face in the hash tables) is accepted when
// the keypoints in its outline bear it out: at least weakAgree of them
// agree with the face where the fit puts them, and at least weakShare of
// those checked (see verify; a card in plain view agrees at about half its
// checked keypoints, a wrong face fitted onto another card at a few
// percent, TestVerify). Only a face with at least minWeakPeers other faces
// of its kind and size in the catalog is accepted so: verify tells a face's
// own features from the layout cards of its kind share (frame, title bar,
// text box) by comparing it with those faces; with fewer, that layout could
// bear out a wrong face on a card missing from the catalog.
//
// Verify counts only a face's own keypoints (those no other face of its
// kind shares), and a face read at lowReadScale has few: on independent
// scenes' catalogs some 14 to 26 for a token, 23 for a unit and 41 for a
// site (medians; over a hundred for a card at 2 px/mm). weakAgree of them
// could hardly agree, and weak fits, a blurred token's most, were all but
// never confirmed at that scale. The need is therefore
// at most weakOwnShare of the face's own keypoints: the cards the hash
// tables find firmly at 1.2 px/mm agree at 13% (units) to 27% (tokens) of
// theirs on top of their hash-table inliers, at the median (at 2 px/mm at
// 5 to 13%, where weakAgree is some 20% of a card's). And it is at least
// weakAgreeLeast, so that with the fit's hash-table inliers at least
// minInliers keypoints bear the card out, as many as accept a card alone.
const (
	minWeakInliers = 5
	weakAgree      = 3 * minInliers
	weakShare      = 0.25
	minWeakPeers   = 2
	weakOwnShare   = 0.2
	weakAgreeLeast = minInliers - minWeakInliers
)

// confirmed reports whether a fit with n hash-table inliers among its
// matches, verified into d, is borne out by the keypoints in its outline,
// on a face with own keypoints of its own (see ownKeypoints).
func confirmed(d detection, n, matches, own int) bool {
	agree, checked := d.inliers-n, d.matches-matches
	need := min(weakAgree, max(weakAgreeLeast, int(math.Ceil(weakOwnShare*float64(own)))))
	return agree >= need && float64(agree) >= weakShare*float64(checked)
}

// ownKeypoints is how many keypoints face r has that no other face of its
// kind has at the same place (see markGeneric): those verify counts.
func (x *catalogIndex) ownKeypoints(r int) int {
	if g := x.faceSpots[r]; g != nil {
		return len(g.spots)
	}
	return 0
}

// Keypoints along a face's straight edge (a band of its art, its frame)
// look alike, and match those along any straight edge of the frame: a
// card's rim, a grid line, the line between a lamp's glare and a card. A
// face with long straight edges and little else draws such matches from
// all over the frame, hundreds of them, and a few along one frame edge
// always fit it: a fit that turns the face to lay its edge on that one and
// places nothing. A fit whose inliers lie along one line (across it, they
// spread less than lineInlierWidth) and are under lineMinShare of the
// face's matches is taken for such a chance. A card whose keypoints show
// only along one line (the rest of it covered) fits most of its few
// matches there.
const (
	lineInlierWidth = 3 * inlierThreshold // top-down pixels: a band about twice the inlier distance
	lineMinShare    = 0.05
)

// byChanceInLine reports whether a fit with n inliers (flags) among the
// pairs lies along one line and explains under lineMinShare of them.
func byChanceInLine(pairs []pointPair, flags []bool, n int) bool {
	if float64(n) >= lineMinShare*float64(len(pairs)) {
		return false
	}
	pts := make([]models.Point, 0, n)
	for i, in := range flags {
		if in {
			pts = append(pts, models.Point{X: pairs[i].fx, Y: pairs[i].fy})
		}
	}
	return widthAcross(pts) < lineInlierWidth
}

// widthAcross gives the extent of the points across their main axis (the
// direction they spread most along); 0 for fewer than two. (A bounding
// box does not tell points on one line: a slanted line fills one.)
func widthAcross(pts []models.Point) float64 {
	if len(pts) < 2 {
		return 0
	}
	var mx, my float64
	for _, p := range pts {
		mx, my = mx+p.X, my+p.Y
	}
	mx, my = mx/float64(len(pts)), my/float64(len(pts))
	var cxx, cyy, cxy float64
	for _, p := range pts {
		dx, dy := p.X-mx, p.Y-my
		cxx, cyy, cxy = cxx+dx*dx, cyy+dy*dy, cxy+dx*dy
	}
	th := 0.5 * math.Atan2(2*cxy, cxx-cyy) // the main axis
	ux, uy := math.Cos(th), math.Sin(th)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		w := -(p.X-mx)*uy + (p.Y-my)*ux
		lo, hi = math.Min(lo, w), math.Max(hi, w)
	}
	return hi - lo
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
