package vision

import (
	"encoding/binary"
	"image"
	"math"
	"slices"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Cards that lie on other cards, or under which other cards lie, rarely
// show a closed outline of their own on the edge map: the unit's border
// touches the site's, and findUnknownCards sees one merged blob. But a card
// that no other covers shows its whole border, four straight sides of a
// card's size, and its face is busier than the mat: it leaves many
// keypoints that no identified card explains. findStackedCards looks for
// those clusters of unexplained keypoints and, around each, for a
// rectangle of a card's size whose four sides lie on straight edges and
// show a card's plain printed border just inside. Only standard cards are
// looked for this way: a token's size is that of the panels printed on a
// card's face.

// stackBinMM is the side of the grid squares unexplained keypoints are
// counted in.
const stackBinMM = 8.0

// stackMaxCandidates bounds the keypoint clusters looked at in one frame.
const stackMaxCandidates = 8

// stackBusyFactor is how many times busier than the mat around the cards
// (the median of the windows no card explains) a window of unexplained
// keypoints must be to be looked at: a card's face holds several times the
// corners of the cloth around it.
const stackBusyFactor = 4.0

// stackFaceShare: a window must hold at least this share of the keypoints
// the windows on the cards found hold (their median): a card's face is as
// busy as the others', whatever the camera and the lighting.
const stackFaceShare = 0.5

// stackMinPoints is the fewest unexplained keypoints a window must hold
// however quiet the mat is.
const stackMinPoints = 20

// A card rectangle's sides are two pairs of parallel lines, square to
// each other within stackAngleTolDeg, a card's short and long sides apart
// within stackSizeTolerance (tighter than sizeTolerance: a card's inner
// frame, a few millimetres in, must not pass for a card).
const (
	stackAngleTolDeg   = 2.0
	stackSizeTolerance = 0.06
)

// A card's printed border: stackBorderInsetMM inside its outline, the
// grey level along a side stays within stackBorderLevels of its median
// over stackBorderPlain of the side, on three sides at least (see
// plainBorder).
const (
	stackBorderInsetMM = 1.5
	stackBorderLevels  = 24
	stackBorderPlain   = 0.7
)

// Side support: a card rectangle is taken when each of its sides lies on
// edges over stackSideSupport of its length and all four over
// stackMeanSupport together.
const (
	stackSideSupport = 0.6
	stackMeanSupport = 0.8
)

// stackedCard is a card found by its four sides rather than by a closed
// outline: its kind and turn are guessed from its shape and from the cards
// it overlaps.
type stackedCard struct {
	quad   models.Quad
	kind   models.CardKind
	tapped bool
	// alts are other rectangles proposed for the same token, less well
	// supported (see findStackedTokens): tried in turn when the look names
	// no token in quad.
	alts []models.Quad
}

// findStackedCards finds the cards whose whole border shows but that no
// closed outline or face explains, around clusters of the frame's
// keypoints (top-down pixels) that lie on no card found so far (found;
// dets are the matched ones among them).
func (o *outlineFinder) findStackedCards(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown) []stackedCard {
	out := o.stackedAroundClusters(gray, v, points, dets, found, shows)
	all := append(found[:len(found):len(found)], placedOf(out)...)
	out = append(out, o.findSidedCards(gray, v, points, dets, all, shows)...)
	all = append(found[:len(found):len(found)], placedOf(out)...)
	return append(out, o.lookAgain(gray, v, points, dets, all, shows)...)
}

// placedOf gives the cards as placed ones.
func placedOf(cs []stackedCard) []placed {
	out := make([]placed, len(cs))
	for i, c := range cs {
		out[i] = placed{c.quad, c.kind}
	}
	return out
}

// stackedAroundClusters finds the cards around clusters of unexplained
// keypoints (see findStackedCards).
func (o *outlineFinder) stackedAroundClusters(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown) []stackedCard {
	used := make([]bool, len(points))
	for _, d := range dets {
		for _, i := range d.used {
			if i >= 0 && i < len(points) {
				used[i] = true
			}
		}
	}
	// Only what lies on no card found is looked at: a card on top of
	// another found card shows there too unless it lies wholly within it.
	outlines := make([]models.Quad, 0, len(found))
	for _, f := range found {
		outlines = append(outlines, grow(f.quad, 2*v.pxPerMM))
	}
	centres := unexplainedClusters(gray.Cols(), gray.Rows(), v, points, used, outlines)
	if len(centres) == 0 {
		return nil
	}
	// Standard cards only: at token size, a face's printed panels pass for cards.
	shapes := []outlineShape{outlineShapeOf(v, models.KindStandard)}
	// The edges of all the squares searched, found once.
	var span image.Rectangle
	squares := make([]image.Rectangle, 0, len(centres))
	for _, c := range centres {
		sq := searchSquare(gray, c, shapes)
		span = span.Union(sq)
		squares = append(squares, sq)
	}
	e, err := o.stackEdges(gray, span, squares)
	if err != nil {
		return nil
	}
	var out []stackedCard
	taken := make([]models.Quad, 0, len(found))
	for _, f := range found {
		taken = append(taken, f.quad)
	}
	grey, haveGrey := o.blurredGrey(gray)
	grid := gridLines(v)
	for _, c := range centres {
		rs := e.rectanglesAround(searchSquare(gray, c, shapes), v, c, shapes)
		for _, q := range rs {
			if sameCardAsAny(q.quad, taken) || underMatchedCard(q.quad, dets, points, v.pxPerMM, shows) {
				continue
			}
			// The bare mat closed by a grid line and the cards around it
			// (outline_sides.go).
			if haveGrey && bareMat(q.quad, grid, grey, sideContrastMM*v.pxPerMM, sideGridTolMM*v.pxPerMM) {
				continue
			}
			taken = append(taken, q.quad)
			out = append(out, q.card(found))
		}
	}
	return out
}

// faceShown reports whether matched card d's face shows within q (top-down
// pixels) where its fit's inliers may not (see Analyzer.faceShowsWithin).
type faceShown func(d *detection, q models.Quad) bool

// underMatchedCard reports whether a matched card lies across q, partly
// within it, with its face showing inside q's border (a few of its inliers
// there, or as shows, when not nil, finds): q is then a card under it, such
// as a site under a tapped unit, which the covered-site search names, or
// lines of its face and of what lies around it, not a card stacked on top.
// A card lying wholly within q (a token on a unit) says nothing about which
// is on top.
func underMatchedCard(q models.Quad, dets []detection, points []keypoint, pxPerMM float64, shows faceShown) bool {
	inner := grow(q, -knownInsetMM*pxPerMM)
	for _, d := range dets {
		within := 0
		for _, p := range d.quad {
			if inside(p, q) {
				within++
			}
		}
		if within == 4 {
			continue
		}
		if faceShows(d, points, inner, underMinInliers) || (shows != nil && shows(&d, q)) {
			return true
		}
	}
	return false
}

// underMinInliers is how many of a matched card's inliers inside a
// rectangle show that the card lies on it: more than a stray keypoint at
// its border.
const underMinInliers = 4

// sameCardAsAny reports whether q outlines a card of quads: their centres
// lie within a quarter of q's short side and both are turned alike
// (portrait or landscape). A unit standing on a site, centred on it but
// turned across it, is another card.
func sameCardAsAny(q models.Quad, quads []models.Quad) bool {
	c := q.Center()
	short := math.Min(sideLen(q, 0), sideLen(q, 1))
	for _, o := range quads {
		oc := o.Center()
		if math.Hypot(oc.X-c.X, oc.Y-c.Y) < 0.25*short && landscapeAny(o) == landscapeAny(q) {
			return true
		}
	}
	return false
}

func sideLen(q models.Quad, i int) float64 {
	a, b := q[i], q[(i+1)%4]
	return math.Hypot(b.X-a.X, b.Y-a.Y)
}

// landscapeAny reports whether a quad, whatever corner it starts at, is
// wider than tall.
func landscapeAny(q models.Quad) bool {
	a, b := q[1].X-q[0].X, q[1].Y-q[0].Y
	long0 := sideLen(q, 0) > sideLen(q, 1)
	horizontal0 := math.Abs(a) > math.Abs(b)
	return long0 == horizontal0
}

// unexplainedClusters gives the centres (top-down pixels) of the windows,
// a token's width across, that lie on none of the outlines (the cards
// found, a little grown) and hold many keypoints: several times those of
// the mat's windows (their median) and half those of the windows on the
// cards found, busiest first.
func unexplainedClusters(w, h int, v *view, points []keypoint, used []bool, outlines []models.Quad) []models.Point {
	bin := stackBinMM * v.pxPerMM
	cols, rows := int(math.Ceil(float64(w)/bin)), int(math.Ceil(float64(h)/bin))
	if cols < 1 || rows < 1 {
		return nil
	}
	// The squares' counts, as sums over the squares above and to the left
	// (a summed-area table, one row and column of zeros first), so that
	// each window's sum takes four look-ups: unexplained keypoints,
	// explained ones, and squares whose centre lies on a card.
	free, explained, onCard := newSummedArea(cols, rows), newSummedArea(cols, rows), newSummedArea(cols, rows)
	for i, p := range points {
		bx, by := int(float64(p.X)/bin), int(float64(p.Y)/bin)
		if bx < 0 || by < 0 || bx >= cols || by >= rows {
			continue
		}
		if used[i] {
			explained.add(bx, by, 1)
		} else {
			free.add(bx, by, 1)
		}
	}
	// Only the squares within an outline's bounds (and one more all round,
	// against rounding) can have their centre inside it.
	centreOn := make([]bool, cols*rows)
	for _, q := range outlines {
		minX, minY, maxX, maxY := quadBounds(q)
		x0, x1 := max(0, int(math.Floor(minX/bin-0.5))), min(cols-1, int(math.Ceil(maxX/bin-0.5)))
		y0, y1 := max(0, int(math.Floor(minY/bin-0.5))), min(rows-1, int(math.Ceil(maxY/bin-0.5)))
		for by := y0; by <= y1; by++ {
			for bx := x0; bx <= x1; bx++ {
				if centreOn[by*cols+bx] {
					continue
				}
				centre := models.Point{X: (float64(bx) + 0.5) * bin, Y: (float64(by) + 0.5) * bin}
				if inside(centre, q) {
					centreOn[by*cols+bx] = true
					onCard.add(bx, by, 1)
				}
			}
		}
	}
	free.sum()
	explained.sum()
	onCard.sum()
	// Window sums, a token's short side across.
	k := int(math.Round(models.TokenShortMM / stackBinMM))
	if k < 1 {
		k = 1
	}
	sums := make([]int, cols*rows)
	var quiet, faces []int // windows on no card found, and within one
	for y := 0; y+k <= rows; y++ {
		for x := 0; x+k <= cols; x++ {
			s, on := free.window(x, y, k), onCard.window(x, y, k)
			switch {
			case on == k*k:
				faces = append(faces, s+explained.window(x, y, k))
				s = 0
			case on > 0:
				s = 0
			default:
				quiet = append(quiet, s)
			}
			sums[y*cols+x] = s
		}
	}
	return busyCentres(sums, cols, rows, k, stackThreshold(quiet, faces), bin, models.TokenShortMM*v.pxPerMM)
}

// stackThreshold is the keypoint count that makes a window busy: well above
// the windows on no card found (quiet) and a fair share of those within a
// found card's face (faces).
func stackThreshold(quiet, faces []int) int {
	threshold := stackMinPoints
	if len(quiet) > 0 {
		if t := int(stackBusyFactor * float64(medianCount(quiet))); t > threshold {
			threshold = t
		}
	}
	if len(faces) > 0 {
		if t := int(stackFaceShare * float64(medianCount(faces))); t > threshold {
			threshold = t
		}
	}
	return threshold
}

// busyCentres gives the centres (top-down pixels) of the busy windows, k
// bins of bin pixels across, whose counts (sums, cols×rows, indexed by the
// window's top-left bin) reach threshold: busiest first, one centre per
// card, at most stackMaxCandidates.
func busyCentres(sums []int, cols, rows, k, threshold int, bin, apart float64) []models.Point {
	type window struct{ x, y, sum int }
	var busy []window
	for y := 0; y+k <= rows; y++ {
		for x := 0; x+k <= cols; x++ {
			if s := sums[y*cols+x]; s >= threshold {
				busy = append(busy, window{x, y, s})
			}
		}
	}
	sort.Slice(busy, func(i, j int) bool { return busy[i].sum > busy[j].sum })
	// One centre per card: windows closer than apart (a token's short
	// side) to a busier one are left out.
	var centres []models.Point
	for _, b := range busy {
		c := models.Point{X: (float64(b.x) + float64(k)/2) * bin, Y: (float64(b.y) + float64(k)/2) * bin}
		near := false
		for _, o := range centres {
			if math.Hypot(o.X-c.X, o.Y-c.Y) < apart {
				near = true
				break
			}
		}
		if near {
			continue
		}
		centres = append(centres, c)
		if len(centres) == stackMaxCandidates {
			break
		}
	}
	return centres
}

// summedArea is a grid of counts that, once summed, gives the total of any
// square of cells in four look-ups: cell (x, y) of the sums holds the
// counts of the cells left of and above it, (x, y) itself excluded.
type summedArea struct {
	cols int
	at   []int // (cols+1)×(rows+1)
}

func newSummedArea(cols, rows int) summedArea {
	return summedArea{cols: cols, at: make([]int, (cols+1)*(rows+1))}
}

// add counts n in cell (x, y) (before sum).
func (s summedArea) add(x, y, n int) { s.at[(y+1)*(s.cols+1)+x+1] += n }

// sum turns the counts into sums.
func (s summedArea) sum() {
	w := s.cols + 1
	for y := 1; y < len(s.at)/w; y++ {
		row := 0
		for x := 1; x < w; x++ {
			row += s.at[y*w+x]
			s.at[y*w+x] = s.at[(y-1)*w+x] + row
		}
	}
}

// window gives the total of the k×k cells from (x, y) (after sum).
func (s summedArea) window(x, y, k int) int {
	w := s.cols + 1
	return s.at[(y+k)*w+x+k] - s.at[y*w+x+k] - s.at[(y+k)*w+x] + s.at[y*w+x]
}

// medianCount gives the median (the upper one of an even number) of
// counts, none negative, by counting them: what sorting them would give.
func medianCount(counts []int) int {
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	seen := make([]int, top+1)
	for _, c := range counts {
		seen[c]++
	}
	rank := len(counts) / 2 // of the median, from 0
	for c, n := range seen {
		if rank < n {
			return c
		}
		rank -= n
	}
	return top
}

// quadBounds gives a quad's bounding box.
func quadBounds(q models.Quad) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = q[0].X, q[0].Y, q[0].X, q[0].Y
	for _, p := range q[1:] {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	return minX, minY, maxX, maxY
}

// rectangle is a card-sized rectangle found on the edges, with the share
// of its border that lies on edges.
type rectangle struct {
	quad    models.Quad
	shape   outlineShape
	support float64
}

// rectanglesAround finds the card-sized rectangles whose four sides lie on
// edges in a square around c, best supported first, none covering another.
//
// A card's sides are long straight edges at one of a few orientations
// (those of the cards and the mat's grid), where a face's art has edges at
// every orientation. So the square's edge pixels are first counted by the
// direction of their grey gradient, and again those near the cluster (a
// card turned a little shows few pixels against the grid lines and the
// cards around); at each of the strongest directions,
// the pixels whose gradient points that way (or square to it) are projected
// onto that direction and onto its square, and each peak of a projection is
// a straight side. Pairs of peaks a card's short and long side apart give
// the rectangles.
// searchSquare is the square of the top-down image searched around a
// cluster's centre c: the cluster's window lies on the card, its centre at
// most half a token's width beyond it, so the card's far side may be a
// card's length and that much away.
func searchSquare(gray gocv.Mat, c models.Point, shapes []outlineShape) image.Rectangle {
	reach := 0.5 * shapes[0].short * models.TokenShortMM / models.CardShortMM
	half := shapes[0].long + reach
	r := image.Rect(int(c.X-half), int(c.Y-half), int(c.X+half), int(c.Y+half)).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < int(shapes[0].short) || r.Dy() < int(shapes[0].short) {
		return image.Rectangle{}
	}
	return r
}

// squareEdges are the edges of a part of the top-down image, found once
// for all the squares searched in a frame.
type squareEdges struct {
	thin, thick edgeMap     // the edges, and the edges dilated by a 3×3 square
	grey        edgeMap     // the part, lightly blurred
	px          []edgePixel // the edge pixels, with their gradients' directions
	// What the squares' searches share: the squares around nearby
	// clusters overlap, and their rectangles share sides.
	seen *squareMemo
}

// squareMemo is what the searches of one frame's squares share: the
// running counts of the lines their rectangles' sides were looked for on
// (see sideSnapper), which depend on the edges alone, and scratch.
type squareMemo struct {
	lines map[lineKey]*lineCounts // nil: each side's points counted anew
	done  map[snapKey]float64     // one square's sides moved (see sideSnapper)
	byDir dirPixels
	us    []float64
	bins  []int
}

// newSquareMemo is the memo of one frame's squares; with plain set, each
// side's edge pixels are counted point by point (countOnLine), as
// lineCount's reference for tests.
func newSquareMemo(plain bool) *squareMemo {
	m := &squareMemo{done: map[snapKey]float64{}}
	if !plain {
		m.lines = map[lineKey]*lineCounts{}
	}
	return m
}

// stackEdges finds the edges of the part r of the top-down grey image
// (good until its next call: they are views of o's buffers):
// lightly blurred (5×5 Gaussian) first, as Canny's thresholds suppose. The
// edge pixels' directions are worked out within the squares only (those
// searched, within r), where rectanglesAround looks at them.
func (o *outlineFinder) stackEdges(gray gocv.Mat, r image.Rectangle, squares []image.Rectangle) (squareEdges, error) {
	if r.Empty() {
		return squareEdges{}, nil
	}
	b := &o.stack
	// The edges, thin and dilated by a 3×3 square, and the part blurred,
	// in one pass.
	region := gray.Region(r)
	defer region.Close()
	if err := o.edges.cannyWidth(region, o.noMask, &b.thin, o.low, o.high, cannyOptions{blur: true, thickToo: &b.thick, blurred: &b.part}, widestVectors); err != nil {
		return squareEdges{}, err
	}
	// Views of the buffers' pixels, good until the next frame's search.
	view := func(m gocv.Mat) (edgeMap, error) {
		pix, err := m.DataPtrUint8()
		return edgeMap{pix: pix, w: m.Cols(), h: m.Rows(), off: r.Min}, err
	}
	var e squareEdges
	var err error
	if e.thin, err = view(b.thin); err != nil {
		return e, err
	}
	if e.thick, err = view(b.thick); err != nil {
		return e, err
	}
	if e.grey, err = view(b.part); err != nil {
		return e, err
	}
	within := make([]image.Rectangle, 0, len(squares))
	for _, sq := range squares {
		within = append(within, sq.Sub(r.Min))
	}
	b.px = edgePixelsInto(b.px[:0], e.thin.pix, e.grey, within)
	e.px = b.px
	e.seen = newSquareMemo(o.plainSideCounts)
	return e, nil
}

// stackBuffers are the images of the stacked-card search, kept from frame
// to frame.
type stackBuffers struct {
	part, thin, thick gocv.Mat    // the part searched, blurred; its edges, and dilated
	px                []edgePixel // the edge pixels in the squares
}

func newStackBuffers() stackBuffers {
	return stackBuffers{part: gocv.NewMat(), thin: gocv.NewMat(), thick: gocv.NewMat()}
}

func (b *stackBuffers) close() {
	b.part.Close()
	b.thin.Close()
	b.thick.Close()
}

// rectanglesAround finds the card-sized rectangles whose four sides lie on
// edges in the square r around c, best supported first, none covering
// another.
//
// A card's sides are long straight edges at one of a few orientations
// (those of the cards and the mat's grid), where a face's art has edges at
// every orientation. So the square's edge pixels are first counted by the
// direction of their grey gradient, and again those near the cluster (a
// card turned a little shows few pixels against the grid lines and the
// cards around); at each of the strongest directions,
// the pixels whose gradient points that way (or square to it) are projected
// onto that direction and onto its square, and each peak of a projection is
// a straight side. Pairs of peaks a card's short and long side apart give
// the rectangles.
func (e squareEdges) rectanglesAround(r image.Rectangle, v *view, c models.Point, shapes []outlineShape) []rectangle {
	if r.Empty() {
		return nil
	}
	reach := 0.5 * models.TokenShortMM * v.pxPerMM
	inset := stackBorderInsetMM * v.pxPerMM
	em, grey := e.thick, e.grey
	// The square's edge pixels, filed by direction (their order matters
	// nowhere else: the directions are counted). e.px lists them row by
	// row: those of the square's rows are one run.
	seen := e.seen
	if seen == nil {
		seen = newSquareMemo(false)
	}
	in := r.Sub(e.thin.off)
	byDir := &seen.byDir
	byDir.fileIn(rowsOf(e.px, in), in)
	px := byDir.px
	var dims []float64
	for _, sh := range shapes {
		dims = append(dims, sh.short, sh.long)
	}
	minSide := stackMinSideShare * shapes[0].short
	var cands []rectangle
	// Each square remembers the sides it moved anew, as when squares were
	// searched each on its own: a side's key leaves out which way it is
	// moved (see snapKey), so what one square's rectangles left there may
	// differ from what another's would. The lines' counts are exact.
	clear(seen.done)
	snap := sideSnapper{edges: e.thin, done: seen.done, lines: seen.lines}
	// The directions of the whole square, which its grid lines and the
	// cards around may fill, and those near the cluster, on the card.
	dirs := strongDirections(px)
	var near [quarterBins]int32 // the pixels near the cluster, by quarterBin
	radius := 0.5*math.Hypot(shapes[0].short, shapes[0].long) + reach
	// Well within or beyond radius by the squared distance, which takes
	// no square root; math.Hypot says for the few about as far.
	within2, beyond2 := radius*radius*(1-1e-9), radius*radius*(1+1e-9)
	for _, p := range px {
		dx, dy := float64(int(p.x)+e.thin.off.X)-c.X, float64(int(p.y)+e.thin.off.Y)-c.Y
		if d2 := dx*dx + dy*dy; d2 < within2 || (d2 <= beyond2 && math.Hypot(dx, dy) <= radius) {
			near[p.quarter]++
		}
	}
	for _, a := range strongDirectionsOf(&near) {
		if !nearDirection(a, dirs) {
			dirs = append(dirs, a)
		}
	}
	for _, alpha := range dirs {
		us := seen.sidePeaks(byDir, alpha, e.thin.off, minSide)
		ws := seen.sidePeaks(byDir, alpha+math.Pi/2, e.thin.off, minSide)
		up, wp := sidePairs(us, dims), sidePairs(ws, dims)
		for _, a := range up {
			for _, b := range wp {
				if a.dim/2 != b.dim/2 || a.dim == b.dim { // one shape's short and long sides
					continue
				}
				// The cluster lies on the card: its window, half a
				// token wide, at least touches it.
				if !inside(c, grow(rectangleOf(alpha, a.lo, a.hi, b.lo, b.hi), reach)) {
					continue
				}
				q := snap.outermost(alpha, a.lo, a.hi, b.lo, b.hi)
				if sup, good := em.support(q); good && grey.plainBorder(q, inset) {
					cands = append(cands, rectangle{quad: q, shape: shapes[a.dim/2], support: sup - (a.sizeErr + b.sizeErr)})
				}
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].support > cands[j].support })
	var out []rectangle
	for _, cd := range cands {
		if covered(cd.quad, quadsOfRects(out)) {
			continue
		}
		out = append(out, cd)
	}
	return out
}

// stackMinSideShare: a side shows as a straight edge at least this share
// of a card's short side long (in one line, as projected).
const stackMinSideShare = 0.4

// edgePixel is an edge pixel of a part of the top-down image and the
// direction of its grey gradient, in [0, π).
type edgePixel struct {
	x, y int32 // in the part
	dir  float32
	// The bins of dir, worked out once: one pixel is read in every square
	// around a cluster that holds it, and twice in each.
	bin     uint8 // in dirPixels (dirBin)
	quarter uint8 // modulo a quarter turn, in strongDirections (quarterBin)
}

// newEdgePixel is the edge pixel (x, y) whose gradient's direction is d.
func newEdgePixel(x, y int, d float64) edgePixel {
	dir := float32(d)
	return edgePixel{x: int32(x), y: int32(y), dir: dir, bin: uint8(dirBin(float64(dir))), quarter: uint8(quarterBin(float64(dir)))}
}

// edgePixelsOf lists the pixels of an edge map (of the part grey shows,
// lightly blurred) that lie in any of the rectangles (of the part's
// pixels), with their gradients' directions, row by row.
func edgePixelsOf(edges []byte, grey edgeMap, within []image.Rectangle) []edgePixel {
	return edgePixelsInto(nil, edges, grey, within)
}

// edgePixelsInto is edgePixelsOf appending to out.
func edgePixelsInto(out []edgePixel, edges []byte, grey edgeMap, within []image.Rectangle) []edgePixel {
	w, h := grey.w, grey.h
	var spans [][2]int // of the row, in order, none overlapping
	for y := 1; y < h-1; y++ {
		spans = spans[:0]
		for _, r := range within {
			if y >= r.Min.Y && y < r.Max.Y {
				spans = append(spans, [2]int{max(r.Min.X, 1), min(r.Max.X, w-1)})
			}
		}
		slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
		from := 1
		row := edges[y*w : (y+1)*w]
		for _, s := range spans {
			for x := max(s[0], from); x < s[1]; x++ {
				if x+8 <= s[1] && binary.LittleEndian.Uint64(row[x:]) == 0 {
					x += 7 // eight pixels off the edges at once
					continue
				}
				if row[x] == 0 {
					continue
				}
				// Sobel's 3×3 gradient: along a card's thin printed
				// outline, central differences alone leave the
				// directions scattered by ±15°, and a side's pixels
				// fall short of a peak.
				// (In whole numbers, as exact as in floats.)
				up, mid, down := grey.pix[(y-1)*w+x-1:(y-1)*w+x+2], grey.pix[y*w+x-1:y*w+x+2], grey.pix[(y+1)*w+x-1:(y+1)*w+x+2]
				gx := int(up[2]) + 2*int(mid[2]) + int(down[2]) - int(up[0]) - 2*int(mid[0]) - int(down[0])
				gy := int(down[0]) + 2*int(down[1]) + int(down[2]) - int(up[0]) - 2*int(up[1]) - int(up[2])
				if gx == 0 && gy == 0 {
					continue
				}
				d := math.Atan2(float64(gy), float64(gx))
				if d < 0 {
					d += math.Pi
				}
				if d >= math.Pi {
					d -= math.Pi
				}
				out = append(out, newEdgePixel(x, y, d))
			}
			from = max(from, s[1])
		}
	}
	return out
}

// Directions: edge pixels are counted in bins of stackDirBinDeg by their
// gradient's direction modulo a quarter turn (a rectangle's four sides
// fall in one bin); the stackDirections fullest bins, local maxima, are
// searched.
const (
	stackDirBinDeg  = 0.5
	stackDirections = 4
	// A pixel belongs to a side when its gradient is within
	// stackDirTolDeg of square to it.
	stackDirTolDeg = 4.0
)

// dirBins is how many bins of direction (each a degree) dirPixels files
// edge pixels in.
const dirBins = 180

// dirPixels are edge pixels filed by their gradients' direction: those of
// bin b (direction in [b°, b+1°)) are px[start[b]:start[b+1]].
type dirPixels struct {
	px    []edgePixel
	start [dirBins + 1]int
}

func dirBin(d float64) int { return max(0, min(int(d*dirBins/math.Pi), dirBins-1)) }

// quarterBins is how many bins of direction modulo a quarter turn, each
// stackDirBinDeg, strongDirections counts edge pixels in.
const quarterBins = int(90 / stackDirBinDeg)

// quarterBin is the bin of direction d modulo a quarter turn.
func quarterBin(d float64) int {
	const n = quarterBins
	b := int(math.Floor(modQuarter(d) / (math.Pi / 2) * float64(n)))
	if b >= 0 && b < n { // as nearly always: no division
		return b
	}
	return (b%n + n) % n
}

// rowsOf gives the run of edge pixels px, listed row by row, that lie in
// the rows of r.
func rowsOf(px []edgePixel, r image.Rectangle) []edgePixel {
	first := sort.Search(len(px), func(i int) bool { return int(px[i].y) >= r.Min.Y })
	end := first + sort.Search(len(px)-first, func(i int) bool { return int(px[first+i].y) >= r.Max.Y })
	return px[first:end]
}

// byDirectionIn files the edge pixels that lie in r by their gradients'
// direction, each bin's in the order px lists them.
func byDirectionIn(px []edgePixel, r image.Rectangle) *dirPixels {
	out := &dirPixels{}
	out.fileIn(px, r)
	return out
}

// fileIn files the edge pixels that lie in r by their gradients'
// direction (as byDirectionIn), in out's own pixels.
func (out *dirPixels) fileIn(px []edgePixel, r image.Rectangle) {
	out.start = [dirBins + 1]int{}
	for _, p := range px {
		if image.Pt(int(p.x), int(p.y)).In(r) {
			out.start[int(p.bin)+1]++
		}
	}
	for i := 1; i <= dirBins; i++ {
		out.start[i] += out.start[i-1]
	}
	out.px = slices.Grow(out.px[:0], out.start[dirBins])[:out.start[dirBins]]
	next := out.start
	for _, p := range px {
		if image.Pt(int(p.x), int(p.y)).In(r) {
			b := int(p.bin)
			out.px[next[b]] = p
			next[b]++
		}
	}
}

// strongDirections gives the directions (radians, in [0, π/2)) most edge
// pixels' gradients share, modulo a quarter turn.
func strongDirections(px []edgePixel) []float64 {
	var counts [quarterBins]int32
	for _, p := range px {
		counts[p.quarter]++
	}
	return strongDirectionsOf(&counts)
}

// strongDirectionsOf is strongDirections of the pixels counted by their
// quarterBin.
func strongDirectionsOf(counts *[quarterBins]int32) []float64 {
	const n = quarterBins
	hist := make([]float64, n)
	for i, c := range counts {
		hist[i] = float64(c)
	}
	smooth := make([]float64, n)
	for i := range hist { // over ±1°, around the circle
		for k := -2; k <= 2; k++ {
			smooth[i] += hist[(i+k+n)%n]
		}
	}
	type peak struct {
		bin int
		v   float64
	}
	var peaks []peak
	for i, v := range smooth {
		if v > 0 && v >= smooth[(i+n-1)%n] && v > smooth[(i+1)%n] {
			peaks = append(peaks, peak{i, v})
		}
	}
	sort.Slice(peaks, func(i, j int) bool { return peaks[i].v > peaks[j].v })
	var out []float64
	for _, p := range peaks {
		a := (float64(p.bin) + 0.5) * stackDirBinDeg * math.Pi / 180
		if nearDirection(a, out) {
			continue
		}
		out = append(out, a)
		if len(out) == stackDirections {
			break
		}
	}
	return out
}

// modQuarter is math.Mod(d, π/2), by subtraction where d lies in [0, π]
// (a direction): there the subtraction of π/2 is exact (Sterbenz), as
// math.Mod's remainder is, and a fraction of the time math.Mod takes.
func modQuarter(d float64) float64 {
	const q = math.Pi / 2
	if !(d >= 0 && d <= 2*q) {
		return math.Mod(d, q) // (a float32 direction rounded up past π)
	}
	if d >= q {
		d -= q
	}
	if d >= q { // d was π
		d -= q
	}
	return d
}

// nearDirection reports whether direction a (radians, in [0, π/2)) lies
// within 1.5° of any of dirs, modulo a quarter turn: the same rectangle's
// sides.
func nearDirection(a float64, dirs []float64) bool {
	for _, o := range dirs {
		d := math.Abs(a - o)
		if math.Min(d, math.Pi/2-d) < 1.5*math.Pi/180 {
			return true
		}
	}
	return false
}

// sidePeak is a straight side: where it lies along a direction (top-down
// pixels, from the image origin) and how many edge pixels lie on it.
type sidePeak struct {
	pos   float64
	count int
}

// sidePeaks projects the edge pixels whose gradient points along alpha
// (either way) onto alpha and gives the positions where at least minCount
// of them lie on one line, strongest first, in m's scratch.
func (m *squareMemo) sidePeaks(px *dirPixels, alpha float64, off image.Point, minCount float64) []sidePeak {
	ca, sa := math.Cos(alpha), math.Sin(alpha)
	dirA := math.Mod(alpha, math.Pi)
	tol := stackDirTolDeg * math.Pi / 180
	lo, hi := math.Inf(1), math.Inf(-1)
	// Only the bins within tol of dirA are looked at (around 0 and π,
	// where directions wrap, at both ends).
	b0, b1 := int(math.Floor((dirA-tol)*dirBins/math.Pi)), int(math.Floor((dirA+tol)*dirBins/math.Pi))
	most := 0
	for b := b0; b <= b1; b++ {
		wb := (b%dirBins + dirBins) % dirBins
		most += px.start[wb+1] - px.start[wb]
	}
	us := slices.Grow(m.us[:0], most)
	for b := b0; b <= b1; b++ {
		wb := (b%dirBins + dirBins) % dirBins
		for _, p := range px.px[px.start[wb]:px.start[wb+1]] {
			// Within tol of dirA either way round: math.Min(d, π−d) <= tol.
			if d := math.Abs(float64(p.dir) - dirA); d > tol && math.Pi-d > tol {
				continue
			}
			u := float64(int(p.x)+off.X)*ca + float64(int(p.y)+off.Y)*sa
			us = append(us, u)
			// (As math.Min and math.Max: u is a number, and a
			// zero's sign changes neither floor(lo) nor u − floor(lo).)
			if u < lo {
				lo = u
			}
			if u > hi {
				hi = u
			}
		}
	}
	m.us = us
	if len(us) == 0 {
		return nil
	}
	base := math.Floor(lo)
	m.bins = slices.Grow(m.bins[:0], int(hi-base)+2)[:int(hi-base)+2]
	bins := m.bins
	clear(bins)
	for _, u := range us {
		bins[int(u-base)]++
	}
	// A side's pixels spread over two bins or three (a slight bend, the
	// rounding): each peak counts its bin and the two beside it.
	sum := func(i int) int {
		s := bins[i]
		if i > 0 {
			s += bins[i-1]
		}
		if i+1 < len(bins) {
			s += bins[i+1]
		}
		return s
	}
	var out []sidePeak
	for i := range bins {
		s := sum(i)
		if float64(s) < minCount {
			continue
		}
		if (i > 0 && sum(i-1) > s) || (i+1 < len(bins) && sum(i+1) >= s) {
			continue
		}
		out = append(out, sidePeak{pos: base + float64(i) + 0.5, count: s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].count > out[j].count })
	if len(out) > stackMaxSides {
		out = out[:stackMaxSides]
	}
	return out
}

// stackMaxSides bounds the sides looked at along one direction.
const stackMaxSides = 16

// sidePair is two parallel sides a card's dimension apart (dims[dim]).
type sidePair struct {
	lo, hi  float64
	dim     int
	sizeErr float64 // the relative error of their distance
}

// sidePairs gives the pairs of sides a card's side (one of dims) apart
// within stackSizeTolerance.
func sidePairs(peaks []sidePeak, dims []float64) []sidePair {
	var out []sidePair
	for i := range peaks {
		for j := i + 1; j < len(peaks); j++ {
			a, b := peaks[i].pos, peaks[j].pos
			if a > b {
				a, b = b, a
			}
			for k, dim := range dims {
				if e := math.Abs((b-a)/dim - 1); e <= stackSizeTolerance {
					out = append(out, sidePair{a, b, k, e})
				}
			}
		}
	}
	return out
}

// stackSnapPx is how far (top-down pixels) a side found by projection is
// moved to lie on its line of edges: a projection's peak falls anywhere
// within the card's printed border, whose outer edge is the card's.
const stackSnapPx = 4

// sideSnapper moves the sides of rectangles onto a thin edge map's lines,
// remembering each side it moved: one side takes part in many rectangles.
type sideSnapper struct {
	edges edgeMap
	done  map[snapKey]float64
	// lines holds, for each line a side was looked for on, the running
	// count of its points (a pixel apart) on edges: the sides of the
	// rectangles looked at share their lines, each over a span of its own
	// (nil: each side's points are counted anew).
	lines map[lineKey]*lineCounts
}

type snapKey struct {
	alpha, pos, lo, hi float64
	outward            float64 // −1 or +1: one line is two rectangles' sides, moved either way
	alongU             bool
}

// outermost gives the rectangle with each side of the rectangle between u0, u1 (along
// alpha) and w0, w1 (along alpha + π/2) moved, within stackSnapPx, to the
// outermost line of the thin edge map that holds nearly as many edge
// pixels along the side as the fullest one there.
func (s sideSnapper) outermost(alpha, u0, u1, w0, w1 float64) models.Quad {
	l := turnedLines{e: s.edges, ca: math.Cos(alpha), sa: math.Sin(alpha)}
	// count gives the edge pixels on the line u = pos (along u when alongU,
	// else w = pos) between lo and hi of the other coordinate.
	count := func(alongU bool, pos, lo, hi float64) int {
		if s.lines != nil {
			if n, ok := s.lineCount(alpha, l, alongU, pos, lo, hi); ok {
				return n
			}
		}
		return l.count(alongU, pos, lo, hi)
	}
	snap := func(alongU bool, pos, outward, lo, hi float64) float64 {
		key := snapKey{alpha, pos, lo, hi, outward, alongU}
		if p, ok := s.done[key]; ok {
			return p
		}
		p := snapSide(alongU, pos, outward, lo, hi, count)
		s.done[key] = p
		return p
	}
	return rectangleOf(alpha, snap(true, u0, -1, w0, w1), snap(true, u1, 1, w0, w1), snap(false, w0, -1, u0, u1), snap(false, w1, 1, u0, u1))
}

// turnedLines reads an edge map along the lines of rectangles turned by
// an angle whose cosine and sine are ca and sa: the point (u, w) lies at
// u·(ca, sa) + w·(−sa, ca).
type turnedLines struct {
	e      edgeMap
	ca, sa float64
}

// count is countOnLine(alongU, pos, lo, hi, on) with on reading l.e at
// (pos, t) (alongU) or (t, pos): the points lo, lo+1, … up to hi.
func (l turnedLines) count(alongU bool, pos, lo, hi float64) int {
	n := 0
	// The products of pos, worked out once: the same as each point's.
	pc, ps := pos*l.ca, pos*l.sa
	e := l.e
	for t := lo; t <= hi; t++ {
		var x, y float64
		if alongU {
			x, y = pc-t*l.sa, ps+t*l.ca
		} else {
			x, y = t*l.ca-ps, t*l.sa+pc
		}
		// e.on(x, y), written out (the compiler will not inline it).
		ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
		if ix >= 0 && iy >= 0 && ix < e.w && iy < e.h && e.pix[iy*e.w+ix] != 0 {
			n++
		}
	}
	return n
}

// runningCounts sets sums[j+1] to sums[j] plus 1 when the point t0 + j
// of the line at pos (along u when alongU, else w) lies on an edge, for j
// below len(sums)−1.
func (l turnedLines) runningCounts(alongU bool, pos, t0 float64, sums []int32) {
	pc, ps := pos*l.ca, pos*l.sa
	e := l.e
	for j := 0; j+1 < len(sums); j++ {
		t := t0 + float64(j)
		var x, y float64
		if alongU {
			x, y = pc-t*l.sa, ps+t*l.ca
		} else {
			x, y = t*l.ca-ps, t*l.sa+pc
		}
		hit := int32(0)
		// e.on(x, y), written out.
		ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
		if ix >= 0 && iy >= 0 && ix < e.w && iy < e.h && e.pix[iy*e.w+ix] != 0 {
			hit = 1
		}
		sums[j+1] = sums[j] + hit
	}
}

// countOnLine counts the points of the line at pos (along u when alongU,
// else along w) from lo to hi, a pixel apart, that on finds on an edge.
func countOnLine(alongU bool, pos, lo, hi float64, on func(alongU bool, pos, t float64) bool) int {
	n := 0
	for t := lo; t <= hi; t++ {
		if on(alongU, pos, t) {
			n++
		}
	}
	return n
}

// lineKey is a line of the rectangles' sides: at pos along u (alongU) or
// w, of the rectangles turned by alpha.
//
// Its numbers are kept as their bits, which hash faster than floats: a
// zero of either sign (that a float key would take for one) only makes
// two entries of equal counts.
type lineKey struct {
	alpha, pos uint64 // math.Float64bits
	half       bool   // the points' t are whole numbers plus a half, else whole
	alongU     bool
}

// lineCounts are the running counts of a line's points on edges: sums[k]
// counts those at t = m0 + frac + j for j < k.
type lineCounts struct {
	m0   int
	sums []int32
}

// lineCount is countOnLine(alongU, pos, lo, hi, on), counted by the
// line's running counts, which it extends as far as needed; ok is false
// (and nothing counted) when the points' coordinates lo, lo+1, … would not
// be whole numbers plus a half, or whole (the sides' positions are the
// middles of a projection's bins: see sidePeaks): only for those does
// lo+k, which countOnLine reads, equal the running counts' m+frac exactly.
func (s sideSnapper) lineCount(alpha float64, l turnedLines, alongU bool, pos, lo, hi float64) (int, bool) {
	a := math.Floor(lo)
	frac := lo - a
	if (frac != 0 && frac != 0.5) || math.Abs(lo) > 1<<40 || math.Abs(hi) > 1<<40 || math.IsNaN(hi) {
		return 0, false
	}
	if !(hi >= lo) {
		return 0, true
	}
	// The points countOnLine reads: lo+k for k = 0, 1, … while lo+k <= hi
	// (lo+k exact; hi-lo perhaps rounded).
	k := math.Floor(hi - lo)
	for k > 0 && lo+k > hi {
		k--
	}
	for lo+k+1 <= hi {
		k++
	}
	first, last := int(a), int(a)+int(k) // the points' m, t = m + frac
	key := lineKey{math.Float64bits(alpha), math.Float64bits(pos), frac != 0, alongU}
	c := s.lines[key]
	if c == nil {
		c = &lineCounts{m0: first}
		s.lines[key] = c
	}
	if n := len(c.sums) - 1; n < 0 || first < c.m0 || last >= c.m0+n {
		// Extend the counts over first…last: the points before those
		// counted and after them read, those counted copied.
		m0, m1 := first, last+1
		if n < 0 {
			sums := make([]int32, m1-m0+1)
			l.runningCounts(alongU, pos, float64(m0)+frac, sums)
			c.m0, c.sums = m0, sums
		} else {
			m0, m1 = min(m0, c.m0), max(m1, c.m0+n)
			sums := make([]int32, m1-m0+1)
			before := c.m0 - m0
			l.runningCounts(alongU, pos, float64(m0)+frac, sums[:before+1])
			for j, v := range c.sums[1:] {
				sums[before+j+1] = sums[before] + v
			}
			after := before + n // the first point after those counted
			l.runningCounts(alongU, pos, float64(m0+after)+frac, sums[after:])
			c.m0, c.sums = m0, sums
		}
	}
	return int(c.sums[last-c.m0+1] - c.sums[first-c.m0]), true
}

// snapSide moves a side at pos, within stackSnapPx, to the outermost
// (outward: +1 or −1) line that holds at least 80% of the edge pixels of
// the fullest (count gives a line's).
func snapSide(alongU bool, pos, outward, lo, hi float64, count func(alongU bool, pos, lo, hi float64) int) float64 {
	var counts [2*stackSnapPx + 1]int
	best := 0
	for k := range counts {
		counts[k] = count(alongU, pos+float64(k-stackSnapPx), lo, hi)
		best = max(best, counts[k])
	}
	if best == 0 {
		return pos
	}
	for k := stackSnapPx; k >= -stackSnapPx; k-- { // outermost first
		if c := counts[int(outward)*k+stackSnapPx]; 10*c >= 8*best {
			return pos + outward*float64(k)
		}
	}
	return pos
}

// rectangleOf gives the rectangle between the lines u = u0, u = u1 along
// alpha and w = w0, w = w1 along alpha + π/2 (top-down pixels).
func rectangleOf(alpha, u0, u1, w0, w1 float64) models.Quad {
	ca, sa := math.Cos(alpha), math.Sin(alpha)
	at := func(u, w float64) models.Point { // u·(ca, sa) + w·(−sa, ca)
		return models.Point{X: u*ca - w*sa, Y: u*sa + w*ca}
	}
	return models.Quad{at(u0, w0), at(u1, w0), at(u1, w1), at(u0, w1)}
}

func quadsOfRects(rs []rectangle) []models.Quad {
	out := make([]models.Quad, len(rs))
	for i, r := range rs {
		out[i] = r.quad
	}
	return out
}

// edgeMap is a thickened edge map of a part of the top-down image.
type edgeMap struct {
	pix  []byte
	w, h int
	off  image.Point // of the part in the top-down image
}

// on reports whether the top-down pixel p lies on an edge (false outside
// the part).
func (e edgeMap) on(x, y float64) bool {
	ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
	if ix < 0 || iy < 0 || ix >= e.w || iy >= e.h {
		return false
	}
	return e.pix[iy*e.w+ix] != 0
}

// support gives the share of a quad's border lying on edges; ok is false
// when a side falls short of stackSideSupport or the whole of
// stackMeanSupport.
func (e edgeMap) support(q models.Quad) (float64, bool) {
	// threeSidesSupport(q, -1, e.on), with e.on written out (the compiler will not
	// inline it, nor a function passed).
	var total, hits int
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
		if n < 2 {
			return 0, false
		}
		h := 0
		for j := 0; j <= n; j++ {
			t := float64(j) / float64(n)
			x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
			ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
			if ix >= 0 && iy >= 0 && ix < e.w && iy < e.h && e.pix[iy*e.w+ix] != 0 {
				h++
			}
		}
		if float64(h) < stackSideSupport*float64(n+1) {
			return 0, false
		}
		total += n + 1
		hits += h
	}
	s := float64(hits) / float64(total)
	return s, s >= stackMeanSupport
}

