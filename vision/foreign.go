package vision

import (
	"encoding/binary"
	"image"
	"math"
	"slices"

	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// Foreign objects: a phone, a cup, a dice bag, a sheet of paper, a sleeved
// arm lying over the realm are not skin and not cards. They are found by
// colour: the mat's art spreads its colours over the realm, while an object
// lies in one place. A pixel off the cards found whose colour (to within a
// colour bin either way) shows nowhere on the visible mat farther than one
// cell from the pixel's own cell is foreign; a large contiguous region of
// such pixels that is not card-shaped is something lying on the mat.
const (
	foreignShare  = 0.03 // of the realm
	foreignMinPx  = 5    // pixels of a colour in a cell for it to show there
	foreignGrowMM = 2.0  // around the cards found: their blurred edges and shadows
)

// foreignBin is a pixel's colour bin: Y, Cr and Cb in 16, 32 and 32 levels.
func foreignBin(y, cr, cb uint8) int { return int(y>>4)<<10 | int(cr>>3)<<5 | int(cb>>3) }

const foreignBins = 16 * 32 * 32

// foreignCovers reports whether a large foreign object lies over the realm
// in small, the BGR top-down image at f times the view's scale whose pixel
// (0, 0) is the view's pixel origin (ycc: the same image in YCrCb);
// onCards marks the cards found.
func foreignCovers(small, ycc, onCards gocv.Mat, v *view, origin image.Point, f float64) bool {
	covers, _ := foreignCoversBounded(small, ycc, onCards, v, origin, f, true)
	return covers
}

// foreignCoversBounded is foreignCovers; with bound set, a frame with too
// few unexplained pixels for any region to be large is cleared before the
// card-shaped pieces and the regions are looked for (two openings and two
// labellings in OpenCV; most frames have a few dozen such pixels, an
// object over a thousand). bounded tells whether that decided.
func foreignCoversBounded(small, ycc, onCards gocv.Mat, v *view, origin image.Point, f float64, bound bool) (covers, bounded bool) {
	on, err := onCards.DataPtrUint8()
	if err != nil || len(on) != small.Rows()*small.Cols() || small.Channels() != 3 {
		return false, false
	}
	cols, rows := small.Cols(), small.Rows()
	s := v.pxPerMM * f
	ox, oy := float64(origin.X)*f, float64(origin.Y)*f
	// The realm in small's pixels.
	rx0 := max(0, int(math.Round(v.marginMM*s-ox)))
	ry0 := max(0, int(math.Round(v.marginMM*s-oy)))
	rx1 := min(cols, int(math.Round((v.marginMM+v.geo.WidthMM())*s-ox)))
	ry1 := min(rows, int(math.Round((v.marginMM+v.geo.HeightMM())*s-oy)))
	if rx1-rx0 < 2*models.Columns || ry1-ry0 < 2*models.Rows {
		return false, false
	}
	w, h := rx1-rx0, ry1-ry0
	data, err := ycc.DataPtrUint8()
	if err != nil || len(data) != 3*len(on) {
		return false, false
	}
	// Cards grown by a couple of millimetres (their blurred edges and
	// shadows), the grid lines, and what the camera does not show explain
	// themselves.
	grow := max(1, int(math.Round(foreignGrowMM*s)))
	mat := make([]bool, w*h)
	inFrame := inFrameTest(v, origin, f)
	lineCols := gridLineBand(cols, models.Columns, v.geo.CellWidthMM, v.marginMM, s, ox)
	lineRows := gridLineBand(rows, models.Rows, v.geo.CellHeightMM, v.marginMM, s, oy)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			mat[y*w+x] = !lineRows[ry0+y] && !lineCols[rx0+x]
		}
	}
	for _, c := range [4][2]int{{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}} {
		if !inFrame(float64(rx0+c[0]), float64(ry0+c[1])) {
			for p := range mat {
				mat[p] = mat[p] && inFrame(float64(rx0+p%w), float64(ry0+p/w))
			}
			break
		}
	}
	roi := onCards.Region(image.Rect(rx0, ry0, rx1, ry1))
	grown := gocv.NewMat()
	defer grown.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*grow+1, 2*grow+1))
	gocv.Dilate(roi, &grown, kernel)
	kernel.Close()
	roi.Close()
	byCard, err := grown.DataPtrUint8()
	if err != nil || len(byCard) != w*h {
		return false, false
	}
	for p, c := range byCard {
		if c != 0 {
			mat[p] = false
		}
	}
	// Each pixel's bin, and per colour bin the cells where it shows: the
	// cells are counted one at a time, in one reused table.
	bins := make([]int16, w*h)
	for p := range bins {
		bins[p] = -1
	}
	var shows [foreignBins]uint32
	var count [foreignBins]uint16
	for c := 0; c < models.Rows*models.Columns; c++ {
		cx0, cx1 := c%models.Columns*w/models.Columns, (c%models.Columns+1)*w/models.Columns
		cy0, cy1 := c/models.Columns*h/models.Rows, (c/models.Columns+1)*h/models.Rows
		for y := cy0; y < cy1; y++ {
			for x := cx0; x < cx1; x++ {
				p := y*w + x
				if !mat[p] {
					continue
				}
				q := 3 * ((ry0+y)*cols + rx0 + x)
				b := foreignBin(data[q], data[q+1], data[q+2])
				bins[p] = int16(b)
				if count[b]++; count[b] == foreignMinPx {
					shows[b] |= 1 << c
				}
			}
		}
		for y := cy0; y < cy1; y++ {
			for x := cx0; x < cx1; x++ {
				if b := bins[y*w+x]; b >= 0 {
					count[b] = 0
				}
			}
		}
	}
	colCell, rowCell := make([]int, w), make([]int, h)
	for x := range colCell {
		colCell[x] = min(models.Columns-1, x*models.Columns/w)
	}
	for y := range rowCell {
		rowCell[y] = min(models.Rows-1, y*models.Rows/h) * models.Columns
	}
	// near[c] is the cells within one of cell c.
	var near [models.Rows * models.Columns]uint32
	for c := range near {
		cx, cy := c%models.Columns, c/models.Columns
		for d := range near {
			dx, dy := d%models.Columns-cx, d/models.Columns-cy
			if dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 {
				near[c] |= 1 << d
			}
		}
	}
	// Each bin with its neighbours, worked out when first wanted.
	var smooth [foreignBins]uint32
	var done [foreignBins]bool
	spread := func(b int) uint32 {
		if done[b] {
			return smooth[b]
		}
		y, cr, cb := b>>10, (b>>5)&31, b&31
		var m uint32
		for yy := max(0, y-1); yy <= min(15, y+1); yy++ {
			for rr := max(0, cr-1); rr <= min(31, cr+1); rr++ {
				for bb := max(0, cb-1); bb <= min(31, cb+1); bb++ {
					m |= shows[yy<<10|rr<<5|bb]
				}
			}
		}
		smooth[b], done[b] = m, true
		return m
	}
	odd := make([]bool, w*h)
	for y := 0; y < h; y++ {
		row := bins[y*w : (y+1)*w]
		for x, b := range row {
			if b >= 0 {
				odd[y*w+x] = spread(int(b))&^near[rowCell[y]+colCell[x]] == 0
			}
		}
	}
	lineRows, lineCols = lineRows[ry0:ry1], lineCols[rx0:rx1]
	// Dropping pieces only clears pixels, and the joins across the lines
	// set no more when fewer are set: the unexplained pixels joined as
	// they are bound the region's area from above.
	if bound {
		up := slices.Clone(odd)
		joinAcrossLines(up, w, h, lineRows, lineCols)
		n := 0
		for _, o := range up {
			if o {
				n++
			}
		}
		if n < foreignMinArea(w, h) {
			return false, true
		}
	}
	// The cards' main colours (their frames and text boxes): the bins
	// holding foreignCardMain of the pixels on the cards found, and their
	// neighbours. Only the regions read them: a frame the bound cleared
	// needs none.
	cardCount := make([]int32, foreignBins)
	cardTotal := int32(0)
	for y := 0; y < h; y++ {
		row := on[(ry0+y)*cols+rx0 : (ry0+y)*cols+rx1]
		for x, o := range row {
			if o != 0 {
				q := 3 * ((ry0+y)*cols + rx0 + x)
				cardCount[foreignBin(data[q], data[q+1], data[q+2])]++
				cardTotal++
			}
		}
	}
	cardMain := make([]bool, foreignBins)
	for b, n := range cardCount {
		if cardTotal > 0 && float64(n) >= foreignCardMain*float64(cardTotal) {
			y, cr, cb := b>>10, (b>>5)&31, b&31
			for yy := max(0, y-1); yy <= min(15, y+1); yy++ {
				for rr := max(0, cr-1); rr <= min(31, cr+1); rr++ {
					for bb := max(0, cb-1); bb <= min(31, cb+1); bb++ {
						cardMain[yy<<10|rr<<5|bb] = true
					}
				}
			}
		}
	}
	// A card not found, cut off by grid lines, is one card-shaped piece:
	// it goes before pieces are joined across the lines (two such cards
	// side by side would make one region of no card's shape).
	dropCardShaped(odd, w, h, s)
	joinAcrossLines(odd, w, h, lineRows, lineCols)
	return foreignRegion(odd, mat, w, h, s, func(p int) []byte {
		q := 3 * ((ry0+p/w)*cols + rx0 + p%w)
		return data[q : q+3]
	}, func(p int) bool { return bins[p] >= 0 && cardMain[bins[p]] }), false
}

