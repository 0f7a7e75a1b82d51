package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// Guided matching reads one card region whose outline is known (Identify's
// picture, an outline the frame's matching left unexplained). The outline
// puts each of the region's keypoints at a known place on a shortlisted
// face, in each of the four turns, up to a few millimetres; its match is
// looked for only near that place. Against a thousand faces the nearest
// descriptor of the whole catalog is mostly on some other face (a blurred
// webcam corner is 40 bits from its true match, and a thousand faces offer
// many as near by chance), so the catalog-wide search leaves a card a
// handful of matches; near the right place on the right face there are
// dozens.
const (
	// guidedRadiusMM is how far from where the outline puts it a
	// keypoint's match may lie on the face. An outline off by more than
	// that still yields the matches of the part that lies within it.
	guidedRadiusMM = 4
	// guidedFaces is how many faces of each size that fits the outline
	// are matched so: the closest by hash. The true face is the closest of
	// all in 541 of 545 crops of the bundled stills and unseen seed 4242
	// against 1,104 faces.
	guidedFaces = 8
	// guidedRatio is the ratio test of a guided match: its distance must
	// be below guidedRatio × the best distance near the same place on any
	// other shortlisted card. What every face has there (a frame, a text
	// box, a type line) fails it.
	guidedRatio = 0.9
	// guidedRivals is the fewest other cards the ratio test must compare
	// a guided match with (faces of the same size): against two or three,
	// a card in no catalog finds enough matches that pass by chance. A
	// catalog with fewer faces of a size reads them by the hash tables
	// only.
	guidedRivals = guidedFaces - 1
	// guidedMaxHamming is the farthest a guided match may be.
	guidedMaxHamming = 50
	// guidedMinInliers is the inliers a face needs when the guided matches
	// are counted: a card that is in no catalog, read against 1,063 faces,
	// fitted at most 10 of them by chance (545 crops of unknown cards from
	// the bundled stills and unseen seed 4242), and near the place one
	// looks, matches come easier than in the whole catalog (minInliers).
	guidedMinInliers = 13
	// guidedChance bounds how likely a card's guided fit may be by
	// chance (guidedByChance): pairs matched by chance on a face that is
	// not the card's, for all the fits RANSAC tries and all the faces the
	// region is fitted to.
	guidedChance = 0.01
	// hashFitShare is the least share of its pairs that a face the
	// guided matching found no match on must fit, where the guided
	// matches are counted: its hash-table matches may lie where the
	// outline puts them on a face of the card's style by that style
	// (frame, title, text box), which guidedByChance's hash-table chance
	// (anywhere on the face) does not cover. Against 20 faces, where the
	// ratio test has few faces to compare such matches with, taking such
	// fits by that chance alone (7-13 inliers of 17-32 pairs) named faces
	// a picture's look then contradicted: 5 of an independent renderer's
	// cards read by Identify, and one in a frame, were no longer named.
	hashFitShare = 0.5
	// guidedAspect is the most a turn may stretch the outline one way
	// against the other to fit the face: a portrait outline is not tried
	// as a landscape face. (Nor is an outline tried as a face of another
	// size: see regionScaleFits.)
	guidedAspect = 1.3
)

// guidedBest is, for each region keypoint, its nearest descriptor on one
// face near where the outline turned by turn quarters puts it: the
// distance (guidedNone: none near) and the face keypoint. Both are nil when
// the outline cannot be that face in that turn.
type guidedBest struct {
	dist []int
	ref  []int32
}

const guidedNone = 257

// guidedTurn matches the features f to face ri, whose keypoints pts gives
// on the face in the turn matched (guidedPlaces; ok false: off the face).
func (x *catalogIndex) guidedTurn(ri int, f features, pts []guidedPlace, radius float64) guidedBest {
	ref := &x.refs[ri]
	grid := x.faceSpots[ri]
	if grid == nil {
		return guidedBest{}
	}
	g := guidedBest{dist: make([]int, len(f.Points)), ref: make([]int32, len(f.Points))}
	r2 := radius * radius
	for i, u := range pts {
		g.dist[i], g.ref[i] = guidedNone, -1
		if !u.ok {
			continue
		}
		x0, x1, y0, y1 := grid.cellsNear(u.X, u.Y, radius)
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				for _, q := range grid.at(cx, cy) {
					if ex, ey := float64(q.X)-u.X, float64(q.Y)-u.Y; ex*ex+ey*ey > r2 {
						continue
					}
					if d := hamming(&f.Descs[i], &ref.Feat.Descs[q.ID]); d < g.dist[i] {
						g.dist[i], g.ref[i] = d, q.ID
					}
				}
			}
		}
	}
	return g
}

