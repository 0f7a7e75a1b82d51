package vision

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"math/bits"

	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// Occlusion: skin-coloured pixels in YCrCb, over the realm and a thin band
// around it, grouped into blobs. A blob covering more than handShare of the
// realm that reaches the band's outer edge is a hand or an arm reaching in
// over the realm. Looking no farther than the band keeps a wooden table
// (skin-coloured in YCrCb) out; the size keeps skin-toned card art out.
const (
	handShare = 0.02
	handBand  = 12.0 // mm around the realm
)

var (
	skinLow  = gocv.NewScalar(30, 136, 77, 0)
	skinHigh = gocv.NewScalar(255, 175, 127, 0)
)

// handCovers reports whether a hand or arm reaches over the realm in the
// top-down BGR image.
func handCovers(top gocv.Mat, v *view, cards []models.CardObservation) bool {
	return handCoversShrunk(top, v, cards, lightCast{}, nil)
}

// handCoversShrunk is handCovers in a frame of colour cast cast (see
// readCast), with the hand tests' shrunk image kept in (or taken from)
// shrunk when it is not nil (see readHandImageFrom).
func handCoversShrunk(top gocv.Mat, v *view, cards []models.CardObservation, cast lightCast, shrunk *handShrunk) bool {
	return handCoversWith(top, v, cards, foreignCovers, cast, shrunk)
}

// foreignTest is a test for foreign objects in handCovers' small image (see
// foreignCovers).
type foreignTest func(small, ycc, onCards gocv.Mat, v *view, origin image.Point, f float64) bool

// handCoversWith is handCoversShrunk with the foreign-object test foreign,
// run when no skin is seen.
func handCoversWith(top gocv.Mat, v *view, cards []models.CardObservation, foreign foreignTest, cast lightCast, shrunk *handShrunk) bool {
	quads := make([]models.Quad, len(cards))
	for i, c := range cards {
		for j, p := range c.Quad {
			quads[i][j] = v.fromImg.Apply(p)
		}
	}
	h, ok := readHandImageFrom(top, v, quads, cast, shrunk)
	if !ok {
		return false
	}
	defer h.close()
	return skinCovers(h.small, h.ycc, h.onCards, h.cards, v, h.area.Min, h.f) || foreign(h.small, h.ycc, h.onCards, v, h.area.Min, h.f)
}

// handImage is what the hand tests read: the top-down BGR image over the
// realm and a band around it (area, in the view's pixels) at 0.5 px/mm (f
// times the view's scale), white-balanced on the mat, in YCrCb too, and the
// cards found marked in onCards (when cards is set).
type handImage struct {
	small, ycc, onCards gocv.Mat
	area                image.Rectangle
	f                   float64
	cards               bool
}

func (h *handImage) close() {
	h.small.Close()
	h.ycc.Close()
	h.onCards.Close()
}

// handShrunk is the hand tests' image shrunk to 0.5 px/mm before anything
// is marked on it or balanced, kept for the frame: a frame's hand tests
// (the covered-site search's arm, and the hand test of the stable cards and
// of the cards read) all shrink the same top-down image, and differ only in
// the cards they mark. ok is false until it is made; whoever gives the
// hand tests another top-down image clears it.
type handShrunk struct {
	small gocv.Mat
	area  image.Rectangle
	ok    bool
}

func newHandShrunk() handShrunk { return handShrunk{small: gocv.NewMat()} }

func (h *handShrunk) close() { h.small.Close() }

// readHandImage reads the hand tests' image off the view's top-down BGR
// image, with the cards found at quads (the view's pixels).
func readHandImage(top gocv.Mat, v *view, quads []models.Quad) (handImage, bool) {
	return readHandImageFrom(top, v, quads, lightCast{}, nil)
}

// readHandImageFrom is readHandImage in a frame of colour cast cast
// (taken out of the image first, see readCast), shrinking top only once:
// when shrunk is not nil, top shrunk is taken from it when it holds it
// (ok), or else kept there (see handShrunk).
func readHandImageFrom(top gocv.Mat, v *view, quads []models.Quad, cast lightCast, shrunk *handShrunk) (handImage, bool) {
	if top.Channels() != 3 {
		return handImage{}, false
	}
	s := v.pxPerMM
	m := v.marginMM - handBand
	if m < 0 {
		m = 0
	}
	area := image.Rect(int(m*s), int(m*s), int((v.marginMM+v.geo.WidthMM()+handBand)*s), int((v.marginMM+v.geo.HeightMM()+handBand)*s)).
		Intersect(image.Rect(0, 0, top.Cols(), top.Rows()))
	// A hand is big: 0.5 px/mm finds it as well, faster.
	f := 0.5 / s
	size := image.Pt(int(float64(area.Dx())*f), int(float64(area.Dy())*f))
	var small gocv.Mat
	if shrunk != nil && shrunk.ok && shrunk.area == area && shrunk.small.Cols() == size.X && shrunk.small.Rows() == size.Y {
		small = shrunk.small.Clone()
	} else {
		roi := top.Region(area)
		small = gocv.NewMat()
		gocv.Resize(roi, &small, size, 0, 0, gocv.InterpolationArea)
		roi.Close()
		if shrunk != nil {
			small.CopyTo(&shrunk.small)
			shrunk.area, shrunk.ok = area, true
		}
	}
	// Every card found, named or not, in the small image's pixels.
	var polys [][]image.Point
	for _, q := range quads {
		var poly []image.Point
		for _, r := range q {
			poly = append(poly, image.Pt(int((r.X-float64(area.Min.X))*f), int((r.Y-float64(area.Min.Y))*f)))
		}
		polys = append(polys, poly)
	}
	onCards := gocv.NewMatWithSize(small.Rows(), small.Cols(), gocv.MatTypeCV8U)
	if len(polys) > 0 {
		fillEach(&onCards, polys, color.RGBA{255, 255, 255, 255})
		paper, ok := paperShares(small, onCards)
		if ok && cast.seenOnPaper(paper) {
			cast.remove(small)
			paper, ok = paperShares(small, onCards) // the paper as the image now shows it
		}
		if ok {
			balanceWhite(small, paper)
		}
	}
	// Both tests read the small image in YCrCb: converted once.
	ycc := gocv.NewMat()
	gocv.CvtColor(small, &ycc, gocv.ColorBGRToYCrCb)
	return handImage{small: small, ycc: ycc, onCards: onCards, area: area, f: f, cards: len(polys) > 0}, true
}

