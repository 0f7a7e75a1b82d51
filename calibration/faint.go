package calibration

import (
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// minRidgeScore is the lowest ridgeScore at which the profile search
// (detectFaint) accepts a realm without confirmation. Right answers from it scored 1.1–1.5 on
// the sample stills and two unseen sets of scenes (one 0.69); the wrong
// lattices it found scored 0.78–0.83.
const minRidgeScore = 1.0

// minConfirmedRidgeScore is the lowest ridgeScore at which the profile
// search accepts a realm that the edges confirm (see confirmedOnEdges): a
// grid half under cards, or of gold lines that show light on dark art and
// dark on light, scores 0.6–1.0 when right. Below it, lattices that were
// not the realm (nor one of its aliases) scored up to 0.57 on the sample
// stills and five unseen sets.
const minConfirmedRidgeScore = 0.6

// confirmedOnEdges says whether the sensitive edge map, evidence that the
// ridge score does not read (Canny edges, paired across each line), finds
// no alias of lattice h (a cell off, twice or half the spacing along
// either direction; see bestVariant) better than h itself. The ridge
// score's weak point is just there: a lattice a cell off from the realm
// can score as well as the realm when a border line is covered or crosses
// art of another colour.
//
// The edges' word counts only when they see at least minConfirmingEdges of
// h's grid: on a map with next to no edges (a very dim frame), no alias
// scores better than any lattice.
func confirmedOnEdges(em *edgeMap, h homography, g models.RealmGeometry, w, hgt float64) bool {
	return scoreGrid(em, h, g) >= minConfirmingEdges && bestVariant(em, h, g, w, hgt) == h
}

// minBorderedRidgeScore is the lowest ridgeScore at which the profile
// search accepts a realm whose grid shows on most of its cell sides and
// ends at its border on every side (see endsAtBorder): a faint grid in a
// cheap webcam's frame, a dark room or a blurred one, whose lines Canny
// does not pair. Right answers refused before scored 0.31–0.98.
const minBorderedRidgeScore = 0.3

// minConfirmingEdges is the least grid score on the sensitive edge map of a
// lattice the edges confirm: a tenth of its grid. Lattices the edges
// confirmed on the sample stills and nine unseen sets scored 0.19 and up,
// but for one: a wrong realm on a dimmed frame, at 0.01.
const minConfirmingEdges = 0.1

// maxCameraInconsistency is the largest cameraInconsistency of a lattice
// the profile search accepts. Right answers are below 0.06 on the sample
// stills and 0.17 on the package's own (not quite pinhole) test scenes;
// lattices with rows and columns swapped are above 0.5.
const maxCameraInconsistency = 0.3

// maxFocalWidths is the longest focal length, in frame widths, of the
// cameras cameraInconsistency considers: a field of view of 19° across the
// frame. Webcams and phones see 50–90° (0.5–1.1 widths), a zoomed one
// or a frame cropped to the mat perhaps half that; the sample scenes'
// cameras 0.65–1.9 widths. A longer focal length explains a lattice of
// squashed cells as a grazing view whose far lines are as long as its near
// ones, which no camera over a table gives.
const maxFocalWidths = 3.0

// detectFaint finds the realm by line profiles (see profileCandidates) and
// the ridge score: vanishing points come from the frame's straight lines and
// from the directions of the edge-based lattices seeds; each pair gives
// lattices, the best few are polished by climbing their corners on the
// ridge score. It returns the best lattice and its ridge score, and whether
// it believes it (once moved by a cell where its sides say so, see
// settleOnSides): a ridge score of minRidgeScore, or of
// minConfirmedRidgeScore when em (the sensitive edge map; nil for none)
// confirms it, or of minBorderedRidgeScore when its grid ends at its
// border (see endsAtBorder). A lattice with a corner outside the frame is
// judged only when none the frame holds whole is believed (see
// beyondFrame).
func detectFaint(gray gocv.Mat, rm *ridgeMap, em *edgeMap, g models.RealmGeometry, seeds []gridFit, refused ...homography) (gridFit, bool) {
	return detectFaintAs(gray, rm, em, g, false, seeds, refused...)
}

// detectFaintAs is detectFaint for one reading of the frame: lattices
// whose long sides both run within 45° of the image's horizontal (a camera
// turned less than an eighth of a turn from the side it looks from), or,
// when turned, not. The two readings are searched apart, and Detect asks
// the turned one only when the upright one finds no realm, or one whose
// lines a turned lattice shows more clearly (see detectStraightVia): the
// profiles along the frame's two line directions give lattices of both
// readings, and in one search a turned lattice over an upright realm's
// bowed or smeared lines (a lens, a moving camera) outscored the realm.
func detectFaintAs(gray gocv.Mat, rm *ridgeMap, em *edgeMap, g models.RealmGeometry, turned bool, seeds []gridFit, refused ...homography) (gridFit, bool) {
	w, hgt := float64(gray.Cols()), float64(gray.Rows())
	pairs := vanishingPairs(gray, rm, seeds)
	// Lattices with a corner beyond the frame's edge are kept apart (see
	// beyondFrame): they are polished and judged only when no lattice the
	// frame holds whole is believed.
	var fits, beyond []gridFit
	score := func(h homography) float64 { return rm.ridgeScore(h, g) }
	for _, p := range pairs {
		for _, h := range profileCandidates(gray, p.a, p.b, g) {
			if latticeTurned(h, g) != turned || !plausible(h, g, w, hgt) || cameraInconsistency(h, w, hgt) > maxCameraInconsistency || sameAsAny(h, refused, g) {
				continue
			}
			if insideFrame(h, g, w, hgt) {
				fits = append(fits, gridFit{h: h, score: score(h)})
			} else {
				beyond = append(beyond, gridFit{h: h, score: score(h)})
			}
		}
	}
	var best gridFit
	if len(fits) > 0 {
		best = settleFaint(rm, g, fits)
		if sameAsAny(best.h, refused, g) {
			return best, false
		}
		accepted := best.score >= minRidgeScore ||
			best.score >= minConfirmedRidgeScore && em != nil && confirmedOnEdges(em, best.h, g, w, hgt) ||
			best.score >= minBorderedRidgeScore && rm.endsAtBorder(best.h, g)
		if accepted && insideFrame(best.h, g, w, hgt) && cameraInconsistency(best.h, w, hgt) <= faintCameraBound(best.score) {
			return best, true
		}
	}
	// A realm of which the frame shows only part (see beyondFrame): the
	// lattices found there, and the one polished off the frame's edge.
	var off gridFit
	if best.h != (homography{}) && !insideFrame(best.h, g, w, hgt) {
		off = best
	}
	if f, ok := beyondFrame(rm, g, beyond, off, refused); ok {
		return f, true
	}
	return best, false
}

// settleFaint polishes the best two of the profile search's lattices fits
// (climbing their corners on the ridge score), moves the better by a cell
// where that shows clearer lines (see preferShiftOnLines), polishes it onto
// the lines' centres, and moves it by a cell where its sides or the mat's
// edge say so (see settleOnSides, offTheMat). It returns that lattice and
// its ridge score.
func settleFaint(rm *ridgeMap, g models.RealmGeometry, fits []gridFit) gridFit {
	w, hgt := float64(rm.w), float64(rm.h)
	score := func(h homography) float64 { return rm.ridgeScore(h, g) }
	polar := func(light bool) func(homography) float64 {
		return func(h homography) float64 { return rm.polarEvidence(h, g, ridgeClip, ridgeLineCap, light, 8) }
	}
	sort.Slice(fits, func(i, j int) bool { return fits[i].score > fits[j].score })
	best := gridFit{score: math.Inf(-1)}
	for _, f := range fits[:min(len(fits), 2)] {
		light := rm.lightGrid(f.h, g)
		h, _ := climbCorners(polar(light), f.h, g, w, hgt, []float64{3, 1.5})
		if s := score(h); s > best.score {
			best = gridFit{h: h, score: s}
		}
	}
	best.h, best.score = preferShiftOnLines(rm, nil, best.h, g, true)
	// Polish on the uncapped score, which keeps rising as the lattice
	// settles on the lines' centres, and judge the lattice there: its
	// corners were climbed in steps of 1.5 px and more, which can leave
	// a right lattice's lines a pixel off, under minRidgeScore.
	light := rm.lightGrid(best.h, g)
	fine, _ := climbCorners(func(h homography) float64 { return rm.polarEvidence(h, g, 40, math.Inf(1), light, 6) }, best.h, g, w, hgt, []float64{1, 0.5, 0.25})
	if s := rm.ridgeScore(fine, g); s >= best.score-0.05 {
		best.h = fine
		best.score = math.Max(best.score, s)
	}
	if hs := settleOnSides(rm, best.h, g); hs != best.h {
		best = gridFit{h: hs, score: rm.ridgeScore(hs, g)}
	}
	// The mat's edge in a border column or row: the realm lies a cell
	// further onto the mat, and that lattice is the one to judge (see
	// offTheMat; Detect refuses the lattice when it cannot be moved).
	if hs, ok := offTheMat(rm, best.h, g); ok && hs != best.h {
		best = gridFit{h: hs, score: rm.ridgeScore(hs, g)}
	}
	return best
}

// faintCameraBound is the largest cameraInconsistency of a lattice of
// ridge score s that the profile search believes. Lines only fairly clear
// (below minRidgeScore, believed because the edges confirm them or the
// grid ends at its border) must make cells of the shape a pinhole camera
// sees (maxPinholeInconsistency): over a grained table, a dashed grid's
// rows with columns 1.2 times the realm's spacing, the west one on the
// table's grain, score about 0.7 and the edges confirm them, and only
// their cells' shape (0.16) gives them away. Right answers are below 0.06
// on the sample stills and two unseen sets of scenes. Clearly drawn lines
// keep the looser bound (the package's own test scenes, not quite pinhole
// views, reach 0.17).
func faintCameraBound(s float64) float64 {
	if s >= minRidgeScore {
		return maxCameraInconsistency
	}
	return maxPinholeInconsistency
}

// latticeTurned says whether the long sides of lattice h's realm run
// nearer the image's vertical than its horizontal (either of them: the
// realm's outline seen in steep perspective may be a trapezium).
func latticeTurned(h homography, g models.RealmGeometry) bool {
	q := quadOfLattice(h, g)
	return !acrossImage(q[0], q[1]) || !acrossImage(q[3], q[2])
}

// preferShiftOnLines replaces lattice h by its neighbour one cell over
// (along either axis) when that one, polished by climbing its corners,
// shows more clearly as drawn lines (its ridge score is higher by
// crossCheckMargin). With the vanishing points a little off, or Canny
// edges of a card row as strong as the border's, a lattice that gives up
// a line half under cards for the mat's edge or a row of card borders can
// come out on top; moved to the true grid, it gains its line back and
// sheds the other. When confirm is not nil, a neighbour is only tried when
// it also covers more of that edge map's grid than h (independent
// evidence; and it keeps the cost down when h is right). inside requires
// the neighbour's corners in the frame (see insideFrame). It returns the
// lattice and its ridge score.
func preferShiftOnLines(rm *ridgeMap, confirm *edgeMap, h homography, g models.RealmGeometry, inside bool) (homography, float64) {
	w, hgt := float64(rm.w), float64(rm.h)
	cur := rm.ridgeScore(h, g)
	light := rm.lightGrid(h, g)
	climb := func(x homography) float64 { return rm.polarEvidence(x, g, ridgeClip, ridgeLineCap, light, 8) }
	for round := 0; round < 2; round++ {
		var onEdges float64
		if confirm != nil {
			onEdges = scoreGrid(confirm, h, g)
		}
		// Only the neighbour whose lines show best before polishing is
		// polished: it carries h's precision, a cell over.
		var next homography
		nextRaw := math.Inf(-1)
		for _, s := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			hs := homography{1, 0, s[0] * g.CellWidthMM, 0, 1, s[1] * g.CellHeightMM, 0, 0, 1}.Then(h)
			if !plausible(hs, g, w, hgt) || inside && !insideFrame(hs, g, w, hgt) {
				continue
			}
			if confirm != nil && scoreGrid(confirm, hs, g) <= onEdges+variantMargin {
				continue
			}
			if raw := climb(hs); raw > nextRaw {
				next, nextRaw = hs, raw
			}
		}
		if math.IsInf(nextRaw, -1) {
			break
		}
		hc, _ := climbCorners(climb, next, g, w, hgt, []float64{3, 1.5})
		sc := rm.ridgeScore(hc, g)
		if sc <= cur+crossCheckMargin || cameraInconsistency(hc, w, hgt) > maxCameraInconsistency {
			break
		}
		h, cur = hc, sc
	}
	return h, cur
}