// onNear reports whether an edge lies on the top-down pixel p or one of
// its eight neighbours: on as the edge map dilated by a 3×3 square.
func (e edgeMap) onNear(x, y float64) bool {
	ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
	if ix < 1 || iy < 1 || ix >= e.w-1 || iy >= e.h-1 {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if jx, jy := ix+dx, iy+dy; jx >= 0 && jy >= 0 && jx < e.w && jy < e.h && e.pix[jy*e.w+jx] != 0 {
					return true
				}
			}
		}
		return false
	}
	i := iy*e.w + ix
	p := e.pix
	return p[i-e.w-1]|p[i-e.w]|p[i-e.w+1]|p[i-1]|p[i]|p[i+1]|p[i+e.w-1]|p[i+e.w]|p[i+e.w+1] != 0
}

// sideSupport gives, of the n points about 2 px apart from a to b (both
// ends in), how many lie on edges as on tells (h); n < 3 for a side
// shorter than 4 px.
func sideSupport(a, b models.Point, on func(x, y float64) bool) (h, n int) {
	steps := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
	if steps < 2 {
		return 0, steps + 1
	}
	for j := 0; j <= steps; j++ {
		t := float64(j) / float64(steps)
		if on(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)) {
			h++
		}
	}
	return h, steps + 1
}