// skinCovers reports whether a hand or arm shows skin over the realm in
// small, the top-down BGR image at f times the view's scale whose pixel
// (0, 0) is the view's pixel origin (ycc: the same image in YCrCb);
// onCards marks the cards found (when cards is set). None is changed.
func skinCovers(small, ycc, onCards gocv.Mat, cards bool, v *view, origin image.Point, f float64) bool {
	skin, minArea, ok := skinMask(small, ycc, onCards, cards, v)
	defer skin.Close()
	if !ok {
		return false
	}
	clearPrintedOver(skin, ycc, onCards, cards, v, origin, f)
	return maskCovers(skin, small, onCards, cards, v, origin, f, minArea)
}

// maskCovers is skinCovers on skin, skinMask's mask of small (with its
// minArea). It may clear skin's pixels on the cards (when cards is set):
// it changes nothing else.
func maskCovers(skin, small, onCards gocv.Mat, cards bool, v *view, origin image.Point, f float64, minArea int) bool {
	// An arm lying across cards is cut by them into pieces, and the piece
	// off the cards that holds most of it may not reach the edge: it
	// reaches the edge through the cards (see reachesThroughCards).
	if cards && reachesThroughCards(skin, small, onCards, v, origin, f, minArea) {
		return true
	}
	// Skin-toned art on a card is not a hand: a hand over a card hides its
	// outline. Every card found counts, named or not (an unknown card with
	// skin-toned art crossing the realm's edge would otherwise pass for an
	// arm).
	if cards {
		offCards := gocv.NewMat()
		defer offCards.Close()
		gocv.BitwiseNot(onCards, &offCards)
		gocv.BitwiseAnd(skin, offCards, &skin)
	}
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(skin, &labels, &stats, &centroids)
	w, h := int32(skin.Cols()), int32(skin.Rows())
	// Each blob's area off the grid lines, counted when needed, and the
	// share of the image off them (a hand over lines loses that part).
	var offGrid []int
	var offShare float64
	// blobStepped is outlineStepped for blob i, the labels' bytes read
	// once (a blob that cannot be read counts as stepped, as in
	// outlineStepped).
	blobStepped := func(i int) bool {
		label, err := labels.DataPtrUint8()
		if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*labels.Rows()*labels.Cols() {
			return true
		}
		return outlineStepped(small, onCards, cards, func(p int) bool { return int(binary.NativeEndian.Uint32(label[4*p:])) == i })
	}
	cardPx := models.CardShortMM * models.CardLongMM * v.pxPerMM * f * v.pxPerMM * f
	for i := 1; i < n; i++ {
		if int(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) < minArea {
			continue
		}
		x0, y0 := stats.GetIntAt(i, int(gocv.CC_STAT_LEFT)), stats.GetIntAt(i, int(gocv.CC_STAT_TOP))
		x1, y1 := x0+stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH)), y0+stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT))
		inside := x0 > 1 && y0 > 1 && x1 < w-1 && y1 < h-1
		if inside && int(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) < int(handLoneCards*cardPx) {
			continue
		}
		if offGrid == nil {
			offGrid, offShare = areaOffGrid(labels, n, v, origin, f)
		}
		if !inside && float64(offGrid[i]) >= offShare*float64(minArea) && blobStepped(i) {
			return true
		}
		if inside && float64(offGrid[i]) >= offShare*handLoneCards*cardPx {
			ps := blobPixels(labels, i, x0, y0, x1, y1)
			if len(ps) > 0 && float64(blobHoles(labels, i, x0, y0, x1, y1)) <= handLoneHoles*float64(len(ps)) && !cardShaped(ps, int(w), v.pxPerMM*f, 0) {
				return true
			}
		}
	}
	return false
}

// skinMask marks the skin pixels of small (see skinCovers) that are not
// the mat's colour, opened (caller closes skin). minArea is the least area
// of a hand in its pixels; ok is false, and skin may be left unfinished,
// when fewer than that lie off the cards.
func skinMask(small, ycc, onCards gocv.Mat, cards bool, v *view) (skin gocv.Mat, minArea int, ok bool) {
	return skinMaskFrom(skinColoured(small, ycc), small, ycc, onCards, cards, v)
}

// skinColoured marks the pixels of small (ycc: the same image in YCrCb)
// that have skin's colour, skinMask's first step (caller closes).
func skinColoured(small, ycc gocv.Mat) gocv.Mat {
	skin := gocv.NewMat()
	gocv.InRangeWithScalar(ycc, skinLow, skinHigh, &skin)
	addDarkSkin(small, skin)
	return skin
}