// joinAcrossLines sets in odd (w×h) the pixels of the grid lines' bands
// (lineRows, lineCols: the rows and columns within a line) that lie
// between two set pixels across the band: an object over a grid line is
// cut in two there.
func joinAcrossLines(odd []bool, w, h int, lineRows, lineCols []bool) {
	for _, band := range bandSpans(lineRows) {
		if band[0] > 0 && band[1] < h-1 {
			for x := 0; x < w; x++ {
				if odd[(band[0]-1)*w+x] && odd[(band[1]+1)*w+x] {
					for y := band[0]; y <= band[1]; y++ {
						odd[y*w+x] = true
					}
				}
			}
		}
	}
	for _, band := range bandSpans(lineCols) {
		if band[0] > 0 && band[1] < w-1 {
			for y := 0; y < h; y++ {
				if odd[y*w+band[0]-1] && odd[y*w+band[1]+1] {
					for x := band[0]; x <= band[1]; x++ {
						odd[y*w+x] = true
					}
				}
			}
		}
	}
}

// foreignMinArea is the least area, in pixels, of a foreign region over a
// realm of w×h pixels.
func foreignMinArea(w, h int) int { return int(foreignShare * float64(w*h)) }

// An object's outline is a step: its colour changes at once (across
// foreignStepPx pixels) to the mat's, by foreignStep on average (|ΔY| +
// |ΔCr| + |ΔCb|). A lamp's glare or a shadow fades into the mat over
// centimetres.
const (
	foreignStepPx = 3
	foreignStep   = 40
	// A region that fits in a card's box, grown by this factor, may be a
	// card not found (half hidden, or cut by the lines), whatever its
	// shape: it raises no alarm.
	foreignCardBox = 1.15
	// A card-shaped piece (before pieces cut by the grid lines are joined)
	// fills foreignFill of its box (a card partly under another fills less
	// than all of it), and its long side is at least foreignCardMin of a
	// card's (a quarter of a round object cut by two lines is shorter).
	foreignFill    = 0.65
	foreignCardMin = 0.85
	// Cards not found show the main colours of the cards found (their
	// frames and text boxes: a colour bin holding foreignCardMain of the
	// cards' pixels); a region foreignCarded of whose pixels have them is
	// most likely cards. An object of those colours is missed.
	foreignCardMain = 0.02
	foreignCarded   = 0.15
)