// card turns a rectangle into the card it shows: a landscape one is a
// site or a tapped unit by what it lies on (see landscapeCard).
func (r rectangle) card(found []placed) stackedCard {
	q := clockwiseFromTopLeft(r.quad)
	sc := stackedCard{quad: q, kind: r.shape.kind}
	if landscape(q) {
		sc.tapped, sc.kind = landscapeCard(q, r.shape.kind, quadsOfPlaced(found))
	}
	return sc
}

// overlapsFromAbove reports whether q, whose whole border shows, overlaps
// o without holding it whole: q then lies on o, not o on q.
func overlapsFromAbove(q, o models.Quad) bool {
	in := 0
	for _, p := range o {
		if inside(p, q) {
			in++
		}
	}
	if in == 4 {
		return false // o lies within q: on it, or a token on a site
	}
	if in > 0 || inside(o.Center(), q) {
		return true
	}
	for _, p := range q {
		if inside(p, o) {
			return true
		}
	}
	return false
}

// clockwiseFromTopLeft orders a rectangle's corners clockwise (image y
// down) from the one nearest the image's top-left corner.
func clockwiseFromTopLeft(q models.Quad) models.Quad {
	c := q.Center()
	pts := q
	sort.Slice(pts[:], func(i, j int) bool {
		return math.Atan2(pts[i].Y-c.Y, pts[i].X-c.X) < math.Atan2(pts[j].Y-c.Y, pts[j].X-c.X)
	})
	start := 0
	for i, p := range pts {
		if p.X+p.Y < pts[start].X+pts[start].Y {
			start = i
		}
	}
	var out models.Quad
	for i := range out {
		out[i] = pts[(start+i)%4]
	}
	return out
}

