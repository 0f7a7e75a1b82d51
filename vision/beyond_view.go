package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Cards across the view's border.
//
// The top-down view reaches the realm's margin and no farther: a card off
// the grid that lies across the view's border shows only in part, and the
// part the view cuts off takes its keypoints with it (ORB finds none
// within a patch of the image's edge, and few are left to fit the face).
// Where the keypoints near the border that lie on no card found and that
// the frame's matching looked up in all the hash tables fit one face
// weakly (a few inliers: too few to take the card, enough to say where it
// lies), a window of the camera frame around that place, reaching up to a
// card's length beyond the border, is warped at the view's scale and
// matched on its own (no more keypoints are looked up in the frame); a
// card it finds that lies across the border, or next to it, joins the
// frame's matched cards (its outline and fit in the view's pixels, its
// inliers the frame keypoints inside it), and is checked as they are.
// Only those windows are read: growing the whole margin reads more of the
// table, its clutter too, in every frame.

const (
	// beyondBandMM is how near the view's border (or beyond it) a card
	// must reach for a window to be read around it and to be taken.
	beyondBandMM = 25.0
	// beyondProposeMM is how near the border the keypoints that propose
	// a window lie.
	beyondProposeMM = 50.0
	// beyondMinMatches is how many of those keypoints must match one
	// face for a fit to be tried.
	beyondMinMatches = 5
	// beyondFeatures is the keypoint budget of a window (the frame's,
	// 7000, is for a view some ten times its area).
	beyondFeatures = 2000
	// beyondMaxWindows bounds the windows read in a frame.
	beyondMaxWindows = 4
)

// beyondBuffers are the images and detector the windows beyond the view's
// border are read with, kept from frame to frame.
type beyondBuffers struct {
	det    *frameDetector
	colour gocv.Mat
	gray   gocv.Mat
}

func newBeyondBuffers() beyondBuffers {
	return beyondBuffers{colour: gocv.NewMat(), gray: gocv.NewMat()}
}

func (b *beyondBuffers) close() {
	if b.det != nil {
		b.det.close()
	}
	b.colour.Close()
	b.gray.Close()
}

// cardsBeyondBorder finds the cards lying across the border of view v of
// the camera frame that the frame's matching (features f, its second
// pass's lookups looked, cards dets) missed.
func (a *Analyzer) cardsBeyondBorder(frame gocv.Mat, f features, looked lookedUp, dets []detection, v *view) []detection {
	b := &a.beyond
	if frame.Empty() || len(f.Points) == 0 {
		return nil
	}
	windows := beyondWindows(a.index, f, looked, dets, v)
	if len(windows) == 0 {
		return nil
	}
	if b.det == nil {
		b.det = newFrameDetector(beyondFeatures, v.pxPerMM)
	}
	var out []detection
	known := quadsOfDetections(dets)
	for _, r := range windows {
		for _, d := range a.matchWindow(frame, r, v) {
			if !acrossBorder(d.quad, v, known) {
				continue
			}
			for _, i := range keypointsInside(f, d.quad) {
				d.used = append(d.used, int(i))
			}
			out = append(out, d)
			known = append(known, d.quad)
		}
	}
	return out
}

// beyondWindows lists the windows (view pixels, reaching beyond the view)
// that keypoints near the border propose: those on no card found (of
// those the second matching pass looked up) that fit one face weakly,
// where it lies across the border or near it.
func beyondWindows(x *catalogIndex, f features, looked lookedUp, dets []detection, v *view) []image.Rectangle {
	band := beyondProposeMM * v.pxPerMM
	outlines := make([]outline, len(dets))
	for k, d := range dets {
		outlines[k] = newOutline(d.quad)
	}
	var which []int
	var near []nearest
	for k, i := range looked.which {
		p := f.Points[i]
		q := models.Point{X: float64(p.X), Y: float64(p.Y)}
		if borderDistance(q, v) > band {
			continue
		}
		onCard := false
		for j := range outlines {
			if outlines[j].insideDistance(q) >= -outsideBand {
				onCard = true
				break
			}
		}
		if !onCard {
			which, near = append(which, i), append(near, looked.near[k])
		}
	}
	if len(which) < beyondMinMatches {
		return nil
	}
	byRef := x.groupMatches(which, near)
	refs := make([]int, 0, len(byRef))
	for r, ms := range byRef {
		if len(ms) >= beyondMinMatches {
			refs = append(refs, r)
		}
	}
	sort.Ints(refs)
	rng := rand.New(rand.NewPCG(1, 7))
	known := quadsOfDetections(dets)
	var out []image.Rectangle
	for _, r := range refs {
		q, ok := weakFit(x, f, r, byRef[r], rng)
		if !ok || !acrossBorder(q, v, known) {
			continue
		}
		w := windowAround(q, v)
		if w.Empty() || coveredByWindows(q, out) {
			continue
		}
		out = append(out, w)
		if len(out) == beyondMaxWindows {
			break
		}
	}
	return out
}