// skinMaskFrom is skinMask from its first step's mask, skin (skinColoured's
// of small), which it finishes in place and returns.
func skinMaskFrom(skin, small, ycc, onCards gocv.Mat, cards bool, v *view) (gocv.Mat, int, bool) {
	realmPx := v.geo.WidthMM() * v.geo.HeightMM() * 0.25
	minArea := int(handShare * realmPx)
	// Every step from here on only clears skin pixels (the mat's colour,
	// the opening, the cards): with fewer off the cards now than the least
	// any hand shows off them (a third of minArea, a hand over the cards at
	// the realm's edge: see reachesThroughCards), no blob can be a hand.
	if 3*skinOff(skin, onCards, cards) < minArea {
		return skin, minArea, false
	}
	// A mat may itself be skin-toned (brown, mauve, wood): its own colour,
	// the most common one over the realm, is not a hand. A pixel is the
	// mat's colour when both its chroma (Cr, Cb) and its chromaticity (the
	// shares of red and blue in its light) are the mat's. Chroma grows with
	// brightness, chromaticity does not: a dark hand of the mat's hue has
	// the chroma of the mat's darker shades but not its chromaticity, and a
	// pale arm of the mat's hue its chromaticity but not its chroma. Either
	// test alone took such a hand for mat.
	// The mat's colour is read off the cards, where the mat shows: on a
	// crowded realm the cards cover most of the view.
	var cardMask []byte
	if cards {
		cardMask, _ = onCards.DataPtrUint8()
	}
	if cr, cb, ok := dominantChroma(ycc, cardMask); ok {
		onMat := gocv.NewMat()
		defer onMat.Close()
		gocv.InRangeWithScalar(ycc, gocv.NewScalar(0, cr-matChroma, cb-matChroma, 0), gocv.NewScalar(255, cr+matChroma, cb+matChroma, 0), &onMat)
		shares := newLightShares()
		if r, b, ok := dominantChromaticity(small, shares, cardMask); ok {
			keepOffChromaticity(small, skin, &onMat, shares, r, b)
		}
		addLitMat(small, skin, &onMat)
		gocv.BitwiseNot(onMat, &onMat)
		gocv.BitwiseAnd(skin, onMat, &skin)
	}
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(3, 3))
	defer kernel.Close()
	gocv.MorphologyEx(skin, &skin, gocv.MorphOpen, kernel)
	return skin, minArea, true
}

// A skin blob that does not reach the realm's edge (a hand whose wrist is
// in a sleeve, a hand lying on the mat) is a hand when it is larger than
// handLoneCards cards off the cards found, not card-shaped, and whole:
// skin is one smooth surface, while cards not found (card stock is nearly
// skin-toned), two overlapping so that they are not card-shaped, have
// their printed frames and text punch holes in the blob (more than
// handLoneHoles of its area enclosed and not skin).
const (
	handLoneCards = 1.2
	handLoneHoles = 0.01
)

// blobPixels lists the pixels (indices into the label image) of label i
// within its bounding box [x0, x1)×[y0, y1).
func blobPixels(labels gocv.Mat, i int, x0, y0, x1, y1 int32) []int {
	label, err := labels.DataPtrUint8()
	cols := labels.Cols()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*labels.Rows()*cols {
		return nil
	}
	var ps []int
	for y := int(y0); y < int(y1); y++ {
		for x := int(x0); x < int(x1); x++ {
			p := y*cols + x
			if int(binary.NativeEndian.Uint32(label[4*p:])) == i {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// reachesThroughCards reports whether a skin blob (skin, the mask with the
// mat's colour cleared) reaches the edge of the image, across the cards
// (onCards) as well as off them, and holds minArea pixels off the cards: an
// arm reaching over cards to the middle of the realm. The realm's grid
// lines are cleared first: skin-toned under a warm light, they would join
// every blob to the edge. origin and f place the mask in the view (see
// areaOffGrid). Skin-toned art stays within its card, and counts for
// nothing off it. A hand over the cards at the realm's edge shows little
// skin off them: a blob that reaches the edge counts as well when it holds
// twice minArea in all, a third of minArea of it off the cards (art
// bordered by the card's frame does not spill off the card that much), or
// handFingersArea minAreas in all when it is whole skin, without the holes
// that cards not found beside those found have (see handLoneHoles). A
// blob whose part off the cards is a card's straight-sided piece is not a
// hand (see offShowsCard).
func reachesThroughCards(skin, small, onCards gocv.Mat, v *view, origin image.Point, f float64, minArea int) bool {
	sk, err := skin.DataPtrUint8()
	if err != nil {
		return false
	}
	on, err := onCards.DataPtrUint8()
	if err != nil || len(on) != len(sk) {
		return false
	}
	cols, rows := skin.Cols(), skin.Rows()
	s := v.pxPerMM * f
	lineCols := gridLineBand(cols, models.Columns, v.geo.CellWidthMM, v.marginMM, s, float64(origin.X)*f)
	lineRows := gridLineBand(rows, models.Rows, v.geo.CellHeightMM, v.marginMM, s, float64(origin.Y)*f)
	linked := gocv.NewMatWithSize(rows, cols, gocv.MatTypeCV8U)
	defer linked.Close()
	lk, err := linked.DataPtrUint8()
	if err != nil {
		return false
	}
	for y := 0; y < rows; y++ {
		if lineRows[y] {
			continue
		}
		for x := 0; x < cols; x++ {
			if !lineCols[x] && sk[y*cols+x] != 0 {
				lk[y*cols+x] = 255
			}
		}
	}
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(linked, &labels, &stats, &centroids)
	label, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*rows*cols {
		return false
	}
	at := func(x, y int) int { return int(binary.NativeEndian.Uint32(label[4*(y*cols+x):])) }
	// A blob that crosses a grid line was cut in two there: the pieces
	// that face each other across the line are one blob.
	blobs := newBlobGroups(n)
	root := blobs.root
	join := func(a, b int) {
		if a != 0 && b != 0 {
			blobs.join(a, b)
		}
	}
	for _, band := range bandSpans(lineRows) {
		if band[0] > 0 && band[1] < rows-1 {
			for x := 0; x < cols; x++ {
				join(at(x, band[0]-1), at(x, band[1]+1))
			}
		}
	}
	for _, band := range bandSpans(lineCols) {
		if band[0] > 0 && band[1] < cols-1 {
			for y := 0; y < rows; y++ {
				join(at(band[0]-1, y), at(band[1]+1, y))
			}
		}
	}
	reaches := make([]bool, n)
	for i := 1; i < n; i++ {
		x0, y0 := stats.GetIntAt(i, int(gocv.CC_STAT_LEFT)), stats.GetIntAt(i, int(gocv.CC_STAT_TOP))
		x1, y1 := x0+stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH)), y0+stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT))
		if x0 <= 1 || y0 <= 1 || x1 >= int32(cols-1) || y1 >= int32(rows-1) {
			reaches[root(i)] = true
		}
	}
	off := make([]int, n)
	all := make([]int, n)
	for p := range on {
		if lk[p] != 0 {
			r := root(int(binary.NativeEndian.Uint32(label[4*p:])))
			all[r]++
			if on[p] == 0 {
				off[r]++
			}
		}
	}
	// holes counts what blob r's pieces enclose that is not skin.
	holes := func(r int) int {
		sum := 0
		for j := 1; j < n; j++ {
			if root(j) == r {
				x0, y0 := stats.GetIntAt(j, int(gocv.CC_STAT_LEFT)), stats.GetIntAt(j, int(gocv.CC_STAT_TOP))
				sum += blobHoles(labels, j, x0, y0, x0+stats.GetIntAt(j, int(gocv.CC_STAT_WIDTH)), y0+stats.GetIntAt(j, int(gocv.CC_STAT_HEIGHT)))
			}
		}
		return sum
	}
	for i := 1; i < n; i++ {
		if !reaches[i] || 3*off[i] < minArea {
			continue
		}
		if off[i] < minArea && offShowsCard(i, root, label, lk, on, cols, rows, s) {
			continue
		}
		if off[i] >= minArea {
			// A hand's worth of skin off the cards: its outline there
			// steps as a hand's does, or it is the mat's own colour
			// passing through skin's (see outlineStepped).
			if outlineStepped(small, onCards, true, func(p int) bool {
				return lk[p] != 0 && root(int(binary.NativeEndian.Uint32(label[4*p:]))) == i
			}) {
				return true
			}
			continue
		}
		if all[i] >= 2*minArea {
			return true
		}
		// Fingers over the edge's cards hold less: a blob of
		// handFingersArea minAreas counts when it is whole skin (see
		// handLoneHoles), as cards not found, cut by their printed frames
		// and text, are not.
		if float64(all[i]) >= handFingersArea*float64(minArea) && float64(holes(i)) <= handLoneHoles*float64(all[i]) {
			return true
		}
	}
	return false
}

