package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// shortlistSize is how many faces a region is verified against after the
// perceptual-hash shortlist.
const shortlistSize = 24

// regionTables is how many hash tables a single region's keypoints are
// looked up in: a card region has few keypoints, all of one card, so fewer
// tables suffice.
const regionTables = 4

// shortlist ranks the reference faces by the perceptual-hash distance to the
// nearest of the given hashes (a region's face in each of its four turns)
// and keeps the k closest.
func (x *catalogIndex) shortlist(hashes []phash, k int) []int {
	type scored struct{ ref, dist int }
	all := make([]scored, len(x.refs))
	for i := range x.refs {
		best := 64
		for _, h := range hashes {
			best = min(best, h.distance(x.refs[i].Hash))
		}
		all[i] = scored{i, best}
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
// faces only, verified by a similarity fit. ok is false when no face fits.
func (a *Analyzer) identifyRegion(gray gocv.Mat, quad models.Quad) (detection, bool) {
	x := a.index
	cands := x.shortlist(regionHashes(gray, quad), shortlistSize)
	if len(cands) == 0 {
		return detection{}, false
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	const pad = 12
	r := image.Rect(int(minX)-pad, int(minY)-pad, int(maxX)+pad, int(maxY)+pad).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 16 || r.Dy() < 16 {
		return detection{}, false
	}
	roi := gray.Region(r)
	f, err := detect(&a.regionORB, roi, a.det.mask)
	roi.Close()
	if err != nil || len(f.Points) < minInliers {
		return detection{}, false
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
	}
	rng := rand.New(rand.NewPCG(2, 3))
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	var best detection
	found := false
	for _, ri := range cands {
		ref := &x.refs[ri]
		pairs := byRef[ri]
		if len(pairs) < minMatches {
			continue
		}
		sim, flags, n := ransacSimilarity(pairs, params, rng)
		if n < minInliers || !spreadEnough(pairs, flags, ref) || (found && n <= best.inliers) {
			continue
		}
		best = detection{ref: ri, sim: sim, inliers: n, matches: len(pairs)}
		w, h := float64(ref.W), float64(ref.H)
		for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
			px, py := sim.apply(c[0], c[1])
			best.quad[k] = models.Point{X: px, Y: py}
		}
		found = true
	}
	return best, found
}

// Identify names the single card shown in a picture of it: a crop around
// one card, in any of its four turns, as from a scanner or a cropped camera
// frame. The card should fill most of the picture. The observation's quad is
// in the picture's pixels and its cell is nil; ok is false when no reference
// face fits, and the card is then unknown.
func (a *Analyzer) Identify(picture gocv.Mat) (models.CardObservation, bool) {
	if picture.Empty() {
		return models.CardObservation{}, false
	}
	gray := gocv.NewMat()
	defer gray.Close()
	if picture.Channels() == 1 {
		picture.CopyTo(&gray)
	} else {
		gocv.CvtColor(picture, &gray, gocv.ColorBGRToGray)
	}
	// Bring the card to the index scale: its long side to a card's long side.
	s := a.opts.pxPerMM()
	long := float64(max(gray.Cols(), gray.Rows()))
	f := models.CardLongMM * s / long
	if math.Abs(f-1) > 0.02 {
		gocv.Resize(gray, &gray, image.Pt(int(float64(gray.Cols())*f+0.5), int(float64(gray.Rows())*f+0.5)), 0, 0, gocv.InterpolationArea)
	}
	w, h := float64(gray.Cols()), float64(gray.Rows())
	quad := models.Quad{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
	d, ok := a.identifyRegion(gray, quad)
	if !ok {
		return models.CardObservation{Quad: quad, Confidence: unknownConfidence}, false
	}
	ref := &a.index.refs[d.ref]
	rot := d.rotation()
	o := models.CardObservation{
		Name: models.StrPtr(ref.card.Name), Slug: models.StrPtr(ref.card.Slug), Type: models.StrPtr(string(ref.card.Type)),
		Kind: ref.Kind, Token: ref.Kind == models.KindToken, Owner: rot.Owner(), Rotation: rot, Tapped: rot.Tapped(),
		Confidence: d.confidence(),
	}
	for i, p := range d.quad {
		o.Quad[i] = models.Point{X: p.X / f, Y: p.Y / f}
	}
	return o, true
}