// cameraInconsistency says how far lattice h is from the image of a
// rectangle seen by a real camera (square pixels, principal point at the
// frame's centre, a focal length of 0.3 to maxFocalWidths frame widths):
// the smallest, over those focal lengths, of the larger of |cos| of the
// angle between the realm's axes and |log| of their length ratio, once the
// camera's intrinsics are taken out. A lattice read with its rows and
// columns swapped, or with a wrong cell aspect, cannot be undone by any
// camera; nor can one read at half the row spacing over half the realm
// (its cells squashed to half their height), but for a camera that looks
// at the table at a grazing angle through a telephoto lens, which keeps the
// far lines nearly as long as the near ones.
func cameraInconsistency(h homography, w, hgt float64) float64 {
	cx, cy := w/2, hgt/2
	best := math.Inf(1)
	for f := 0.3 * w; f <= maxFocalWidths*w; f *= 1.08 {
		a := [3]float64{(h[0] - cx*h[6]) / f, (h[3] - cy*h[6]) / f, h[6]}
		b := [3]float64{(h[1] - cx*h[7]) / f, (h[4] - cy*h[7]) / f, h[7]}
		na := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
		nb := math.Sqrt(b[0]*b[0] + b[1]*b[1] + b[2]*b[2])
		if na == 0 || nb == 0 {
			continue
		}
		cos := math.Abs(a[0]*b[0]+a[1]*b[1]+a[2]*b[2]) / (na * nb)
		e := math.Max(cos, math.Abs(math.Log(na/nb)))
		best = math.Min(best, e)
	}
	return best
}