// blobGroups joins labelled blobs into groups (a union-find over their
// labels): each blob's group is named by its root blob.
type blobGroups []int

func newBlobGroups(n int) blobGroups {
	g := make(blobGroups, n)
	for i := range g {
		g[i] = i
	}
	return g
}

// root gives the root of blob i's group.
func (g blobGroups) root(i int) int {
	for g[i] != i {
		g[i] = g[g[i]]
		i = g[i]
	}
	return i
}

// join puts blobs a and b in one group.
func (g blobGroups) join(a, b int) { g[g.root(a)] = g.root(b) }

// offShowsCard reports whether what blob r of reachesThroughCards shows off
// the cards found (lk its pixels, labelled in label, the 32-bit labels'
// bytes, rooted by root; on the cards found) is the visible part of a card not found, not a hand: each
// piece of it, once the slivers along the cards' outlines are opened away,
// fills most of its oriented box (cardPieceFill: a card's straight sides
// and square corners; a palm or fingers round off their box) and fits in a
// card's (cardShaped), and none reaches the image's edge. A frameless card
// of skin-toned art half under a unit of skin-toned art makes one blob with
// it, which reaches the edge through the unit when the unit lies across the
// realm's border; a printed frame would have cut the two apart. s is the
// image's pixels per mm.
func offShowsCard(r int, root func(int) int, label, lk, on []uint8, cols, rows int, s float64) bool {
	offMask := gocv.NewMatWithSize(rows, cols, gocv.MatTypeCV8U)
	defer offMask.Close()
	om, err := offMask.DataPtrUint8()
	if err != nil {
		return false
	}
	for p := range on {
		if lk[p] != 0 && on[p] == 0 && root(int(binary.NativeEndian.Uint32(label[4*p:]))) == r {
			om[p] = 255
		}
	}
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	gocv.MorphologyEx(offMask, &offMask, gocv.MorphOpen, kernel)
	pieces := gocv.NewMat()
	defer pieces.Close()
	n := gocv.ConnectedComponents(offMask, &pieces)
	piece, err := pieces.DataPtrUint8()
	if err != nil || pieces.Type() != gocv.MatTypeCV32S || n < 2 {
		return false
	}
	pixels := make([][]int, n)
	for p := range om {
		if l := int(binary.NativeEndian.Uint32(piece[4*p:])); l > 0 {
			x, y := p%cols, p/cols
			if x <= 1 || y <= 1 || x >= cols-2 || y >= rows-2 {
				return false
			}
			pixels[l] = append(pixels[l], p)
		}
	}
	for _, ps := range pixels[1:] {
		if area, d0, d1 := orientedBox(ps, cols); area < cardPieceFill*d0*d1 || !cardShaped(ps, cols, s, 0) {
			return false
		}
	}
	return true
}

// cardPieceFill is the least share of its oriented box that the visible
// part of a card not found fills (offShowsCard): 0.86–0.90 measured on
// strips of sites beside the unit on them; a disc fills π/4 of its box.
const cardPieceFill = 0.85

// handFingersArea is the least skin, in minAreas, that a hand reaching over
// the cards at the realm's edge shows whole (reachesThroughCards).
const handFingersArea = 1.5

