package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// shortlistSize is how many faces a region is verified against after the
// perceptual-hash shortlist.
const shortlistSize = 24

// regionTables is how many hash tables a single region's keypoints are
// looked up in: a card region has few keypoints, all of one card, and the
// guided matches (guidedMatches) bring most of the evidence, so few tables
// suffice.
const regionTables = 2

// A card region's face is fitted at a scale between regionMinScale and
// regionMaxScale of the reference's: in the top-down image every card has
// its size, up to the outline's error and a card's slight tilt.
const (
	regionMinScale = 0.75
	regionMaxScale = 1.33
)

// regionScaleFits reports whether a region's scale to a face is in range.
func regionScaleFits(s float64) bool { return s >= regionMinScale && s <= regionMaxScale }

// hashDistances gives each reference face's perceptual-hash distance to
// the nearest of the given hashes (a region's face in each of its four
// turns); 64 for all when there are none.
func (x *catalogIndex) hashDistances(hashes []phash) []uint8 {
	out := make([]uint8, len(x.refs))
	for i := range x.refs {
		best := 64
		for _, h := range hashes {
			best = min(best, h.distance(x.refs[i].Hash))
		}
		out[i] = uint8(best)
	}
	return out
}

// shortlist keeps the k reference faces among refs (all when nil; listed
// in increasing order) closest by perceptual hash (dist, hashDistances'),
// the closest first, those as close by their index: what ranking them
// all so and keeping the first k gives. The distances (0 to 64) are
// counted rather than sorted: against a thousand faces, a region's
// shortlists took a third of its reading sorting them.
func shortlist(dist []uint8, refs []int32, k int) []int {
	n := len(dist)
	if refs != nil {
		n = len(refs)
	}
	ref := func(j int) int {
		if refs == nil {
			return j
		}
		return int(refs[j])
	}
	if k <= 0 || n == 0 {
		return []int{}
	}
	var count [65]int
	for j := 0; j < n; j++ {
		count[dist[ref(j)]]++
	}
	// The farthest distance kept, and where each distance's faces go.
	var next [65]int
	top, kept := 0, 0
	for ; top < 64 && kept+count[top] < k; top++ {
		next[top] = kept
		kept += count[top]
	}
	next[top] = kept
	out := make([]int, min(k, kept+count[top]))
	for j := 0; j < n; j++ {
		r := ref(j)
		if d := int(dist[r]); d <= top && next[d] < len(out) {
			out[next[d]] = r
			next[d]++
		}
	}
	return out
}

// faceSize is a face size (pixels at the index scale) and the reference
// faces of that size, in increasing order.
type faceSize struct {
	w, h int
	refs []int32
}

// facesBySize lists the reference faces by size, the sizes in the order of
// their first faces.
func facesBySize(refs []reference) []faceSize {
	var out []faceSize
	at := map[[2]int]int{}
	for i, r := range refs {
		k, ok := at[[2]int{r.W, r.H}]
		if !ok {
			k = len(out)
			at[[2]int{r.W, r.H}] = k
			out = append(out, faceSize{w: r.W, h: r.H})
		}
		out[k].refs = append(out[k].refs, int32(i))
	}
	return out
}

// guidedFaceList gives the guided matching's faces for a region with
// outline quad (dist: the faces' hash distances to it): for each face size
// that fits the outline in some turn, the guidedFaces closest by hash of
// that size.
func (x *catalogIndex) guidedFaceList(quad models.Quad, dist []uint8) []int {
	var guided []int
	for _, s := range x.faceSizes {
		if outlineFitsFace(quad, float64(s.w), float64(s.h)) {
			guided = append(guided, shortlist(dist, s.refs, guidedFaces)...)
		}
	}
	return guided
}