// Windows are proposed by a weak fit: a similarity near the view's scale
// that beyondMinInliers of a face's matches near the border bear out.
const (
	beyondMinInliers = 4
	beyondScaleOff   = 0.1
)

// weakFit fits face r to its matches ms; ok when the fit holds at least
// beyondMinInliers of them, spread over the face. q is the face's outline
// where the fit puts it (view pixels).
func weakFit(x *catalogIndex, f features, r int, ms []keyMatch, rng *rand.Rand) (q models.Quad, ok bool) {
	ref := &x.refs[r]
	pairs := make([]pointPair, len(ms))
	for k, m := range ms {
		rp, fp := ref.Feat.Points[m.refPoint], f.Points[m.frame]
		pairs[k] = pointPair{float64(rp.X), float64(rp.Y), float64(fp.X), float64(fp.Y)}
	}
	params := ransacParams{threshold: inlierThreshold, minScale: 1 - beyondScaleOff, maxScale: 1 + beyondScaleOff, iterations: ransacRounds}
	sim, flags, n := ransacSimilarity(pairs, params, rng)
	if n < beyondMinInliers || !spreadEnough(pairs, flags, ref) {
		return q, false
	}
	w, h := float64(ref.W), float64(ref.H)
	for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
		px, py := sim.apply(c[0], c[1])
		q[k] = models.Point{X: px, Y: py}
	}
	return q, true
}

// windowAround is the window read around a card's outline q proposed near
// the view's border: its bounding box grown by a third of a card's
// length (the fit may be off), reaching at most a card's length beyond
// the view.
func windowAround(q models.Quad, v *view) image.Rectangle {
	long := models.CardLongMM * v.pxPerMM
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	g := long / 3
	r := image.Rect(int(x0-g), int(y0-g), int(x1+g), int(y1+g))
	return r.Intersect(image.Rect(-int(long), -int(long), v.size.X+int(long), v.size.Y+int(long)))
}

// coveredByWindows reports whether q's centre lies in one of the windows.
func coveredByWindows(q models.Quad, windows []image.Rectangle) bool {
	c := q.Center()
	for _, w := range windows {
		if image.Pt(int(c.X), int(c.Y)).In(w) {
			return true
		}
	}
	return false
}

// matchWindow warps the window r (view pixels) of the camera frame at the
// view's scale and matches it against every face: the cards it shows, in
// view pixels.
func (a *Analyzer) matchWindow(frame gocv.Mat, r image.Rectangle, v *view) []detection {
	b := &a.beyond
	shift := homography{1, 0, float64(r.Min.X), 0, 1, float64(r.Min.Y), 0, 0, 1}
	if err := warpPerspective(frame, &b.colour, shift.Then(v.toImage), r.Size()); err != nil {
		return nil
	}
	if err := bgrGrayInto(b.colour, &b.gray); err != nil {
		return nil
	}
	fw, err := b.det.detect(b.gray)
	if err != nil || len(fw.Points) == 0 {
		return nil
	}
	dets := a.index.withoutDuplicates(a.index.matchFrame(fw, 1), fw.Points)
	dx, dy := float64(r.Min.X), float64(r.Min.Y)
	for k := range dets {
		d := &dets[k]
		d.sim.Tx += dx
		d.sim.Ty += dy
		for i := range d.quad {
			d.quad[i].X += dx
			d.quad[i].Y += dy
		}
	}
	return dets
}

// acrossBorder reports whether a card's outline q lies across the view's
// border, or within beyondBandMM of it, its centre in the view, and on no
// card known.
func acrossBorder(q models.Quad, v *view, known []models.Quad) bool {
	return nearBorder(q, v, beyondBandMM*v.pxPerMM) && inView(q.Center(), v) && !covered(q, known)
}

// borderDistance is how far a view pixel lies inside the view's border.
func borderDistance(p models.Point, v *view) float64 {
	return math.Min(math.Min(p.X, float64(v.size.X)-p.X), math.Min(p.Y, float64(v.size.Y)-p.Y))
}

// nearBorder reports whether some corner of q lies within band pixels of
// the view's border, or beyond it.
func nearBorder(q models.Quad, v *view, band float64) bool {
	for _, p := range q {
		if borderDistance(p, v) <= band {
			return true
		}
	}
	return false
}

// inView reports whether a pixel lies in the view.
func inView(p models.Point, v *view) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < float64(v.size.X) && p.Y < float64(v.size.Y)
}

// quadsOfDetections gives the detections' outlines.
func quadsOfDetections(dets []detection) []models.Quad {
	out := make([]models.Quad, len(dets))
	for k, d := range dets {
		out[k] = d.quad
	}
	return out
}