// bandSpans gives the first and last index of each run of set values.
func bandSpans(band []bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(band); i++ {
		if !band[i] {
			continue
		}
		j := i
		for j+1 < len(band) && band[j+1] {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// Dark skin: in a dim frame, or on a dark-skinned hand, a pixel's chroma
// (Cr, Cb) shrinks with its brightness and falls below skinLow's Cr,
// though its colour is a skin's: red over green over blue, in the shares
// skin has whatever its brightness. A pixel darker than darkSkinY whose
// shares of red and blue (of R+G+B) are in the darkSkin ranges is skin too.
const (
	darkSkinMinY     = 12
	darkSkinY        = 80
	darkSkinRedLow   = 0.38
	darkSkinRedHigh  = 0.6
	darkSkinBlueLow  = 0.12
	darkSkinBlueHigh = 0.31
)

// addDarkSkin sets in skin the dark skin pixels of the BGR image img.
func addDarkSkin(img, skin gocv.Mat) {
	data, err := img.DataPtrUint8()
	if err != nil || img.Channels() != 3 {
		return
	}
	sk, err := skin.DataPtrUint8()
	if err != nil || 3*len(sk) != len(data) {
		return
	}
	for p := range sk {
		if sk[p] != 0 {
			continue
		}
		// Red over green over blue first, in bytes: most pixels are not.
		bi, gi, ri := data[3*p], data[3*p+1], data[3*p+2]
		if !(ri > gi && gi > bi) {
			continue
		}
		b, g, r := float64(bi), float64(gi), float64(ri)
		y := 0.299*r + 0.587*g + 0.114*b
		sum := r + g + b
		if y < darkSkinMinY || y >= darkSkinY {
			continue
		}
		if rs, bs := r/sum, b/sum; rs >= darkSkinRedLow && rs <= darkSkinRedHigh && bs >= darkSkinBlueLow && bs <= darkSkinBlueHigh {
			sk[p] = 255
		}
	}
}

// skinOff counts the skin pixels (non-zero in skin) off the cards
// (non-zero in onCards, when cards is set).
func skinOff(skin, onCards gocv.Mat, cards bool) int {
	if !cards {
		return gocv.CountNonZero(skin)
	}
	sk, err := skin.DataPtrUint8()
	if err != nil {
		return gocv.CountNonZero(skin)
	}
	on, err := onCards.DataPtrUint8()
	if err != nil || len(on) != len(sk) {
		return gocv.CountNonZero(skin)
	}
	// Eight pixels at a time, without a branch a pixel.
	n, i := 0, 0
	for ; i+8 <= len(sk); i += 8 {
		n += bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(sk[i:])) &^ nonZeroBytes(binary.LittleEndian.Uint64(on[i:])))
	}
	for ; i < len(sk); i++ {
		if sk[i] != 0 && on[i] == 0 {
			n++
		}
	}
	return n
}

// nonZeroBytes sets the top bit of each byte of w that is not zero, and
// clears every other bit.
func nonZeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ((w & low7) + low7 | w) &^ low7
}

// gridLineMM is how far from a printed grid line, in millimetres, a pixel
// counts as the line. Under a warm light a white or gold grid turns
// skin-toned, and the realm's lines join into one frame that reaches the
// edge like an arm; only what lies off the lines counts toward a hand.
const gridLineMM = 2.0

// gridLineBand marks, along one axis of size pixels, those within
// gridLineMM of the realm's lines running across it: lines+1 lines a cell
// apart from margin millimetres on, at s pixels a millimetre, less the
// image's offset.
func gridLineBand(size, lines int, cellMM, marginMM, s, offset float64) []bool {
	band := make([]bool, size)
	for i := 0; i <= lines; i++ {
		c := (marginMM+float64(i)*cellMM)*s - offset
		for x := max(0, int(math.Floor(c-gridLineMM*s))); x <= min(size-1, int(math.Ceil(c+gridLineMM*s))); x++ {
			band[x] = true
		}
	}
	return band
}

// areaOffGrid counts each labelled blob's pixels that lie off the realm's
// grid lines, in a label image whose pixel (0, 0) is the top-down pixel
// origin and whose scale is f times the view's; share is the part of the
// whole image off the lines.
func areaOffGrid(labels gocv.Mat, n int, v *view, origin image.Point, f float64) (areas []int, share float64) {
	s := v.pxPerMM * f
	ox, oy := float64(origin.X)*f, float64(origin.Y)*f
	cols, rows := labels.Cols(), labels.Rows()
	lineCols := gridLineBand(cols, models.Columns, v.geo.CellWidthMM, v.marginMM, s, ox)
	lineRows := gridLineBand(rows, models.Rows, v.geo.CellHeightMM, v.marginMM, s, oy)
	areas = make([]int, n)
	// The labels are read through their buffer: a cgo call a pixel
	// (GetIntAt) cost over a millisecond a frame with a hand.
	label, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*rows*cols {
		return areas, 0
	}
	off := 0
	for y := 0; y < rows; y++ {
		if lineRows[y] {
			continue
		}
		row := label[4*y*cols : 4*(y+1)*cols]
		for x := 0; x < cols; x++ {
			if !lineCols[x] {
				areas[binary.NativeEndian.Uint32(row[4*x:])]++
				off++
			}
		}
	}
	return areas, float64(off) / float64(max(rows*cols, 1))
}

// matChroma is how far (in Cr and Cb) a pixel may be from the mat's colour
// and still count as mat.
const matChroma = 9

// matShare is the percentage of the realm the mat's own colour must cover.
const matShare = 30

// fillEach sets the pixels inside each polygon to c. One FillPoly call
// with them all would leave a hole where two overlap (it fills by parity):
// where one card lies on another.
func fillEach(img *gocv.Mat, polys [][]image.Point, c color.RGBA) {
	for _, p := range polys {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{p})
		gocv.FillPoly(img, pv, c)
		pv.Close()
	}
}

// Chromaticity is a pixel's red and blue share of its light, R/(R+G+B) and
// B/(R+G+B): a surface keeps it in light and shade. matChromaticity is how
// far from the mat's a pixel's may be and still count as mat (about what
// matChroma is for a pixel of middle brightness), read in histogram bins of
// 1/chromaticityBins; below chromaticityFloor (mean of its channels) a
// pixel's chromaticity is mostly noise and it is left as the chroma test
// says.
const (
	matChromaticity   = 0.03
	chromaticityBins  = 64
	chromaticityFloor = 8
)