// polishOnLines moves the corners of a lattice found on edges by up to a
// few pixels to where the drawn lines' centres are (the uncapped ridge
// response), when that keeps its ridge score: a thick border or a line
// half under cards can hold the edge refinement a little off. When it does
// not, a corner held on a card's outline is looked for (see
// ontoTrappedCorner).
func polishOnLines(rm *ridgeMap, h homography, g models.RealmGeometry) homography {
	w, hgt := float64(rm.w), float64(rm.h)
	light := rm.lightGrid(h, g)
	fine, _ := climbCorners(func(x homography) float64 { return rm.polarEvidence(x, g, 40, math.Inf(1), light, 6) }, h, g, w, hgt, []float64{1, 0.5, 0.25})
	cur := rm.ridgeScore(h, g)
	if rm.ridgeScore(fine, g) >= cur-0.02 {
		return fine
	}
	return ontoTrappedCorner(rm, h, g, cur)
}

// ontoTrappedCorner is polishOnLines' answer when the climb onto the
// lines' centres leaves the lines: faint lines crossed by many cards, whose
// edges and art outweigh the lines in the uncapped response. The lattice
// found on edges may then have a corner held a few pixels inside the realm
// by a card's dark outline that runs along both border lines near it (a
// site snug in a corner cell), where every step of a pixel back towards
// the lines lowers the score before it rises: each corner is moved to the
// best point on the ridge score beyond it (see scanOutward), and the
// lattice is kept when that shows its lines more clearly than h (ridge
// score cur) by trappedCornerMargin.
func ontoTrappedCorner(rm *ridgeMap, h homography, g models.RealmGeometry, cur float64) homography {
	w, hgt := float64(rm.w), float64(rm.h)
	score := func(x homography) float64 { return rm.ridgeScore(x, g) }
	hs, _ := scanOutward(score, h, g, w, hgt, trappedCornerReach, 2)
	hs, s := climbCorners(score, hs, g, w, hgt, []float64{1, 0.5, 0.25})
	if s < cur+trappedCornerMargin {
		return h
	}
	return hs
}

