package pipeline

import (
	"math"

	"github.com/tablecam/tablecam/calibration"
	"gocv.io/x/gocv"
)

// A realm found automatically can be the wrong lattice of lines: half the
// grid, or the grid shifted by a row, on a soft or blurred picture (a webcam
// whose focus is off, video scaled up from a smaller size). Vision then reads
// empty cells forever and the game never starts. While the tracker still
// waits for both Avatars, the realm is looked for again every doubtEvery
// frames (after the current realm has had doubtEvery frames to show them);
// a realm found elsewhere replaces it, so the search tries the lattices that
// other frames favour until one shows the Avatars.
const doubtEvery = 15

// doubtRealm gives a new automatic calibration when the game has not started
// on the current one and another frame finds the realm elsewhere; else nil.
// Calibrations given by the user are never doubted.
func (s *Session) doubtRealm(mat *gocv.Mat, fr Frame, cal *calibration.Calibration) *calibration.Calibration {
	if s.cfg.Calibration != nil || s.cfg.Corners != nil || cal.Method == calibration.MethodManual {
		return nil
	}
	s.mu.Lock()
	started := s.tracker.Started()
	s.mu.Unlock()
	if started {
		return nil
	}
	if s.doubtCal != cal {
		s.doubtCal, s.doubtFrom = cal, fr.Index
		return nil
	}
	if fr.Index-s.doubtFrom < doubtEvery {
		return nil
	}
	s.doubtFrom = fr.Index
	found, err := calibration.Detect(*mat, s.cfg.Detect)
	if err != nil || sameRealm(found, cal) {
		return nil
	}
	s.logf("frame %d: no Avatars seen on the realm yet; realm found again elsewhere in this frame, trying it", fr.Index)
	s.mu.Lock()
	s.cal = found
	s.mu.Unlock()
	s.doubtCal = found
	return found
}

// sameRealm says two calibrations put every realm corner within 1% of the
// image diagonal of each other.
func sameRealm(a, b *calibration.Calibration) bool {
	tol := 0.01 * math.Hypot(float64(a.ImageWidth), float64(a.ImageHeight))
	for i := range a.Corners {
		if math.Hypot(a.Corners[i].X-b.Corners[i].X, a.Corners[i].Y-b.Corners[i].Y) > tol {
			return false
		}
	}
	return a.ImageWidth == b.ImageWidth && a.ImageHeight == b.ImageHeight
}