// regionHashes hashes a card region of the top-down image in its four turns.
func regionHashes(gray gocv.Mat, quad models.Quad) []phash {
	// Warp the quad (top-left first, clockwise) to an axis-aligned face.
	w := math.Hypot(quad[1].X-quad[0].X, quad[1].Y-quad[0].Y)
	h := math.Hypot(quad[3].X-quad[0].X, quad[3].Y-quad[0].Y)
	if w < 8 || h < 8 {
		return nil
	}
	dst := [4]models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
	hm, err := models.NewHomography(dst, [4]models.Point(quad))
	if err != nil {
		return nil
	}
	m := homographyMat(hm)
	defer m.Close()
	face := gocv.NewMat()
	defer face.Close()
	gocv.WarpPerspectiveWithParams(gray, &face, m, image.Pt(int(w), int(h)), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	hashes := []phash{phashOf(face)}
	turned := gocv.NewMat()
	defer turned.Close()
	for _, code := range []gocv.RotateFlag{gocv.Rotate90Clockwise, gocv.Rotate180Clockwise, gocv.Rotate90CounterClockwise} {
		gocv.Rotate(face, &turned, code)
		hashes = append(hashes, phashOf(turned))
	}
	return hashes
}

// identifyRegion names the card lying in a quad of the top-down grey image:
// a perceptual-hash shortlist, then ORB matching against the shortlisted
// faces only (by the hash tables, and guided by the outline when those
// alone do not name the card surely), verified by a similarity fit. ok is
// false when no face fits.
func (a *Analyzer) identifyRegion(gray gocv.Mat, quad models.Quad) (detection, bool) {
	d, _, ok := a.readRegion(gray, quad)
	return d, ok
}

// readRegion is identifyRegion, which also gives the region's features.
func (a *Analyzer) readRegion(gray gocv.Mat, quad models.Quad) (detection, features, bool) {
	x := a.index
	dist := x.hashDistances(regionHashes(gray, quad))
	cands := shortlist(dist, nil, shortlistSize)
	if len(cands) == 0 {
		return detection{}, features{}, false
	}
	// The guided matching's faces: for each face size that fits the
	// outline in some turn, the closest by hash of that size. Only the
	// shortlisted ones may be named by it; the others are the ratio test's
	// rivals.
	guided := x.guidedFaceList(quad, dist)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	const pad = 12
	r := image.Rect(int(minX)-pad, int(minY)-pad, int(maxX)+pad, int(maxY)+pad).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 16 || r.Dy() < 16 {
		return detection{}, features{}, false
	}
	roi := gray.Region(r)
	f, err := detect(&a.regionORB, roi, a.det.mask)
	roi.Close()
	if err != nil || len(f.Points) < minInliers {
		return detection{}, features{}, false
	}
	for i := range f.Points {
		f.Points[i].X += float32(r.Min.X)
		f.Points[i].Y += float32(r.Min.Y)
	}
	// Match against the whole catalog, with the same ratio test as whole
	// frames (against the best match on any other face), and fit only the
	// shortlisted faces.
	offsets := x.descriptorOffsets()
	listed := map[int]bool{}
	for _, c := range cands {
		listed[c] = true
	}
	byRef := map[int][]pointPair{}
	fromLSH := map[int]map[int]bool{} // region keypoints each face has a hash-table match for
	all := make([]int, len(f.Descs))
	for i := range all {
		all[i] = i
	}
	near := make([]nearest, len(all))
	x.lsh.queryBatch(f.Descs, all, regionTables, lshBucketCap, near)
	for qi, n := range near {
		if n.id < 0 || n.dist > maxHamming || float64(n.dist) >= ratio*float64(n.second) || !listed[int(n.ref)] {
			continue
		}
		r := int(n.ref)
		rp, fp := x.refs[r].Feat.Points[int(n.id)-offsets[r]], f.Points[qi]
		byRef[r] = append(byRef[r], pointPair{float64(rp.X), float64(rp.Y), float64(fp.X), float64(fp.Y)})
		if fromLSH[r] == nil {
			fromLSH[r] = map[int]bool{}
		}
		fromLSH[r][qi] = true
	}
	rng := rand.New(rand.NewPCG(2, 3))
	// Most cards are named by their hash-table matches alone, as in a
	// whole frame, where minInliers of them name a card: a face fitting
	// regionSureInliers of them, with no other shortlisted face fitting
	// minInliers, is named without the guided matching (which costs most
	// of a region's time).
	if best, second, ok := x.fitRegion(cands, byRef, nil, 0, rng); ok && best.inliers >= regionSureInliers && second < minInliers {
		return best, f, true
	}
	// The hash-table matches come first in each face's pairs; the guided
	// ones follow, but for keypoints the face has a hash-table match for.
	lshPairs := map[int]int{}
	for r, pairs := range byRef {
		lshPairs[r] = len(pairs)
	}
	for r, pairs := range x.guidedMatches(f, quad, guided, a.opts.pxPerMM()) {
		for _, p := range pairs {
			if !fromLSH[r][p.query] {
				byRef[r] = append(byRef[r], p.pointPair)
			}
		}
	}
	best, _, ok := x.fitRegion(cands, byRef, lshPairs, guidedRadiusMM*a.opts.pxPerMM(), rng)
	return best, f, ok
}

// regionSureInliers is how many hash-table inliers name a region's card
// without the guided matching: three times what names a card in a whole
// frame.
const regionSureInliers = 3 * minInliers

// fitRegion fits a similarity to each shortlisted face's pairs and gives
// the face with most inliers, and the most inliers of any other face.
// lshPairs says how many of each face's pairs (the first ones) come from
// the hash tables, the rest from the guided matching, within radius (face
// pixels) of where the outline puts them; nil: all do. A face is accepted
// with minInliers hash-table inliers, or guidedMinInliers in all; with
// guided matches among its pairs, only when chance would hardly give its
// fit so many (guidedByChance), and with none, only when its fit holds
// hashFitShare of its pairs.
func (x *catalogIndex) fitRegion(cands []int, byRef map[int][]pointPair, lshPairs map[int]int, radius float64, rng *rand.Rand) (best detection, second int, found bool) {
	params := ransacParams{threshold: inlierThreshold, minScale: regionMinScale, maxScale: regionMaxScale, iterations: ransacRounds}
	faces := 0 // the faces fitted: each may fit the region by chance
	for _, ri := range cands {
		if len(byRef[ri]) >= minMatches {
			faces++
		}
	}
	for _, ri := range cands {
		ref := &x.refs[ri]
		pairs := byRef[ri]
		if len(pairs) < minMatches {
			continue
		}
		sim, flags, n := ransacSimilarity(pairs, params, rng)
		fromLSH := len(pairs)
		if lshPairs != nil {
			fromLSH = lshPairs[ri]
		}
		lshIn := 0
		for _, in := range flags[:min(fromLSH, len(flags))] {
			if in {
				lshIn++
			}
		}
		if (lshIn < minInliers && (lshPairs == nil || n < guidedMinInliers)) || !spreadEnough(pairs, flags, ref) {
			continue
		}
		switch {
		case lshPairs == nil:
		case fromLSH < len(pairs) && guidedByChance(n, len(pairs), fromLSH, sim.scale(), radius, ref.W, ref.H, faces):
			continue
		case fromLSH == len(pairs) && float64(n) < hashFitShare*float64(len(pairs)):
			continue
		}
		if found && n <= best.inliers {
			second = max(second, n)
			continue
		}
		if found {
			second = max(second, best.inliers)
		}
		best = detection{ref: ri, sim: sim, inliers: n, matches: len(pairs)}
		w, h := float64(ref.W), float64(ref.H)
		for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
			px, py := sim.apply(c[0], c[1])
			best.quad[k] = models.Point{X: px, Y: py}
		}
		found = true
	}
	return best, second, found
}