// foreignRegion reports whether the unexplained pixels odd (w×h, over the
// realm at s pixels a millimetre; mat marks the mat pixels seen, colour
// gives a pixel's Y, Cr, Cb) hold a large region with a sharp outline that
// is not card-shaped.
func foreignRegion(odd, mat []bool, w, h int, s float64, colour func(p int) []byte, cardColour func(p int) bool) bool {
	m, _, ok := openedMask(odd, w, h)
	if !ok {
		return false
	}
	defer m.Close()
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(m, &labels, &stats, &centroids)
	minArea := foreignMinArea(w, h)
	var big []int
	for i := 1; i < n; i++ {
		if int(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) >= minArea {
			big = append(big, i)
		}
	}
	if len(big) == 0 {
		return false
	}
	lb, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(lb) < 4*w*h {
		return false
	}
	label := func(p int) int { return int(binary.NativeEndian.Uint32(lb[4*p:])) }
	for _, i := range big {
		x0, y0 := int(stats.GetIntAt(i, int(gocv.CC_STAT_LEFT))), int(stats.GetIntAt(i, int(gocv.CC_STAT_TOP)))
		x1, y1 := x0+int(stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH))), y0+int(stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT)))
		// The step across the outline, and the region's moments.
		var step, steps int
		var ps []int
		carded := 0
		across := func(p, q int) {
			if label(p) == i && label(q) != i && mat[q] && !odd[q] {
				a, c := colour(p), colour(q)
				for k := range 3 {
					step += abs(int(a[k]) - int(c[k]))
				}
				steps++
			}
		}
		for y := max(0, y0-foreignStepPx); y < min(h, y1+foreignStepPx); y++ {
			for x := max(0, x0-foreignStepPx); x < min(w, x1+foreignStepPx); x++ {
				p := y*w + x
				if x+foreignStepPx < w {
					across(p, p+foreignStepPx)
					across(p+foreignStepPx, p)
				}
				if y+foreignStepPx < h {
					across(p, p+foreignStepPx*w)
					across(p+foreignStepPx*w, p)
				}
				if label(p) == i {
					ps = append(ps, p)
					if cardColour(p) {
						carded++
					}
				}
			}
		}
		area := len(ps)
		if steps == 0 || step < foreignStep*steps {
			continue
		}
		if cardShaped(ps, w, s, 0) {
			continue
		}
		if float64(carded) >= foreignCarded*float64(area) {
			continue
		}
		return true
	}
	return false
}