// lightShares holds 1/(R+G+B) for every channel sum, 0 below the floor.
type lightShares [3*255 + 1]float32

func newLightShares() *lightShares {
	var s lightShares
	for sum := 3 * chromaticityFloor; sum < len(s); sum++ {
		s[sum] = 1 / float32(sum)
	}
	return &s
}

// of gives the red and blue shares of the BGR pixel at data[i:i+3]; ok is
// false below the floor.
func (s *lightShares) of(data []byte, i int) (r, b float32, ok bool) {
	k := s[int(data[i])+int(data[i+1])+int(data[i+2])]
	return float32(data[i+2]) * k, float32(data[i]) * k, k != 0
}

// dominantChromaticity finds the most common chromaticity of a BGR image,
// as the mat's, when it covers matShare percent of the pixels (those where
// cards is zero, when it is given).
func dominantChromaticity(img gocv.Mat, shares *lightShares, cards []byte) (r, b float32, ok bool) {
	data, err := img.DataPtrUint8()
	if err != nil || img.Channels() != 3 {
		return 0, 0, false
	}
	var hist [chromaticityBins][chromaticityBins]int
	counted := 0
	// Every other pixel: the mat's colour is as common among them.
	if cards != nil && len(cards)*3 != len(data) {
		cards = nil
	}
	for i := 0; i+2 < len(data); i += 6 {
		if cards != nil && cards[i/3] != 0 {
			continue
		}
		if r, b, ok := shares.of(data, i); ok {
			hist[min(chromaticityBins-1, int(r*chromaticityBins))][min(chromaticityBins-1, int(b*chromaticityBins))]++
			counted++
		}
	}
	best, bi, bj := densest(&hist, 1, chromaticityBins-1)
	return (float32(bi) + 0.5) / chromaticityBins, (float32(bj) + 0.5) / chromaticityBins, best > counted*matShare/100
}

// keepOffChromaticity clears, in mask, the skin pixels (non-zero in skin)
// of the BGR image whose chromaticity is farther than matChromaticity from
// (r, b). Elsewhere mask is left as it is: only skin is cleared by it.
func keepOffChromaticity(img, skin gocv.Mat, mask *gocv.Mat, shares *lightShares, r, b float32) {
	data, m, sk, ok := skinPixels(img, skin, mask)
	if !ok {
		return
	}
	for p := range m {
		if m[p] == 0 || sk[p] == 0 {
			continue
		}
		if pr, pb, ok := shares.of(data, 3*p); ok && (abs32(pr-r) > matChromaticity || abs32(pb-b) > matChromaticity) {
			m[p] = 0
		}
	}
}

// A lamp lights a mat unevenly: a hot spot, the falloff towards the far
// edge, and on a satin or glossy cloth a sheen of the lamp's own light
// over the mat's colour. Its chroma (Cr, Cb) then grows and shrinks with
// its brightness and the sheen pales it, out of matChroma of its most
// common chroma and off its chromaticity: on a red or burgundy mat the lit
// part reads as skin and reaches the realm's edge like an arm. So a skin
// pixel also counts as mat when it is the mat's typical colour M (the
// per-channel median over the pixels already taken for mat) lit by a
// factor k within matLitRange, plus a grey sheen s of at most matSheen of
// its brightness: P = k·M + s·(1,1,1), to within matLitMiss of P's
// length. Skin is not such a colour on a mat that is not skin-toned (on a
// burgundy mat, skin has more green than blue, the mat and any sheen over
// it less); a hand of the mat's very colour and about its brightness
// cannot be told from it by colour.
const (
	matLitRange = 1.7
	matSheen    = 0.5
	matLitMiss  = 0.04
)

// skinPixels returns the bytes of BGR image img and of the one-channel
// masks mask and skin, all of one size; ok is false when they are not.
func skinPixels(img, skin gocv.Mat, mask *gocv.Mat) (data, m, sk []uint8, ok bool) {
	data, err := img.DataPtrUint8()
	if err != nil || img.Channels() != 3 {
		return nil, nil, nil, false
	}
	m, err = mask.DataPtrUint8()
	if err != nil || len(m)*3 != len(data) {
		return nil, nil, nil, false
	}
	sk, err = skin.DataPtrUint8()
	if err != nil || len(sk) != len(m) {
		return nil, nil, nil, false
	}
	return data, m, sk, true
}