// unknown gives the card as an unidentified one.
func (s stackedCard) unknown() unknownCard {
	return unknownCard{quad: s.quad, kind: s.kind, tapped: s.tapped}
}

// value gives the grey level at the top-down pixel (x, y), ok false
// outside the part.
func (e edgeMap) value(x, y float64) (byte, bool) {
	ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
	if ix < 0 || iy < 0 || ix >= e.w || iy >= e.h {
		return 0, false
	}
	return e.pix[iy*e.w+ix], true
}

// plainBorder reports whether, a little inside the sides of the quad, the
// grey image is one plain band (a card's printed border, black or white):
// stackBorderPlain of the samples along a side within stackBorderLevels of
// the side's median, on three sides at least. A card's title, printed
// along its top, may leave that one side busy; a rectangle that edges of
// several cards happen to make crosses their faces on more.
func (e edgeMap) plainBorder(q models.Quad, inset float64) bool {
	c := q.Center()
	var in models.Quad
	for i, p := range q { // each corner moved inset along both sides towards the centre
		dx, dy := c.X-p.X, c.Y-p.Y
		n := math.Hypot(dx, dy)
		in[i] = models.Point{X: p.X + dx/n*inset*math.Sqrt2, Y: p.Y + dy/n*inset*math.Sqrt2}
	}
	busy := 0 // sides that are not one plain band
	var vals []int
	for i := range in {
		a, b := in[i], in[(i+1)%4]
		n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
		vals = vals[:0]
		for j := 1; j < n; j++ { // corners left out: the other side's band
			t := float64(j) / float64(n)
			if g, ok := e.value(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)); ok {
				vals = append(vals, int(g))
			}
		}
		if len(vals) < n/2 {
			return false
		}
		// The median, sorted[len/2] of the levels sorted, by counting
		// them (bytes).
		var seen [256]int32
		for _, g := range vals {
			seen[g]++
		}
		med, below := 0, 0
		for g, k := range seen {
			if below += int(k); below > len(vals)/2 {
				med = g
				break
			}
		}
		near := 0
		for _, g := range vals {
			if g-med <= stackBorderLevels && med-g <= stackBorderLevels {
				near++
			}
		}
		if float64(near) < stackBorderPlain*float64(len(vals)) {
			busy++
		}
	}
	return busy <= 1
}
