package vision

import (
	"image"
	"image/color"

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
	if top.Channels() != 3 {
		return false
	}
	s := v.pxPerMM
	m := v.marginMM - handBand
	if m < 0 {
		m = 0
	}
	area := image.Rect(int(m*s), int(m*s), int((v.marginMM+v.geo.WidthMM()+handBand)*s), int((v.marginMM+v.geo.HeightMM()+handBand)*s)).
		Intersect(image.Rect(0, 0, top.Cols(), top.Rows()))
	roi := top.Region(area)
	defer roi.Close()
	// A hand is big: 0.5 px/mm finds it as well, faster.
	f := 0.5 / s
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(roi, &small, image.Pt(int(float64(area.Dx())*f), int(float64(area.Dy())*f)), 0, 0, gocv.InterpolationArea)
	ycc := gocv.NewMat()
	defer ycc.Close()
	gocv.CvtColor(small, &ycc, gocv.ColorBGRToYCrCb)
	skin := gocv.NewMat()
	defer skin.Close()
	gocv.InRangeWithScalar(ycc, skinLow, skinHigh, &skin)
	// A mat may itself be skin-toned (brown, mauve, wood): its own colour,
	// the most common one over the realm, is not a hand.
	if cr, cb, ok := dominantChroma(ycc); ok {
		mat := gocv.NewMat()
		defer mat.Close()
		gocv.InRangeWithScalar(ycc, gocv.NewScalar(0, cr-matChroma, cb-matChroma, 0), gocv.NewScalar(255, cr+matChroma, cb+matChroma, 0), &mat)
		gocv.BitwiseNot(mat, &mat)
		gocv.BitwiseAnd(skin, mat, &skin)
	}
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(3, 3))
	defer kernel.Close()
	gocv.MorphologyEx(skin, &skin, gocv.MorphOpen, kernel)

	// Skin-toned art on a card is not a hand: a hand over a card hides its
	// outline. Every card found counts, named or not (an unknown card with
	// skin-toned art crossing the realm's edge would otherwise pass for an
	// arm).
	if len(cards) > 0 {
		var polys [][]image.Point
		for _, c := range cards {
			var poly []image.Point
			for _, p := range c.Quad {
				r := v.fromImg.Apply(p)
				poly = append(poly, image.Pt(int((r.X-float64(area.Min.X))*f), int((r.Y-float64(area.Min.Y))*f)))
			}
			polys = append(polys, poly)
		}
		if len(polys) > 0 {
			pv := gocv.NewPointsVectorFromPoints(polys)
			gocv.FillPoly(&skin, pv, color.RGBA{})
			pv.Close()
		}
	}
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(skin, &labels, &stats, &centroids)
	realmPx := v.geo.WidthMM() * v.geo.HeightMM() * 0.25
	minArea := int32(handShare * realmPx)
	w, h := int32(skin.Cols()), int32(skin.Rows())
	for i := 1; i < n; i++ {
		if stats.GetIntAt(i, int(gocv.CC_STAT_AREA)) < minArea {
			continue
		}
		x0, y0 := stats.GetIntAt(i, int(gocv.CC_STAT_LEFT)), stats.GetIntAt(i, int(gocv.CC_STAT_TOP))
		x1, y1 := x0+stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH)), y0+stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT))
		if x0 <= 1 || y0 <= 1 || x1 >= w-1 || y1 >= h-1 {
			return true
		}
	}
	return false
}

// matChroma is how far (in Cr and Cb) a pixel may be from the mat's colour
// and still count as mat.
const matChroma = 9

// matShare is the percentage of the realm the mat's own colour must cover.
const matShare = 30

// dominantChroma finds the most common chroma (Cr, Cb) of a YCrCb image, in
// 4-level bins, as the mat's colour.
func dominantChroma(ycc gocv.Mat) (cr, cb float64, ok bool) {
	data, err := ycc.DataPtrUint8()
	if err != nil || ycc.Channels() != 3 {
		return 0, 0, false
	}
	var hist [64][64]int
	for i := 0; i+2 < len(data); i += 3 {
		hist[data[i+1]>>2][data[i+2]>>2]++
	}
	best, bi, bj := -1, 0, 0
	for i := range hist {
		for j := range hist[i] {
			// Sum a 3×3 neighbourhood so a colour split across bins still wins.
			n := 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					if i+di >= 0 && i+di < 64 && j+dj >= 0 && j+dj < 64 {
						n += hist[i+di][j+dj]
					}
				}
			}
			if n > best {
				best, bi, bj = n, i, j
			}
		}
	}
	// A mat of many colours has no colour of its own; then the most common
	// one may be the hand's.
	return float64(bi*4 + 2), float64(bj*4 + 2), best > len(data)/3*matShare/100
}