// addLitMat sets in onMat the skin pixels (non-zero in skin) of the BGR
// image img that are the mat's colour lit differently (see matLitRange).
func addLitMat(img, skin gocv.Mat, onMat *gocv.Mat) {
	data, m, sk, ok := skinPixels(img, skin, onMat)
	if !ok {
		return
	}
	var hist [3][256]int
	n := 0
	for p := range m {
		if m[p] != 0 {
			for c := 0; c < 3; c++ {
				hist[c][data[3*p+c]]++
			}
			n++
		}
	}
	if n == 0 {
		return
	}
	var mat [3]float64
	for c := range mat {
		v, seen := 0, 0
		for ; v < 255 && seen+hist[c][v] < n/2; v++ {
			seen += hist[c][v]
		}
		mat[c] = float64(v)
	}
	// Least squares for k and s: the normal equations of [M 1]·(k, s) = P.
	mm := mat[0]*mat[0] + mat[1]*mat[1] + mat[2]*mat[2]
	m1 := mat[0] + mat[1] + mat[2]
	det := mm*3 - m1*m1
	if mm == 0 || math.Abs(det) < 1e-6*mm*3 {
		return // a grey mat: its sheen is its own colour, nothing to add
	}
	for p := range m {
		if m[p] != 0 || sk[p] == 0 {
			continue
		}
		px := [3]float64{float64(data[3*p]), float64(data[3*p+1]), float64(data[3*p+2])}
		mp := mat[0]*px[0] + mat[1]*px[1] + mat[2]*px[2]
		sp := px[0] + px[1] + px[2]
		k := (mp*3 - m1*sp) / det
		sh := (mm*sp - m1*mp) / det
		if k < 1/matLitRange || k > matLitRange || sh < -matLitMiss*sp || sh > matSheen*sp/3 {
			continue
		}
		var miss, length float64
		for c := range px {
			d := px[c] - k*mat[c] - sh
			miss += d * d
			length += px[c] * px[c]
		}
		if miss <= matLitMiss*matLitMiss*length {
			m[p] = 255
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// dominantChroma finds the most common chroma (Cr, Cb) of a YCrCb image, in
// 4-level bins, as the mat's colour, among the pixels where cards is zero
// (all when it is nil).
func dominantChroma(ycc gocv.Mat, cards []byte) (cr, cb float64, ok bool) {
	data, err := ycc.DataPtrUint8()
	if err != nil || ycc.Channels() != 3 {
		return 0, 0, false
	}
	if cards != nil && len(cards)*3 != len(data) {
		cards = nil
	}
	var hist [64][64]int
	counted := 0
	for i := 0; i+2 < len(data); i += 3 {
		if cards != nil && cards[i/3] != 0 {
			continue
		}
		hist[data[i+1]>>2][data[i+2]>>2]++
		counted++
	}
	// Sum a 3×3 neighbourhood so a colour split across bins still wins.
	best, bi, bj := densest(&hist, 0, 64)
	// A mat of many colours has no colour of its own; then the most common
	// one may be the hand's.
	return float64(bi*4 + 2), float64(bj*4 + 2), best > counted*matShare/100
}

// densest finds the bin (i, j), both in from..to-1, of a 64×64 histogram
// whose 3×3 neighbourhood (the bins inside the histogram) holds the most
// counts, the first in row order of those that hold as many, and that
// count. The neighbourhoods are summed along the rows first, then down.
func densest(hist *[64][64]int, from, to int) (best, bi, bj int) {
	var across [64][64]int // each bin and its neighbours in its row
	for i := max(from-1, 0); i < min(to+1, 64); i++ {
		row, sums := &hist[i], &across[i]
		sums[0] = row[0] + row[1]
		for j := 1; j < 63; j++ {
			sums[j] = row[j-1] + row[j] + row[j+1]
		}
		sums[63] = row[62] + row[63]
	}
	var none [64]int // beyond the first and last rows
	best = -1
	for i := from; i < to; i++ {
		up, mid, down := &none, &across[i], &none
		if i > 0 {
			up = &across[i-1]
		}
		if i < 63 {
			down = &across[i+1]
		}
		for j := from; j < to; j++ {
			if n := up[j] + mid[j] + down[j]; n > best {
				best, bi, bj = n, i, j
			}
		}
	}
	return best, bi, bj
}

// A lamp's colour shifts every pixel's chroma: under a warm bulb a pale mat
// or a card's cream frame turns skin-toned in YCrCb. Cards have light parts
// (frames, text boxes) that are near white in daylight, so the image is
// balanced by the "white patch" rule read on the cards found: the mean
// colour of the brightest whitePatchShare of their pixels is brought back
// to within paperTint of neutral (card stock, parchment-coloured text boxes
// and sleeves are off-white by about that much in daylight, and are left
// alone). Cards, not the whole image, because the brightest thing in a
// frame may be a pale arm, which must keep its colour. The gains are
// bounded by maxWhiteGain, so cards whose light parts really are coloured
// change the picture little. Without cards the image is left as it is
// (handCovers does not call it). Card stock is white to cream, never bluer
// or less red than white: the patch's red is brought up to neutral at
// least and its blue down to it (a strong cool lamp had left the paper a
// bluish white within paperTint, and a pale hand a lavender grey that was
// no skin). A pixel with a channel at whiteClipped or
// above is left out of the patch: that channel is clipped, and its colour
// not the paper's. Under a warm lamp the brightest paper clips in red, and
// a patch of clipped pixels reads far less red than the paper is (the
// gains then left the cards and the mat's pale parts skin-toned); sensor
// noise and glare clip single channels as well.
const (
	whitePatchShare = 0.05
	paperTint       = 1.12
	maxWhiteGain    = 1.4
	whiteClipped    = 250
)

// balanceWhite scales the channels of a BGR image in place by the white
// patch rule, given the image's white patch (share, see paperShares).
func balanceWhite(img gocv.Mat, share [3]float64) {
	data, err := img.DataPtrUint8()
	if err != nil || img.Channels() != 3 {
		return
	}
	var gains [3]float64
	for c := range gains {
		lo, hi := 1/paperTint, paperTint
		switch c {
		case 0: // blue
			hi = 1
		case 2: // red
			lo = 1
		}
		g := min(max(share[c], lo), hi) / share[c]
		gains[c] = min(max(g, 1/maxWhiteGain), maxWhiteGain)
	}
	scaleChannels(data, gains)
}

// paperShares gives the white patch of a BGR image where mask is
// non-zero (the brightest whitePatchShare of its pixels, those clipped in
// a channel left out): each channel's sum over the grey mean of the three
// (1, 1, 1 for neutral paper). ok is false when there is no such patch.
func paperShares(img, mask gocv.Mat) (share [3]float64, ok bool) {
	data, err := img.DataPtrUint8()
	if err != nil || img.Channels() != 3 || len(data) < 3 {
		return share, false
	}
	in, err := mask.DataPtrUint8()
	if err != nil || len(in)*3 != len(data) {
		return share, false
	}
	// One pass: how many pixels have each brightness, and their channels'
	// sums, so that the brightest share's sums need no second pass.
	var hist [256]int
	var sums [256][3]int
	total := 0
	for p, m := range in {
		if m == 0 {
			continue
		}
		px := data[3*p : 3*p+3 : 3*p+3]
		b, g, r := int(px[0]), int(px[1]), int(px[2])
		if max(b, g, r) >= whiteClipped {
			continue
		}
		level := uint8((b + 2*g + r) / 4) // at most 255
		hist[level]++
		s := &sums[level]
		s[0] += b
		s[1] += g
		s[2] += r
		total++
	}
	want := int(whitePatchShare * float64(total))
	cut, n := 255, 0
	for ; cut > 0 && n+hist[cut] < want; cut-- {
		n += hist[cut]
	}
	var sum [3]float64
	for level := cut; level < len(sums); level++ {
		for c := range sum {
			sum[c] += float64(sums[level][c])
		}
	}
	if sum[0] == 0 || sum[1] == 0 || sum[2] == 0 {
		return share, false
	}
	grey := (sum[0] + sum[1] + sum[2]) / 3
	for c := range share {
		share[c] = sum[c] / grey
	}
	return share, true
}

// scaleChannels scales each channel of BGR pixels (data, three bytes a
// pixel) in place by its gain, rounded and clipped at 255.
func scaleChannels(data []byte, gains [3]float64) {
	var lut [3][256]uint8 // each channel's table: B, G, R
	same := true
	for c, g := range gains {
		for v := range 256 {
			lut[c][v] = uint8(min(255, math.Round(float64(v)*g)))
			same = same && lut[c][v] == uint8(v)
		}
	}
	if same {
		return
	}
	// gocv.LUT's mapping, in place: OpenCV's three-channel table costs
	// as much again as the image's conversion to YCrCb.
	lb, lg, lr := &lut[0], &lut[1], &lut[2]
	for p := 0; p+2 < len(data); p += 3 {
		px := data[p : p+3 : p+3]
		px[0], px[1], px[2] = lb[px[0]], lg[px[1]], lr[px[2]]
	}
}

// blobHoles counts the pixels within label i's bounding box
// [x0, x1)×[y0, y1) that are not the blob's and that the blob encloses (no
// path of such pixels leads to the box's border).
func blobHoles(labels gocv.Mat, i int, x0, y0, x1, y1 int32) int {
	label, err := labels.DataPtrUint8()
	cols := labels.Cols()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*labels.Rows()*cols {
		return 0
	}
	w, h := int(x1-x0), int(y1-y0)
	in := func(x, y int) bool {
		p := (int(y0)+y)*cols + int(x0) + x
		return int(binary.NativeEndian.Uint32(label[4*p:])) == i
	}
	outside := make([]bool, w*h)
	var stack []int
	push := func(x, y int) {
		if x >= 0 && y >= 0 && x < w && y < h && !outside[y*w+x] && !in(x, y) {
			outside[y*w+x] = true
			stack = append(stack, y*w+x)
		}
	}
	for x := 0; x < w; x++ {
		push(x, 0)
		push(x, h-1)
	}
	for y := 0; y < h; y++ {
		push(0, y)
		push(w-1, y)
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p%w, p/w
		push(x-1, y)
		push(x+1, y)
		push(x, y-1)
		push(x, y+1)
	}
	holes := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if !outside[y*w+x] && !in(x, y) {
				holes++
			}
		}
	}
	return holes
}

// A hand or an arm lies over the mat: where its skin ends the colour
// steps, within a pixel or two of the hand tests' image (2 mm a pixel). A
// mat printed in a gradient, or painted (a brown field below green
// hills), passes through skin's colours too, but smoothly: the skin mask
// ends there where the colour crosses the range, with no step. So a skin
// blob counts as a hand only when at least handSteppedShare of its
// outline off the cards found steps by handStepLevels or more (the most of
// the three colour channels, between the pixels one inside and two
// outside the blob). Measured on the sample stills and an independent
// generator's scenes: every frame with a hand had a blob stepping on 29%
// of its outline or more (the least: a hand's soft shading beside a light
// mat), the blobs of gradient and painted mats on 4–20%.
const (
	handStepLevels   = 20
	handSteppedShare = 0.25
)

// outlineStepped reports whether the skin blob whose pixels in (indices
// into the hand tests' image small, BGR) reports shows a step along its
// outline (see handSteppedShare). An outline pixel is read against its
// first neighbour (right, left, below, above) off the blob whose own
// neighbour beyond is off the cards found too (onCards, when cards is
// set); pixels on the cards, within three of the image's edge, or with no
// such neighbour are not read. A blob with no outline left to read counts
// as stepped.
func outlineStepped(small, onCards gocv.Mat, cards bool, in func(p int) bool) bool {
	img, err := small.DataPtrUint8()
	if err != nil || small.Channels() != 3 {
		return true
	}
	var on []uint8
	if cards {
		if on, err = onCards.DataPtrUint8(); err != nil {
			return true
		}
	}
	cols, rows := small.Cols(), small.Rows()
	if len(img) < 3*cols*rows || (on != nil && len(on) < cols*rows) {
		return true
	}
	step := func(a, b int) bool {
		for c := range 3 {
			d := int(img[3*a+c]) - int(img[3*b+c])
			if d >= handStepLevels || -d >= handStepLevels {
				return true
			}
		}
		return false
	}
	read, stepped := 0, 0
	for y := 3; y < rows-3; y++ {
		for x := 3; x < cols-3; x++ {
			p := y*cols + x
			if !in(p) || (on != nil && on[p] != 0) {
				continue
			}
			// The first neighbour outside the blob, off the cards.
			for _, d := range [4]int{1, -1, cols, -cols} {
				q := p + d
				if in(q) || (on != nil && (on[q] != 0 || on[q+d] != 0)) {
					continue
				}
				read++
				if step(p-d, q+d) {
					stepped++
				}
				break
			}
		}
	}
	return read == 0 || float64(stepped) >= handSteppedShare*float64(read)
}
