package vision

import (
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// homography is the package's short name for the shared projective map.
type homography = models.Homography

// homographyMat gives h as a 3×3 CV_64F Mat for OpenCV's warps (caller closes).
func homographyMat(h homography) gocv.Mat {
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for i, v := range h {
		m.SetDoubleAt(i/3, i%3, v)
	}
	return m
}
