package calibration

import (
	"image"
	"image/color"
	"math"
	"sync"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A wide-angle lens's barrel distortion bows the grid's lines so much (a
// border line across the frame by ten pixels or more) that the straight
// lattice search either fits them only roughly, onBentBorder then placing
// the corners along bowed border lines it reads from a lattice a few
// pixels off, or not at all: edges break into short segments of several
// directions and the line profiles smear. Both are read again on the frame
// undistorted by a lens (the model of lens), where the lines are straight:
// the realm found is searched again through the lens onBentBorder read when
// that is strong (strongLensK), and when no realm is found, the frame is
// undistorted by a few strong lenses in turn (retryLensKs). The realm's
// corners are mapped back through the lens. The retry costs only frames
// that find no realm, and the second reading only frames seen through a
// strong lens.

// retryLensKs are the distortions k tried, in order, when no straight
// lattice is found: a wide-angle webcam's barrel, and a stronger one. The
// rest of the lens (each retry leaves up to about half a step) is read by
// onBentBorder in the undistorted frame.
var retryLensKs = []float64{0.08, 0.16}

// strongLensK is the distortion (in half diagonals) from which a realm
// found on straight lattices is read again through the lens
// (detectThroughLens): a lens that strong bows a border line across the
// frame by several pixels, and the corners onBentBorder reads along the
// bowed lines can miss by a percent of the realm's width or more, or be
// refused.
const strongLensK = 0.06

// detectUndistorted is detectThroughLens by each of retryLensKs, the
// first realm found in their order. The searches run at once: each takes
// seconds, and they are made for frames that find no realm otherwise.
func detectUndistorted(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	tries := make([]gridTry, len(retryLensKs))
	searches := make([]func(), len(retryLensKs))
	for i, k := range retryLensKs {
		searches[i] = func() {
			h, score, ok := detectThroughLens(frame, g, k)
			tries[i] = gridTry{h, score, ok && bentAsLens(frame, h, g, k)}
		}
	}
	concurrently(searches...)
	for _, t := range tries {
		if t.ok {
			return t.h, t.score, true
		}
	}
	return homography{}, 0, false
}

// gridTry is what one of the searches that run at once found: a lattice
// and its score, when ok.
type gridTry struct {
	h     homography
	score float64
	ok    bool
}

// agreedTry is the first of tries that found a lattice, when every other
// that found one found the same realm (see sameRealm); ok is false when
// none found one, or two found different realms (a wrong realm is worse
// than none).
func agreedTry(tries []gridTry, g models.RealmGeometry) (gridTry, bool) {
	var found *gridTry
	for i := range tries {
		t := &tries[i]
		switch {
		case !t.ok:
		case found == nil:
			found = t
		case !sameRealm(found.h, t.h, g):
			return gridTry{}, false
		}
	}
	if found == nil {
		return gridTry{}, false
	}
	return *found, true
}

// concurrently runs each of fs in its own goroutine and waits for all.
func concurrently(fs ...func()) {
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// lensOverProfiles checks a realm h that the line profiles found on
// straight lines and on which no strong lens was read (see detectFaint and
// onBentBorder): through a wide-angle lens the profiles of lines bowed a
// few pixels can line up best a cell off the realm, a lattice whose
// border column the lens bends off the frame's own lines and whose lens
// therefore cannot be read either. The frame is searched again undistorted
// by the first of retryLensKs; a different realm found there whose lines
// in the frame bend as a lens of at least half that k bends them (see
// bentAsLens) replaces h. On a frame seen through no strong lens the
// lines do not bend so and h stands. It costs frames found by the line
// profiles one more search.
func lensOverProfiles(frame gocv.Mat, g models.RealmGeometry, h homography) (homography, float64, bool) {
	k := retryLensKs[0]
	hl, score, ok := detectThroughLens(frame, g, k)
	if !ok || sameRealm(hl, h, g) || !bentAsLens(frame, hl, g, k) {
		return homography{}, 0, false
	}
	return hl, score, true
}

// bentAsLens says whether the frame's lines near the realm h found through
// a lens of distortion k are bent as a lens of at least half that much
// bends them (see bentCorners): a frame whose lines are straight, and
// which no straight lattice fitted for another reason (dim light, two grids
// about equally clear), bent the other way by the undistortion, can show
// a lattice whose corners the pincushion moved off the realm's.
func bentAsLens(frame gocv.Mat, h homography, g models.RealmGeometry, k float64) bool {
	gray, scale := workingGray(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		return false
	}
	l := lens{c: models.Point{X: float64(rm.w-1) / 2, Y: float64(rm.h-1) / 2}, hd: math.Hypot(float64(rm.w), float64(rm.h)) / 2, k: k}
	hw := h.Then(homography{scale, 0, 0, 0, scale, 0, 0, 0, 1}) // in the working frame
	var u []models.Point
	for _, p := range realmCorners(g) {
		u = append(u, l.undistort(hw.Apply(p)))
	}
	hu, err := fitHomography(realmCorners(g), u)
	if err != nil {
		return false
	}
	_, _, kr, ok := rm.bentCorners(hu, l, g, borderBandPx, rm.lightGrid(hw, g))
	return ok && kr >= k/2
}

// detectThroughLens is detectStraight on the frame undistorted by lens
// distortion k, the realm's corners mapped back to the frame (the
// homography through those corners).
func detectThroughLens(frame gocv.Mat, g models.RealmGeometry, k float64) (homography, float64, bool) {
	return searchThroughLens(frame, g, k, func(uf gocv.Mat) (homography, float64, error) {
		h, score, _, err := detectStraight(uf, g)
		return h, score, err
	})
}

// searchThroughLens is detectThroughLens with the undistorted frame
// searched by search (which gives the lattice in that frame's pixels).
func searchThroughLens(frame gocv.Mat, g models.RealmGeometry, k float64, search func(gocv.Mat) (homography, float64, error)) (homography, float64, bool) {
	uf, back := undistortFrame(frame, k)
	h, score, err := search(uf)
	uf.Close()
	if err != nil {
		return homography{}, 0, false
	}
	var corners []models.Point
	for _, p := range realmCorners(g) {
		corners = append(corners, back(h.Apply(p)))
	}
	hb, err := fitHomography(realmCorners(g), corners)
	if err != nil {
		return homography{}, 0, false
	}
	return hb, score, true
}

// undistortFrame is the frame as a straight-line camera would see it
// through the lens of distortion k about the frame's centre, shrunk about
// the centre so that the frame's corners stay at the corners (barrel
// distortion draws the frame's outer parts in), and back, which takes a
// point of the undistorted frame to the frame.
func undistortFrame(frame gocv.Mat, k float64) (gocv.Mat, func(models.Point) models.Point) {
	w, h := frame.Cols(), frame.Rows()
	l := lens{c: models.Point{X: float64(w-1) / 2, Y: float64(h-1) / 2}, hd: math.Hypot(float64(w), float64(h)) / 2, k: k}
	s := 1 / (1 + k) // the undistorted frame's corner radius, 1 + k half diagonals, back to 1
	back := func(p models.Point) models.Point {
		u := models.Point{X: l.c.X + (p.X-l.c.X)/s, Y: l.c.Y + (p.Y-l.c.Y)/s}
		return l.distort(u)
	}
	// The map is smooth: computed every cell px and interpolated.
	const cell = 8
	cw, ch := w/cell+2, h/cell+2
	mx := gocv.NewMatWithSize(ch, cw, gocv.MatTypeCV32F)
	my := gocv.NewMatWithSize(ch, cw, gocv.MatTypeCV32F)
	defer mx.Close()
	defer my.Close()
	px, _ := mx.DataPtrFloat32()
	py, _ := my.DataPtrFloat32()
	for j := 0; j < ch; j++ {
		for i := 0; i < cw; i++ {
			// Coarse cell (i, j) stands for pixel (i·cell, j·cell), so the
			// linear resize below lines up exactly (see mapAt).
			q := back(models.Point{X: float64(i * cell), Y: float64(j * cell)})
			px[j*cw+i], py[j*cw+i] = float32(q.X), float32(q.Y)
		}
	}
	fx, fy := fullMap(mx, cell, w, h), fullMap(my, cell, w, h)
	defer fx.Close()
	defer fy.Close()
	out := gocv.NewMat()
	gocv.Remap(frame, &out, &fx, &fy, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return out, back
}

// fullMap interpolates a coarse map (cell (i, j) for pixel (i·cell, j·cell))
// to w×h pixels.
func fullMap(coarse gocv.Mat, cell, w, h int) gocv.Mat {
	// An affine warp puts pixel (x, y) at coarse (x/cell, y/cell).
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, float64(cell))
	m.SetDoubleAt(1, 1, float64(cell))
	out := gocv.NewMat()
	gocv.WarpAffineWithParams(coarse, &out, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return out
}