// trappedCornerReach is how far (px, at the working width) beyond a corner
// ontoTrappedCorner looks along either border line: a site's outline lies
// 3–8 mm inside the corner of a cell it fills, up to 10 px at 1.2 px/mm
// along both lines.
const trappedCornerReach = 10

// trappedCornerMargin is how much more clearly a lattice whose corners
// ontoTrappedCorner moved must show its lines (ridge score) than the one
// on edges: corners freed from a card's outline raised it by 0.3–0.5.
const trappedCornerMargin = 0.1

// scanOutward moves each corner of the realm in turn, the others held, to
// the best of the points beyond it along its two border lines (the corner
// moved by up to reach px along each, on a grid of step px) while the
// score grows. It returns the lattice and its score.
func scanOutward(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, reach, step int) (homography, float64) {
	return scanCornerMoves(score, h, g, w, hgt, 1, func(q [4]models.Point, c int) []models.Point {
		u := unitFrom(q[(c+3)%4], q[c])
		v := unitFrom(q[(c+1)%4], q[c])
		var out []models.Point
		for i := 0; i <= reach; i += step {
			for j := 0; j <= reach; j += step {
				if i == 0 && j == 0 {
					continue
				}
				out = append(out, models.Point{X: float64(i)*u.X + float64(j)*v.X, Y: float64(i)*u.Y + float64(j)*v.Y})
			}
		}
		return out
	})
}