// guidedPlace is where the outline puts a region keypoint on a face.
type guidedPlace struct {
	models.Point
	ok bool // on the face, or within radius of it
}

// guidedPlaces maps the features onto a face of w × h with the outline's
// corner turn on its top-left; nil when the outline so turned does not fit
// such a face.
func guidedPlaces(f features, quad models.Quad, turn int, w, h, radius float64) []guidedPlace {
	src, ok := turnedOutline(quad, turn, w, h)
	if !ok {
		return nil
	}
	toFace, err := models.NewHomography(src, [4]models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}})
	if err != nil {
		return nil
	}
	out := make([]guidedPlace, len(f.Points))
	for i, p := range f.Points {
		u := toFace.Apply(models.Point{X: float64(p.X), Y: float64(p.Y)})
		out[i] = guidedPlace{u, u.X >= -radius && u.Y >= -radius && u.X <= w+radius && u.Y <= h+radius}
	}
	return out
}

// turnedOutline is the outline with corner turn first, when the outline so
// turned fits a face of w × h: the same shape (guidedAspect) and a scale in
// range (regionScaleFits).
func turnedOutline(quad models.Quad, turn int, w, h float64) ([4]models.Point, bool) {
	var src [4]models.Point
	for i := range src {
		src[i] = quad[(i+turn)%4]
	}
	sx := math.Hypot(src[1].X-src[0].X, src[1].Y-src[0].Y) / w
	sy := math.Hypot(src[3].X-src[0].X, src[3].Y-src[0].Y) / h
	r := sx / sy
	return src, r <= guidedAspect && r >= 1/guidedAspect && regionScaleFits(sx) && regionScaleFits(sy)
}

// outlineFitsFace reports whether the outline fits a face of w × h in some
// turn.
func outlineFitsFace(quad models.Quad, w, h float64) bool {
	for turn := range 2 {
		if _, ok := turnedOutline(quad, turn, w, h); ok {
			return true
		}
	}
	return false
}

// guidedMatches matches the features of a card region with outline quad to
// each shortlisted face in each turn the outline's shape allows, and keeps
// the matches that pass guidedRatio against the other shortlisted cards in
// the same turn. The pairs are keyed by reference, with the region
// keypoint each came from.
func (x *catalogIndex) guidedMatches(f features, quad models.Quad, cands []int, pxPerMM float64) map[int][]guidedPair {
	radius := guidedRadiusMM * pxPerMM
	// Faces of one size share where the keypoints fall on them.
	places := map[[3]int][]guidedPlace{}
	best := make([][4]guidedBest, len(cands))
	for ci, ri := range cands {
		ref := &x.refs[ri]
		for turn := range 4 {
			key := [3]int{ref.W, ref.H, turn}
			pts, seen := places[key]
			if !seen {
				pts = guidedPlaces(f, quad, turn, float64(ref.W), float64(ref.H), radius)
				places[key] = pts
			}
			if pts != nil {
				best[ci][turn] = x.guidedTurn(ri, f, pts, radius)
			}
		}
	}
	out := map[int][]guidedPair{}
	for ci, ri := range cands {
		name := x.refs[ri].card.Name
		for turn := range 4 {
			g := best[ci][turn]
			rivals := 0
			for cj, other := range cands {
				if cj != ci && best[cj][turn].dist != nil && x.refs[other].card.Name != name {
					rivals++
				}
			}
			if rivals < guidedRivals {
				continue
			}
			for qi, d := range g.dist {
				if d > guidedMaxHamming {
					continue
				}
				second := guidedNone
				for cj, other := range cands {
					if o := best[cj][turn]; cj != ci && o.dist != nil && x.refs[other].card.Name != name {
						second = min(second, o.dist[qi])
					}
				}
				if float64(d) >= guidedRatio*float64(second) {
					continue
				}
				rp, fp := x.refs[ri].Feat.Points[g.ref[qi]], f.Points[qi]
				out[ri] = append(out[ri], guidedPair{pointPair{float64(rp.X), float64(rp.Y), float64(fp.X), float64(fp.Y)}, qi})
			}
		}
	}
	return out
}

