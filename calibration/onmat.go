package calibration

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A table's own pattern (the stripes of a cloth or a rug, gingham, a
// wooden table's grain) fills the frame round the mat with long straight
// edges, evenly spaced, that run as far as the frame and outnumber the
// grid's lines, which cards break into pieces. The grid search keeps each
// direction's longest lines (see newFamily), scores lattices by the edges
// and drawn lines they cover wherever they lie, and guesses the vanishing
// points from the frame's dominant directions, so where the table's lines
// run near the grid's, every lattice it proposes is the table's, or the
// grid's rows with the table's lines for columns, and the realm is never
// proposed at all, or its lines read no clearer than the table's (on the
// independent scenes, clear grids on an orange mat over a striped cloth
// and on a black mat beside a striped rug, faint ones on mats over
// gingham, stripes and a wooden table, six frames, none found). The
// table lies round the mat, so the frame's border shows its colours (see
// offTableMask), and the mat, with the cards on it, is the patch of other
// colours in the middle. When no search found a realm, the first search
// (edges, then line profiles) runs once more on the frame with everything
// off that patch (its convex hull, a little wider) smoothed away and
// reading only the straight segments over it, the lines' response in
// units of the mat's typical response (the table's pattern would drown
// the mat's lines in its noise), held to what every last retry's realm is
// held to (see heldRetry), and refused when the frame as it is shows the
// lattice a cell over more clearly (see movesOnFrame) or when its lines
// cross the cells' middles between drawn ones (see linesShownNowhere: a
// mat of about the table's colours reaching the frame's edge leaves only
// its cards for the patch). The six frames are found so, within 0.5% of
// the realm's width. Run on the 40 frames of
// one independent set whose realms the first search finds (where it
// never runs), it found 22, one a row off where the mat's dark side is of
// the table's colours, which movesOnFrame refuses.

// The mat's region limits.
const (
	// matMargin is how far (a share of the working width) the mat's
	// region reaches outside the hull of its patch: the hull is read at
	// farSampleWidth, its sides a few pixels off the mat's edge.
	matMargin = 0.01
	// matSeam is how far (working pixels) inside the region's edge a
	// segment's middle must lie: the region's edge is a seam between
	// the frame and the table smoothed away, whose edges are no lines
	// of the frame.
	matSeam = 6
	// matMaxShare is the largest share of the frame the hull may cover:
	// a mat that fills the frame leaves no border of table, and the
	// patch is then of whatever colours the border lacks.
	matMaxShare = 0.85
	// matSmooth is the blur (sigma, a share of the working width) that
	// smooths the table's pattern away outside the mat's region.
	matSmooth = 0.015
)

// matRegion marks the working pixels (scale times the frame's, in a
// working image w by hgt) on the mat: those within matMargin of the
// convex hull of the frame's patches of colours its border does not show
// (see offTableMask), each of farMinPatch of the frame or more. ok is
// false when there are none, when the largest is smaller than the least
// realm (see minRealmArea: the mat is of the table's colours, the patches
// are its cards) or when the hull covers more than matMaxShare of the
// frame. The caller closes the mask.
func matRegion(frame gocv.Mat, scale float64, w, hgt int) (gocv.Mat, bool) {
	mask, ok := offTableMask(frame)
	if !ok {
		return gocv.Mat{}, false
	}
	defer mask.Close()
	sw, sh := mask.Cols(), mask.Rows()
	contours := gocv.FindContours(mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	var pts []image.Point
	largest := 0.0
	for i := 0; i < contours.Size(); i++ {
		c := contours.At(i)
		a := gocv.ContourArea(c)
		if a < farMinPatch*float64(sw*sh) {
			continue
		}
		largest = math.Max(largest, a)
		pts = append(pts, c.ToPoints()...)
	}
	if len(pts) < 3 || largest < minRealmArea*float64(sw*sh) {
		return gocv.Mat{}, false
	}
	hull := convexHull(pts)
	if polygonArea(hull) > matMaxShare*float64(sw*sh) {
		return gocv.Mat{}, false
	}
	// From sample pixels (their centres) to working pixels.
	s := scale * float64(frame.Cols()) / float64(sw)
	poly := make([]image.Point, len(hull))
	for i, p := range hull {
		poly[i] = image.Pt(int(math.Round((float64(p.X)+0.5)*s)), int(math.Round((float64(p.Y)+0.5)*s)))
	}
	region := gocv.NewMatWithSize(hgt, w, gocv.MatTypeCV8U)
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{poly})
	defer pv.Close()
	gocv.FillPoly(&region, pv, color.RGBA{255, 255, 255, 255})
	m := int(math.Round(matMargin * float64(w)))
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*m+1, 2*m+1))
	defer k.Close()
	gocv.Dilate(region, &region, k)
	return region, true
}