// unitFrom is the unit vector from a towards b (zero when they coincide).
func unitFrom(a, b models.Point) models.Point {
	d := math.Hypot(b.X-a.X, b.Y-a.Y)
	if d == 0 {
		return models.Point{}
	}
	return models.Point{X: (b.X - a.X) / d, Y: (b.Y - a.Y) / d}
}

// vpPair is a vanishing point for each direction of the grid.
type vpPair struct{ a, b vec3 }

// responsePairs are the vanishing points of the frame's two line
// directions d1 and d2, guessed at sv1 and sv2, moved to where the line
// response at the points over says to read (all, when over is nil) lines
// up best (see refineVanishingPointOver).
func responsePairs(rm *ridgeMap, d1, d2 float64, sv1, sv2 vec3, over func(models.Point) bool) []vpPair {
	r1 := refineVanishingPointOver(rm, d1, sv1, wideScanDeg, over)
	pairs := []vpPair{{r1, refineVanishingPointOver(rm, d2, sv2, wideScanDeg, over)}}
	// A camera at most ~30° off the vertical sees the grid's two
	// directions 60–120° apart: when the second strongest direction is
	// not (card edges, the table), the perpendicular is tried.
	if dp := d1 + math.Pi/2; angleDiff(d2, dp) > 30*math.Pi/180 {
		pairs = append(pairs, vpPair{r1, refineVanishingPointOver(rm, dp, vec3{math.Cos(dp), math.Sin(dp), 0}, wideScanDeg, over)})
		if rm.detrendPencil {
			// Or the strongest direction is the cards' (many lying
			// alike) and the second the grid's (see detrended.go).
			dq := d2 + math.Pi/2
			pairs = append(pairs, vpPair{pairs[0].b, refineVanishingPointOver(rm, dq, vec3{math.Cos(dq), math.Sin(dq), 0}, wideScanDeg, over)})
		}
	}
	return pairs
}