// guidedPair is a guided match and the region keypoint it came from.
type guidedPair struct {
	pointPair
	query int
}

// guidedByChance reports whether a similarity fit (scale: its scale from
// the face to the top-down image) holding inliers of its pairs, the first
// fromLSH of them hash-table matches and the rest guided ones, to a face of
// w × h could be chance, with a probability above guidedChance: the faces
// fitted to the region (faces), none of them the card's, give it so many
// inliers by chance.
//
// A guided match lies within radius (face pixels) of where the outline
// puts its keypoint, so a pair matched by chance lies anywhere in that
// disc, and is an inlier of a fit near the outline with a probability of
// at most pGuided = (inlierThreshold/scale / radius)²: a quarter. A
// hash-table pair matched by chance lies anywhere on the face (pTable, the
// inlier disc's share of the face). RANSAC keeps the best of its draws:
// each draw's fit holds its two pairs and the others by chance, so the
// chance that any of them holds inliers or more is at most the draws times
// the tail of that sum of two binomial counts. Chance pairs put through the
// real RANSAC (TestGuidedChanceBoundsRANSAC; 3,000 lists each of 10 to 100
// pairs) reach a count a fifth to a thirtieth as often as this bound says;
// the tail of one fit alone, without the draws, is 30 to several hundred
// times too low, and a fixed share of the pairs lets 26-30 chance pairs
// through (0.5-0.6 of them fit, in a fifth of such lists). Right guided
// names held 0.6-1.0 of their pairs.
func guidedByChance(inliers, pairs, fromLSH int, scale, radius float64, w, h, faces int) bool {
	if pairs < 3 || scale <= 0 || radius <= 0 {
		return true
	}
	t := inlierThreshold / scale
	pGuided := math.Min(1, (t/radius)*(t/radius))
	pTable := math.Min(1, math.Pi*t*t/float64(w*h))
	draws := min(pairs*(pairs-1)/2, ransacRounds)
	// The draw's own two pairs, taken from the hash-table ones first
	// (leaving the guided ones, likelier by chance, to be counted).
	nTable := max(fromLSH-2, 0)
	nGuided := pairs - fromLSH - max(2-fromLSH, 0)
	return float64(draws*max(faces, 1))*binomialSumTail(nGuided, pGuided, nTable, pTable, inliers-2) > guidedChance
}

// binomialSumTail is the probability that a count of successes in n1 trials
// of chance p1 and n2 of chance p2 reaches k or more.
func binomialSumTail(n1 int, p1 float64, n2 int, p2 float64, k int) float64 {
	if k <= 0 {
		return 1
	}
	if k > n1+n2 {
		return 0
	}
	a, b := binomialPMF(n1, p1), binomialPMF(n2, p2)
	tail := 0.0
	for i, pa := range a {
		for j, pb := range b {
			if i+j >= k {
				tail += pa * pb
			}
		}
	}
	return math.Min(1, tail)
}

// binomialPMF lists the probabilities of 0 to n successes in n trials of
// chance p.
func binomialPMF(n int, p float64) []float64 {
	out := make([]float64, n+1)
	switch {
	case p <= 0:
		out[0] = 1
		return out
	case p >= 1:
		out[n] = 1
		return out
	}
	// In logs: (1-p)^n underflows for long lists of likely pairs.
	lq, lp := math.Log1p(-p), math.Log(p)
	lc := 0.0 // log of n choose i
	for i := 0; i <= n; i++ {
		if i > 0 {
			lc += math.Log(float64(n-i+1)) - math.Log(float64(i))
		}
		out[i] = math.Exp(lc + float64(i)*lp + float64(n-i)*lq)
	}
	return out
}