// convexHull is the convex hull of pts (three or more).
func convexHull(pts []image.Point) []image.Point {
	pv := gocv.NewPointVectorFromPoints(pts)
	defer pv.Close()
	idx := gocv.NewMat()
	defer idx.Close()
	gocv.ConvexHull(pv, &idx, true, false)
	hull := make([]image.Point, idx.Rows())
	for i := range hull {
		hull[i] = pts[idx.GetIntAt(i, 0)]
	}
	return hull
}

// polygonArea is the area of the simple polygon poly.
func polygonArea(poly []image.Point) float64 {
	var a float64
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		a += float64(p.X*q.Y - q.X*p.Y)
	}
	return math.Abs(a) / 2
}

// offMatSmoothed is gray with its pixels outside region (see matRegion)
// replaced by the table's own mean round them (gray blurred by matSmooth
// over the pixels outside region only: the mat's brightness must not glow
// past its edge): the table's pattern, smoothed away. The caller closes
// it.
func offMatSmoothed(gray, region gocv.Mat) gocv.Mat {
	sigma := matSmooth * float64(gray.Cols())
	blur := func(m gocv.Mat) gocv.Mat {
		out := gocv.NewMat()
		gocv.GaussianBlur(m, &out, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
		return out
	}
	off := gocv.NewMat()
	defer off.Close()
	gocv.BitwiseNot(region, &off)
	weight := gocv.NewMat()
	defer weight.Close()
	off.ConvertToWithParams(&weight, gocv.MatTypeCV32F, 1.0/255, 0)
	table := gocv.NewMat()
	defer table.Close()
	gray.ConvertTo(&table, gocv.MatTypeCV32F)
	gocv.Multiply(table, weight, &table)
	sum, share := blur(table), blur(weight)
	defer sum.Close()
	defer share.Close()
	// Where no table lies within reach, share is near 0: the mat's
	// pixels are kept there anyway.
	least := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(1e-3, 0, 0, 0), share.Rows(), share.Cols(), gocv.MatTypeCV32F)
	defer least.Close()
	gocv.Max(share, least, &share)
	mean := gocv.NewMat()
	defer mean.Close()
	gocv.Divide(sum, share, &mean)
	out := gocv.NewMat()
	mean.ConvertTo(&out, gocv.MatTypeCV8U)
	gray.CopyToWithMask(&out, region)
	return out
}

// regionHolds is the predicate of the working points inside region (see
// matRegion) by matSeam pixels or more.
func regionHolds(region gocv.Mat) func(models.Point) bool {
	inner := gocv.NewMat()
	defer inner.Close()
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*matSeam+1, 2*matSeam+1))
	defer k.Close()
	gocv.Erode(region, &inner, k)
	w, hgt := inner.Cols(), inner.Rows()
	px, _ := inner.DataPtrUint8()
	on := append([]byte(nil), px...)
	return func(p models.Point) bool {
		x, y := int(math.Round(p.X)), int(math.Round(p.Y))
		return x >= 0 && y >= 0 && x < w && y < hgt && on[y*w+x] != 0
	}
}

// onMatSegment keeps the segments whose middles onMat holds.
func onMatSegment(onMat func(models.Point) bool) func(segment) bool {
	return func(s segment) bool {
		return onMat(models.Point{X: (s.a.X + s.b.X) / 2, Y: (s.a.Y + s.b.Y) / 2})
	}
}

// bothKept keeps the segments that a and b (when not nil) both keep.
func bothKept(a, b func(segment) bool) func(segment) bool {
	if b == nil {
		return a
	}
	return func(s segment) bool { return a(s) && b(s) }
}

// detectOnMat is the table pattern's retry (see above): detectStraight on
// the frame with the table round the mat smoothed away (see matRegion and
// offMatSmoothed), reading only the straight segments over the mat and
// the lines' response in units of the mat's typical one, held to what a
// last retry's realm must show (see heldRetry); the lattice in frame
// pixels, and ok false when the frame shows no mat apart from the table,
// or no realm is found or it is refused.
func detectOnMat(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	return heldRetry(frame, g, func(f gocv.Mat) (homography, float64, float64, error) {
		gray, scale := workingGray(f)
		defer gray.Close()
		region, ok := matRegion(f, scale, gray.Cols(), gray.Rows())
		if !ok {
			return homography{}, 0, 0, errNoMat
		}
		defer region.Close()
		// The frame as it is, whose lines judge the lattice found below.
		framed, err := newRidgeMap(gray)
		if err != nil {
			return homography{}, 0, 0, fmt.Errorf("calibration: %w", err)
		}
		// The lines' response in units of the mat's typical one: the
		// table's pattern would make it louder and every line on the
		// mat fainter, and the table smoothed away quieter and every
		// line clearer.
		holds := regionHolds(region)
		matNoise := framed.noiseOver(holds)
		onMat := offMatSmoothed(gray, region)
		defer onMat.Close()
		reading := segmentReading{onMat: holds, noise: &matNoise}
		h, score, k, err := detectStraightReading(f, onMat, scale, g, nil, reading, segmentShare)
		if err != nil {
			return h, score, k, err
		}
		hw := toFrame(h, 1/scale)
		if movesOnFrame(framed, hw, g) {
			return homography{}, 0, 0, errMovesOnFrame
		}
		// Lines between drawn ones that cross the cells' middles, read
		// on the frame as it is.
		col, hasCol := newColourFrame(f, scale)
		if hasCol {
			framed.colour = &col
		}
		if hasCol && linesShownNowhere(framed, col, hw, g) {
			return homography{}, 0, 0, errShownNowhere
		}
		return h, score, k, nil
	})
}

