package calibration

import "github.com/tablecam/tablecam/models"

// homography is the package's short name for the shared projective map.
type homography = models.Homography

// fitHomography finds the transform taking src[i] to dst[i] in the
// least-squares sense (exact for four points).
func fitHomography(src, dst []models.Point) (homography, error) {
	return models.FitHomography(src, dst)
}
