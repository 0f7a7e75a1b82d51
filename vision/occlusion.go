package vision

import (
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// Occlusion: skin-coloured pixels in YCrCb, grouped into blobs. A blob
// larger than handShare of the top-down image that reaches its edge or the
// edge of the camera's view is a hand or an arm reaching over the realm.
const (
	handShare = 0.012
	edgeBand  = 2 // pixels, at a quarter of the top-down resolution
)

var (
	skinLow  = gocv.NewScalar(30, 136, 77, 0)
	skinHigh = gocv.NewScalar(255, 175, 127, 0)
)

// handCovers reports whether a hand or arm reaches over the top-down BGR image.
func handCovers(top gocv.Mat, v *view) bool {
	if top.Channels() != 3 {
		return false
	}
	// A hand is big: a quarter of the resolution finds it as well, faster.
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(top, &small, image.Pt(top.Cols()/4, top.Rows()/4), 0, 0, gocv.InterpolationArea)
	top = small
	ycc := gocv.NewMat()
	defer ycc.Close()
	gocv.CvtColor(top, &ycc, gocv.ColorBGRToYCrCb)
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
	minArea := int32(handShare * float64(top.Rows()*top.Cols()))
	var big []int32
	for i := 1; i < n; i++ {
		if stats.GetIntAt(i, int(gocv.CC_STAT_AREA)) >= minArea {
			big = append(big, int32(i))
		}
	}
	if len(big) == 0 {
		return false
	}
	// Where the camera saw nothing, and the image's own edge, form a band
	// a blob must reach.
	outside := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), top.Rows(), top.Cols(), gocv.MatTypeCV8U)
	defer outside.Close()
	var seen []image.Point
	for _, c := range [4][2]float64{{0, 0}, {float64(v.imgSize.X), 0}, {float64(v.imgSize.X), float64(v.imgSize.Y)}, {0, float64(v.imgSize.Y)}} {
		x, y := v.fromImg.apply(c[0], c[1])
		seen = append(seen, image.Pt(int(x*float64(top.Cols())/float64(v.size.X)), int(y*float64(top.Rows())/float64(v.size.Y))))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{seen})
	defer pv.Close()
	gocv.FillPoly(&outside, pv, color.RGBA{})
	grow := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*edgeBand+1, 2*edgeBand+1))
	defer grow.Close()
	gocv.Dilate(outside, &outside, grow)
	gocv.Rectangle(&outside, image.Rect(0, 0, top.Cols(), top.Rows()), color.RGBA{255, 255, 255, 0}, 2*edgeBand)
	blob := gocv.NewMat()
	defer blob.Close()
	for _, l := range big {
		v := float64(l)
		gocv.InRangeWithScalar(labels, gocv.NewScalar(v, v, v, v), gocv.NewScalar(v, v, v, v), &blob)
		gocv.BitwiseAnd(blob, outside, &blob)
		if gocv.CountNonZero(blob) > 0 {
			return true
		}
	}
	return false
}