// distinctPairs drops pairs whose lines run within 0.05° of an earlier
// pair's everywhere in a w×h frame (they would give the same lattices).
func distinctPairs(pairs []vpPair, w, h float64) []vpPair {
	probes := []models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}, {X: w / 2, Y: h / 2}}
	same := func(u, v vec3) bool {
		for _, p := range probes {
			if angleDiff(towards(u, p), towards(v, p)) > 0.05*math.Pi/180 {
				return false
			}
		}
		return true
	}
	var out []vpPair
	for _, p := range pairs {
		dup := false
		for _, o := range out {
			if same(p.a, o.a) && same(p.b, o.b) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// towards is the direction (radians) from p to the vanishing point v.
func towards(v vec3, p models.Point) float64 {
	if math.Abs(v[2]) < 1e-12 {
		return math.Atan2(v[1], v[0])
	}
	return math.Atan2(v[1]/v[2]-p.Y, v[0]/v[2]-p.X)
}

// insideFrame says whether all four corners of lattice h lie in the w×h
// frame. The profile search judges a lattice partly outside the frame
// apart (see beyondFrame): the ridge score reads only the parts of lines
// inside the frame, so a lattice shifted a cell off the frame loses its
// weakest line for free.
func insideFrame(h homography, g models.RealmGeometry, w, hgt float64) bool {
	for _, p := range realmCorners(g) {
		q := h.Apply(p)
		if !(q.X >= 0 && q.Y >= 0 && q.X <= w-1 && q.Y <= hgt-1) {
			return false
		}
	}
	return true
}

// maxPinholeInconsistency is the cameraInconsistency under which a
// lattice's cells are those of a pinhole camera over the table: right
// answers are below 0.06 on the sample stills. A lattice of half the
// spacing along one axis (cells of half their aspect) scores 0.25 and more
// on most frames, but as little as 0.09 on a tilted view (see
// TestPinholeBorderedOneAxis): the bare-cloth test of pinholeBordered is
// what refuses it there.
const maxPinholeInconsistency = 0.1

// pinholeBordered believes a lattice f of the profile search that
// detectFaint did not: one whose cells a pinhole camera sees in their
// shape (see maxPinholeInconsistency), whose ridge score is at least
// minBorderedRidgeScore, and whose grid ends at its border on every side
// with its odd lines showing like its even ones along one axis at least
// (endsAtBorderOn), the other axis's odd lines hidden rather than absent:
// bare cloth (see bareShare) for at most maxHiddenBare of their samples.
// endsAtBorder asks the parity of both axes against a lattice of half the
// spacing along both; a lattice of half the spacing along one axis has its
// odd lines across the cells' bare middles. In a cheap webcam's frame the
// faint lines of one direction are often under cards (a row of units
// lying across the borders) and their odd lines show little.
func pinholeBordered(rm *ridgeMap, col colourFrame, f gridFit, g models.RealmGeometry) bool {
	w, hgt := float64(rm.w), float64(rm.h)
	if f.score < minBorderedRidgeScore || !insideFrame(f.h, g, w, hgt) ||
		cameraInconsistency(f.h, w, hgt) > maxPinholeInconsistency || !rm.endsAtBorderOn(f.h, g, 1) {
		return false
	}
	light := rm.lightGrid(f.h, g)
	cc, ok := col.cloth(rm, f.h, g, light)
	if !ok {
		return false
	}
	sides := paritySides()
	for a, shows := range rm.parityShows(f.h, g, light) {
		if shows {
			continue
		}
		if share, n := col.bareShare(rm, cc, f.h, g, sides[a][1], light); n == 0 || share > maxHiddenBare {
			return false
		}
	}
	return true
}

// maxHiddenBare is the largest share of bare-cloth samples on the odd lines
// of an axis whose odd lines show less than its even ones, for
// pinholeBordered: the true lattice's lines were bare for at most 0.22 of
// their samples (see bareGridLine), 0.43 for faint lines in a 640×360
// frame with tokens over most of them (TestPinholeBorderedOneAxis); the
// cells' middles under a lattice of half the spacing for 0.64 and more.
const maxHiddenBare = 0.55

// sameAsAny says whether lattice h makes the same realm (see sameRealm) as
// any of hs.
func sameAsAny(h homography, hs []homography, g models.RealmGeometry) bool {
	for _, o := range hs {
		if sameRealm(h, o, g) {
			return true
		}
	}
	return false
}

// vanishingPairs are the profile search's guesses at the vanishing points
// of the grid's two directions: from the frame's straight lines, its two
// longest lines of each direction (the mat's edges), the line response,
// and the directions of the edge-based lattices seeds.
func vanishingPairs(gray gocv.Mat, rm *ridgeMap, seeds []gridFit) []vpPair {
	return vanishingPairsOver(gray, rm, seeds, nil)
}

// vanishingPairsOver is vanishingPairs with, when over is not nil, the
// line response's guesses made a second time from the response at the
// points over says to read alone: the mat's cloth, where the grid's lines
// are (see cloth.go). A table's grain or a striped cloth fills the frame
// beyond the mat with long lines of its own, which outweigh a grid drawn in
// thin or dashed lines when the response of the whole frame is lined up.
func vanishingPairsOver(gray gocv.Mat, rm *ridgeMap, seeds []gridFit, over func(models.Point) bool) []vpPair {
	w, hgt := float64(gray.Cols()), float64(gray.Rows())
	var pairs []vpPair
	minLen := leastSegment(rm.segmentShare, w)
	segs := halfResSegments(gray, minLen, cannyThresholds{low: cannyLow, high: cannyHigh})
	if rm.pastDominant {
		segs = pastDominantDirection(segs)
	}
	if rm.onMat != nil {
		segs = keptSegments(segs, onMatSegment(rm.onMat))
		if over == nil {
			over = rm.onMat
		}
	}
	if d1, d2, ok := dominantDirections(segs, 40*math.Pi/180); ok {
		clusters := clusterSegments(segs, 2.5*math.Pi/180, 3)
		centre := models.Point{X: w / 2, Y: hgt / 2}
		scale := math.Max(w, hgt) / 2
		v1, ok1 := vanishingPoint(clusters, d1, d2, 30*math.Pi/180, centre, scale)
		v2, ok2 := vanishingPoint(clusters, d2, d1, 30*math.Pi/180, centre, scale)
		if ok1 && ok2 {
			pairs = append(pairs, vpPair{v1, v2})
		}
		// The two longest lines of each direction, when far apart (the
		// mat's edges), give a second guess that busy art or a grained
		// table cannot pull.
		s1, oks1 := spanPoint(clusters, d1, d2, 30*math.Pi/180, 0.3*hgt)
		s2, oks2 := spanPoint(clusters, d2, d1, 30*math.Pi/180, 0.3*w)
		if oks1 && oks2 {
			pairs = append(pairs, vpPair{s1, s2})
		}
		if ok1 && oks2 {
			pairs = append(pairs, vpPair{v1, s2})
		}
		if oks1 && ok2 {
			pairs = append(pairs, vpPair{s1, v2})
		}
		// Both vanishing points moved to where the frame's line response
		// lines up best.
		sv1, sv2 := vec3{math.Cos(d1), math.Sin(d1), 0}, vec3{math.Cos(d2), math.Sin(d2), 0}
		if ok1 {
			sv1 = v1
		}
		if ok2 {
			sv2 = v2
		}
		pairs = append(pairs, responsePairs(rm, d1, d2, sv1, sv2, nil)...)
		if over != nil {
			pairs = append(pairs, responsePairs(rm, d1, d2, sv1, sv2, over)...)
		}
	}
	for _, s := range seeds[:min(len(seeds), 2)] {
		pairs = append(pairs, vpPair{vec3{s.h[0], s.h[3], s.h[6]}, vec3{s.h[1], s.h[4], s.h[7]}})
	}
	return distinctPairs(pairs, w, hgt)
}