// Identify names the single card shown in a picture of it: a crop around
// one card, in any of its four turns, as from a scanner or a cropped camera
// frame. The card should fill most of the picture. The observation's quad is
// in the picture's pixels and its cell is nil; ok is false when no reference
// face fits, and the card is then unknown (and after Close).
func (a *Analyzer) Identify(picture gocv.Mat) (models.CardObservation, bool) {
	if a.closed || picture.Empty() {
		return models.CardObservation{}, false
	}
	gray := gocv.NewMat()
	defer gray.Close()
	if picture.Channels() == 1 {
		picture.CopyTo(&gray)
	} else {
		gocv.CvtColor(picture, &gray, gocv.ColorBGRToGray)
	}
	// Bring the card to the index scale: its long side to a card's long
	// side, or, when no card fits so, to a token's.
	scaled := gocv.NewMat()
	defer scaled.Close()
	long := float64(max(gray.Cols(), gray.Rows()))
	contradicted := false
	for _, longMM := range []float64{models.CardLongMM, models.TokenLongMM} {
		f := longMM * a.opts.pxPerMM() / long
		if math.Abs(f-1) > 0.02 {
			gocv.Resize(gray, &scaled, image.Pt(int(float64(gray.Cols())*f+0.5), int(float64(gray.Rows())*f+0.5)), 0, 0, gocv.InterpolationArea)
		} else {
			f = 1
			gray.CopyTo(&scaled)
		}
		w, h := float64(scaled.Cols()), float64(scaled.Rows())
		d, feat, ok := a.readRegion(scaled, models.Quad{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}})
		// The face must agree with all of the picture (consistency.go).
		if !ok || !fillsPicture(d.quad, w, h) {
			continue
		}
		// The face must agree with all of the picture (consistency.go): a
		// card whose face is contradicted is a card, of no face of the
		// catalog, not a token.
		if ks := a.check(&d, feat, keypointsInside(feat, d.quad)); a.contradicted(&d, feat, ks) || !agreesWhole(ks) {
			contradicted = true
			break
		}
		ref := &a.index.refs[d.ref]
		// Nor may its look clearly be another card's: on a face with few
		// corners the keypoints a face fits may be those every face of a
		// style shares (its border, its name band), and a token's picture,
		// brought to a card's size, can be fitted by a card's face so.
		if look := a.index.lookOfFace(picture, d.ref); look > -1 && look < identifyMinLook {
			contradicted = true
			break
		}
		if ld, _, ok := a.index.identifyByLook(picture); ok && a.index.refs[ld.ref].card.Name != ref.card.Name {
			contradicted = true
			break
		}
		return a.pictureObservation(d, f), true
	}
	w, h := float64(gray.Cols()), float64(gray.Rows())
	if !contradicted {
		// A face feature matching cannot name (smooth art, or blurred) may
		// be named by its look (appearance.go).
		if d, f, ok := a.index.identifyByLook(picture); ok {
			return a.pictureObservation(d, f), true
		}
	}
	return models.CardObservation{Quad: models.Quad{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}, Confidence: unknownConfidence}, false
}

