package vision

import (
	"encoding/binary"
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A site half under an arm reaching over the realm: no card is found on
// it, so its cell holds no card of its own, and what shows of it is too
// little for the keypoint matching or the outline search. In a frame the
// hand test takes for a hand (by its skin: occlusion.go), the arm's skin is
// a cover like a card on top: a cell that holds no card, whose site would
// lie that much under the arm and the cards beside, is searched for a
// covered site with the arm hidden (findCoveredSites). The cells that hold
// cards are searched as before: there the arm is not hidden (hidden, it
// cost the outlines of sites found under it).
const (
	armMinPieces = 0.1 // of a hand's least area: smaller skin pieces off the cards are left out
	armReachMM   = 20  // beyond a cell's rectangle, the arm that may cover its site
)

// armCover is the skin of an arm over the realm, on the hand test's image:
// mask (w×h, non-zero on skin) at 2 mm a pixel, whose pixel (x, y) has its
// top-left corner at the top-down pixel (ox + x·k, oy + y·k).
type armCover struct {
	mask   []byte
	w, h   int
	ox, oy float64
	k      float64
}

// armOver finds the arm over the realm in the frame's colour top-down
// image (a.images.small, at half the resolution of v) with the cards found
// so far, or nil when the hand test sees no hand's skin there, or when no
// pixels of skin's colour could make it cover, with the cards beside
// (covering shares of them), a share coveredBesideShare of where a site
// would lie in any of cells.
func (a *Analyzer) armOver(v *view, found []placed, cells []models.Cell, shares []float64) *armCover {
	top := a.images.small
	coarse := v.scaled(0.5)
	if top.Empty() || top.Cols() != coarse.size.X || top.Rows() != coarse.size.Y {
		return nil
	}
	quads := make([]models.Quad, len(found))
	for i, p := range found {
		for j, c := range p.quad {
			quads[i][j] = models.Point{X: c.X * 0.5, Y: c.Y * 0.5}
		}
	}
	h, ok := readHandImageFrom(top, coarse, quads, a.cast, &a.images.hand)
	if !ok {
		return nil
	}
	defer h.close()
	// Most frames show too little of skin's colour where it would matter:
	// that alone (which only shrinks on the way to the arm) tells it at
	// little cost. The skin test and the arm's mask are then made from
	// that same mask, once: skinCovers, then skinMask, made it twice more.
	skin := skinColoured(h.small, h.ycc)
	defer skin.Close()
	if !skinCouldCover(h, skin, v, cells, shares) {
		return nil
	}
	minArea, ok := armSkin(h, skin, coarse)
	if !ok {
		return nil
	}
	// Specks of skin-toned mat or art are no arm.
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(skin, &labels, &stats, &centroids)
	keep := make([]bool, n)
	for i := 1; i < n; i++ {
		keep[i] = float64(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) >= armMinPieces*float64(minArea)
	}
	out := make([]byte, skin.Cols()*skin.Rows())
	label, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*len(out) {
		return nil
	}
	for p := range out {
		if keep[binary.NativeEndian.Uint32(label[4*p:])] {
			out[p] = 255
		}
	}
	return coverOf(h, out)
}

// armSkin finishes skin, skinColoured's mask of h's small image (v: the
// hand test's view), in place: skinMask's, cleared of the cards found. It
// reports whether skinCovers sees a hand in it; when not, skin may be left
// unfinished. minArea is skinMask's.
func armSkin(h handImage, skin gocv.Mat, v *view) (minArea int, ok bool) {
	skin, minArea, ok = skinMaskFrom(skin, h.small, h.ycc, h.onCards, h.cards, v)
	if ok {
		clearPrintedOver(skin, h.ycc, h.onCards, h.cards, v, h.area.Min, h.f)
	}
	if !ok || !maskCovers(skin, h.small, h.onCards, h.cards, v, h.area.Min, h.f, minArea) {
		return minArea, false
	}
	if h.cards {
		// (maskCovers may have cleared them already: clearing again changes nothing.)
		off := gocv.NewMat()
		gocv.BitwiseNot(h.onCards, &off)
		gocv.BitwiseAnd(skin, off, &skin)
		off.Close()
	}
	return minArea, true
}

// coverOf places a mask of h's small image in the top-down image (twice
// the resolution of the hand test's view): pixel p of small lies at
// pixel area.Min + p/f of that view.
func coverOf(h handImage, mask []byte) *armCover {
	return &armCover{mask: mask, w: h.small.Cols(), h: h.small.Rows(), ox: 2 * float64(h.area.Min.X), oy: 2 * float64(h.area.Min.Y), k: 2 / h.f}
}

// on reports whether the arm covers the top-down pixel p.
func (c *armCover) on(p models.Point) bool {
	if c == nil {
		return false
	}
	x, y := int(math.Floor((p.X-c.ox)/c.k)), int(math.Floor((p.Y-c.oy)/c.k))
	return x >= 0 && y >= 0 && x < c.w && y < c.h && c.mask[y*c.w+x] != 0
}

// near gives the arm within r (top-down pixels) as cards on top: one
// rectangle for each run of skin pixels along a row of the mask.
func (c *armCover) near(r image.Rectangle) []placed {
	if c == nil {
		return nil
	}
	x0, y0 := max(0, int(math.Floor((float64(r.Min.X)-c.ox)/c.k))), max(0, int(math.Floor((float64(r.Min.Y)-c.oy)/c.k)))
	x1, y1 := min(c.w, int(math.Ceil((float64(r.Max.X)-c.ox)/c.k))), min(c.h, int(math.Ceil((float64(r.Max.Y)-c.oy)/c.k)))
	var out []placed
	for y := y0; y < y1; y++ {
		row := c.mask[y*c.w : (y+1)*c.w]
		for x := x0; x < x1; {
			if row[x] == 0 {
				x++
				continue
			}
			e := x
			for e < x1 && row[e] != 0 {
				e++
			}
			px0, px1 := c.ox+float64(x)*c.k, c.ox+float64(e)*c.k
			py0, py1 := c.oy+float64(y)*c.k, c.oy+float64(y+1)*c.k
			out = append(out, placed{quad: models.Quad{{X: px0, Y: py0}, {X: px1, Y: py0}, {X: px1, Y: py1}, {X: px0, Y: py1}}, kind: models.KindStandard})
			x = e
		}
	}
	return out
}

// skinCouldCover reports whether the pixels of h's small image that have
// skin's colour (skin, skinColoured's mask of it) could cover, with the cards
// found beside (covering shares of them), coveredBesideShare of where a
// site would lie in one of cells at least: the two shares added (read as
// siteAreaCovered reads them) reach it.
func skinCouldCover(h handImage, skin gocv.Mat, v *view, cells []models.Cell, shares []float64) bool {
	sk, err := skin.DataPtrUint8()
	if err != nil {
		return true
	}
	raw := coverOf(h, sk)
	for i, c := range cells {
		if shares[i]+siteAreaCovered(v, c, nil, raw) >= coveredBesideShare {
			return true
		}
	}
	return false
}