// movesOnFrame says whether the frame as it is (rm, its table not
// smoothed) shows lattice h (working pixels) moved a cell along either
// axis more clearly than h itself (see shiftAdvantage): where the mat is of
// about the table's colours along one side, its patch (see matRegion)
// leaves out the realm's border row there, smoothed away with the table,
// and the lattice found lies a row off.
func movesOnFrame(rm *ridgeMap, h homography, g models.RealmGeometry) bool {
	w, hgt := float64(rm.w), float64(rm.h)
	for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if plausible(shiftedBy(h, g, s[0], s[1]), g, w, hgt) && rm.shiftAdvantage(h, g, s[0], s[1]) > segmentShiftMargin {
			return true
		}
	}
	return false
}

// errMovesOnFrame is detectOnMat's search's refusal of a lattice that
// the frame as it is shows a cell off (see movesOnFrame).
var errMovesOnFrame = fmt.Errorf("calibration: the grid found over the mat shows a cell off on the frame: %w", ErrNotFound)

// linesShownNowhere says whether minBareBetween or more of lattice h's
// inner grid lines (working pixels, on the frame as it is), each between
// lines drawn unbroken, run over bare cloth for more than
// unbrokenGridLine of their samples and show no drawn line of their own
// (none anywhere, with partlyBareGridLine of their samples bare, or
// faintBesideDrawn of the weaker drawn line beside): the lattice's lines
// cross the cells' middles. bareGridLines refuses such lines only where
// the drawn grid shows past the lattice (linesRunPast, drawnPast); the
// mat's retry finds its lattice on a frame whose lines past it may be
// smoothed away with the table (a mat of about the table's colours
// reaching the frame's edge leaves its cards for the mat's patch, see
// matRegion), so it refuses them wherever the grid ends: the realm's
// lines are drawn or covered. In this package's border-less scene 9442,
// on the cards' patch so, a lattice of half the rows' spacing, a column
// off, has two such rows (0.37 and 0.41 bare, showing 0.00 and 0.15,
// between rows showing 1.3–2.0) and was taken for the realm, 15.7% of
// its width off.
func linesShownNowhere(rm *ridgeMap, col colourFrame, h homography, g models.RealmGeometry) bool {
	light := rm.lightGrid(h, g)
	cc, ok := col.cloth(rm, h, g, light)
	if !ok {
		return false
	}
	nowhere := 0
	for _, dir := range gridLineSides() {
		shares := col.bareShares(rm, cc, h, g, dir, light)
		shows := make([]float64, len(dir))
		for i, sides := range dir {
			shows[i] = rm.sideEvidence(h, g, sides, light)
		}
		for i := 1; i < len(dir)-1; i++ {
			drawnBeside := shares[i-1] <= unbrokenGridLine && shares[i+1] <= unbrokenGridLine &&
				shows[i-1] >= drawnGridLine && shows[i+1] >= drawnGridLine
			if !drawnBeside || !(shares[i] > unbrokenGridLine) {
				continue
			}
			shownNowhere := shares[i] >= partlyBareGridLine && shows[i] <= noDrawnLine
			faintBeside := shows[i] <= faintBesideDrawn*math.Min(shows[i-1], shows[i+1])
			if shownNowhere || faintBeside {
				nowhere++
			}
		}
	}
	return nowhere >= minBareBetween
}

// errShownNowhere is detectOnMat's search's refusal of a lattice whose
// lines cross the cells' middles (see linesShownNowhere).
var errShownNowhere = fmt.Errorf("calibration: lines of the grid found over the mat show no drawn line: %w", ErrNotFound)

// errNoMat is detectOnMat's search's error on a frame whose border shows
// no table round the mat.
var errNoMat = fmt.Errorf("calibration: no mat apart from the table: %w", ErrNotFound)