// pictureObservation is Identify's report of a card named in its picture:
// d, found in the picture brought to f times its size.
func (a *Analyzer) pictureObservation(d detection, f float64) models.CardObservation {
	ref := &a.index.refs[d.ref]
	rot, quad := faceTurn(ref, d.rotation(), d.quad)
	o := models.CardObservation{
		Name: models.StrPtr(ref.card.Name), Slug: models.StrPtr(ref.card.Slug), Type: models.StrPtr(string(ref.card.Type)),
		Kind: ref.Kind, Token: ref.Kind == models.KindToken, Owner: rot.Owner(), Rotation: rot, Tapped: rot.Tapped(),
		Confidence: d.confidence(),
	}
	for i, p := range quad {
		o.Quad[i] = models.Point{X: p.X / f, Y: p.Y / f}
	}
	return o
}

// identifyMinLook is the least correlation by look (lookOfFace) of the face
// feature matching fits to Identify's picture: the faces fitted right scored
// 0.56 and up on the sample stills and eight unseen sets of two other face
// styles; the wrong ones, fitted on the keypoints a style's faces share,
// -0.05 to 0.34.
const identifyMinLook = 0.4

// fillsPicture reports whether a card fitted in a picture of w × h (its
// quad) fills it, as Identify's picture should: its corners lie in the
// picture, up to a fifth of its short side (a crop from a tilted camera
// squashes the card one way, which the fit's uniform scale does not
// follow), and it covers two thirds of it or more. A face fitted to a
// part of the picture only, or turned across it, is not the card shown.
func fillsPicture(q models.Quad, w, h float64) bool {
	m := 0.2 * math.Min(w, h)
	for _, p := range q {
		if p.X < -m || p.Y < -m || p.X > w+m || p.Y > h+m {
			return false
		}
	}
	area := 0.0
	for i := range q {
		j := (i + 1) % 4
		area += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	return math.Abs(area)/2 >= 2*w*h/3
}
