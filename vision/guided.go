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
	// guidedMinShare is the least share of a face's pairs that its fit
	// must hold when the guided matches are counted. A guided match lies
	// within guidedRadiusMM of where the outline puts it, so pairs matched
	// by chance, scattered over that radius, give a fit near the outline
	// about (inlierThreshold / radius)² of them, and RANSAC, picking the
	// best of its draws, makes that 0.35-0.45 of 45-80 such pairs (0.5 at
	// most in 300 draws). Blurred cards whose keypoints matched noise so
	// gathered guidedMinInliers and more (18 of 58, 13 of 52, 14 of 78
	// pairs: wrong names on an independent renderer's frames); the guided
	// fits that named a card right held 0.6-1.0 of their pairs.
	guidedMinShare = 0.5
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