// openedMask makes a w×h mask of the pixels odd marks (255; b is its
// data), opened by a 3×3 square so that thin strips and specks go (caller
// closes m; ok is false when OpenCV gives no data).
func openedMask(odd []bool, w, h int) (m gocv.Mat, b []byte, ok bool) {
	m = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	b, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return m, nil, false
	}
	for p, o := range odd {
		if o {
			b[p] = 255
		}
	}
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	gocv.MorphologyEx(m, &m, gocv.MorphOpen, kernel)
	return m, b, true
}

// dropCardShaped clears the card-shaped regions of odd (w×h, at s pixels a
// millimetre).
func dropCardShaped(odd []bool, w, h int, s float64) {
	// Thin strips (a card's blurred edge) go first: they would join a card
	// to what lies beside it.
	m, b, ok := openedMask(odd, w, h)
	if !ok {
		return
	}
	defer m.Close()
	for p := range odd {
		odd[p] = b[p] != 0
	}
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(m, &labels, &stats, &centroids)
	lb, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(lb) < 4*w*h {
		return
	}
	// The pixels of each region big enough to be most of a token.
	minArea := int(0.5 * models.TokenShortMM * models.TokenLongMM * s * s)
	pix := make([][]int, n)
	any := false
	for i := 1; i < n; i++ {
		if int(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) >= minArea {
			pix[i], any = []int{}, true
		}
	}
	if !any {
		return
	}
	for p := range odd {
		if odd[p] {
			if i := int(binary.NativeEndian.Uint32(lb[4*p:])); pix[i] != nil {
				pix[i] = append(pix[i], p)
			}
		}
	}
	drop := make([]bool, n)
	for i := 1; i < n; i++ {
		drop[i] = pix[i] != nil && cardShaped(pix[i], w, s, foreignFill)
	}
	for p := range odd {
		if odd[p] && drop[binary.NativeEndian.Uint32(lb[4*p:])] {
			odd[p] = false
		}
	}
}

// cardShaped reports whether a region (its pixel indices in an image w
// pixels wide) fits, along its main axes, in a card's box at s pixels a
// millimetre (see foreignCardBox). With fill set, it must also fill that
// share of its own box and be about a card's length or more: a card's
// shape, not only its size.
func cardShaped(ps []int, w int, s, fill float64) bool {
	n, d0, d1 := orientedBox(ps, w)
	if n == 0 {
		return false
	}
	long, short := math.Max(d0, d1)/s, math.Min(d0, d1)/s
	if fill > 0 && (n < fill*d0*d1 || long < foreignCardMin*models.CardLongMM) {
		return false
	}
	return short <= foreignCardBox*models.CardShortMM && long <= foreignCardBox*models.CardLongMM
}

// orientedBox gives the number of pixels ps (indices into an image w
// pixels wide) and the sides of their box along their principal axes, in
// pixels.
func orientedBox(ps []int, w int) (n, d0, d1 float64) {
	n = float64(len(ps))
	if n == 0 {
		return 0, 0, 0
	}
	var sx, sy, sxx, syy, sxy float64
	for _, p := range ps {
		x, y := float64(p%w), float64(p/w)
		sx, sy, sxx, syy, sxy = sx+x, sy+y, sxx+x*x, syy+y*y, sxy+x*y
	}
	mx, my := sx/n, sy/n
	cxx, cyy, cxy := sxx/n-mx*mx, syy/n-my*my, sxy/n-mx*my
	a := 0.5 * math.Atan2(2*cxy, cxx-cyy)
	ux, uy := math.Cos(a), math.Sin(a)
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range ps {
		x, y := float64(p%w)-mx, float64(p/w)-my
		for k, v := range [2]float64{x*ux + y*uy, -x*uy + y*ux} {
			lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
		}
	}
	return n, hi[0] - lo[0] + 1, hi[1] - lo[1] + 1
}

// inFrameTest tells whether a pixel of the image at f times the view's
// scale (pixel (0, 0) at the view's origin) shows part of the camera frame.
func inFrameTest(v *view, origin image.Point, f float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		return inCameraImage(v, v.toImage.Apply(models.Point{X: x/f + float64(origin.X), Y: y/f + float64(origin.Y)}))
	}
}
