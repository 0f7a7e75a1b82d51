package vision

import (
	"image"

	"gocv.io/x/gocv"
)

// Occlusion: skin-coloured pixels in YCrCb, over the realm and a thin band
// around it, grouped into blobs. A blob covering more than handShare of the
// realm that reaches the band's outer edge is a hand or an arm reaching in
// over the realm. Looking no farther than the band keeps a wooden table
// (skin-coloured in YCrCb) out; the size keeps skin-toned card art out.
const (
	handShare = 0.035
	handBand  = 12.0 // mm around the realm
)

var (
	skinLow  = gocv.NewScalar(30, 136, 77, 0)
	skinHigh = gocv.NewScalar(255, 175, 127, 0)
)

// handCovers reports whether a hand or arm reaches over the realm in the
// top-down BGR image.
func handCovers(top gocv.Mat, v *view) bool {
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
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(3, 3))
	defer kernel.Close()
	gocv.MorphologyEx(skin, &skin, gocv.MorphOpen, kernel)

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
