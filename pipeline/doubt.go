package pipeline

import (
	"fmt"
	"math"
	"strings"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A realm found automatically can be the wrong lattice of lines: half the
// grid, or the grid shifted by a row or a column, on a soft or blurred
// picture (a webcam whose focus is off, video scaled up from a smaller size).
// Vision then reads empty cells forever and the game never starts. So while
// the tracker still waits for both Avatars and vision has not read both
// on the current realm, the realm is looked for again once the
// current one has had doubtSeconds (or four stability windows, if longer) to
// show them; a realm found elsewhere replaces it, so the search tries the
// lattices that other frames favour until one shows the Avatars.
const doubtSeconds = 1.0

// doubtRealm gives a new automatic calibration when the game has not started
// on the current one and another frame finds the realm elsewhere; else nil.
// Calibrations given by the user are never doubted.
func (s *Session) doubtRealm(mat *gocv.Mat, fr Frame, cal *calibration.Calibration) *calibration.Calibration {
	if s.cfg.Calibration != nil || s.cfg.Corners != nil || cal.Method == calibration.MethodManual {
		return nil
	}
	if s.drifts > 0 {
		// The camera or the mat may have moved: checkDrift finds the realm
		// again once the move is sure.
		return nil
	}
	s.mu.Lock()
	started := s.tracker.Started()
	s.mu.Unlock()
	if started {
		return nil
	}
	if s.doubtCal != cal {
		s.doubtCal, s.doubtFrom, s.avatarsSeen = cal, fr.Index, 0
		return nil
	}
	fps := s.src.FPS()
	if fps <= 0 {
		fps = 30
	}
	window := s.cfg.Tracker.Window
	if window <= 0 {
		window = 0.25
	}
	if s.avatarsSeen == 3 || float64(fr.Index-s.doubtFrom) < fps*max(doubtSeconds, 4*window) {
		return nil
	}
	found, err := s.findRealm(mat, findDoubt)
	if err != nil || s.triedRealm(found) {
		// Nothing new in this frame: look again a few frames on.
		s.doubtFrom += doubtRetryFrames
		return nil
	}
	s.doubtFrom = fr.Index
	s.triedCals = append(s.triedCals, cal)
	s.logf("frame %d: both Avatars not seen on the realm yet; realm found elsewhere in this frame (corners %s), trying it", fr.Index, quadString(found.Corners))
	s.mu.Lock()
	s.setCalibration(found)
	s.mu.Unlock()
	s.doubtCal, s.avatarsSeen = found, 0
	return found
}

// doubtRetryFrames is how many frames on the realm is looked for again when
// a frame found only realms already tried.
const doubtRetryFrames = 3

// triedRealm says c is the current realm or one already tried; when every
// realm has been tried without the Avatars showing, the oldest tried is
// forgotten so that the search goes on.
func (s *Session) triedRealm(c *calibration.Calibration) bool {
	if sameRealm(c, s.doubtCal) {
		return true
	}
	for i, t := range s.triedCals {
		if sameRealm(c, t) {
			if len(s.triedCals) >= maxTriedRealms {
				s.triedCals = append(s.triedCals[:i], s.triedCals[i+1:]...)
			}
			return true
		}
	}
	return false
}

// maxTriedRealms bounds the realms remembered as tried.
const maxTriedRealms = 6

// noteAvatars remembers whose Avatars vision read in a cell of the realm it
// was given: once both players' have shown, the realm is not doubted (the
// tracker is only settling its stability window).
func (s *Session) noteAvatars(obs models.FrameObservation, cal *calibration.Calibration) {
	if s.doubtCal != cal {
		return
	}
	for _, c := range obs.Cards {
		// A card that could not be identified counts too: it may be an
		// Avatar the catalog lacks, and cards found in the realm's cells
		// say the realm is right.
		unnamed := !c.Identified() && c.Kind == models.KindStandard
		if c.Cell != nil && (unnamed || c.Type != nil && models.CardType(*c.Type) == models.Avatar) {
			switch c.Owner {
			case models.South:
				s.avatarsSeen |= 1
			case models.North:
				s.avatarsSeen |= 2
			}
		}
	}
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

// quadString writes corners as "x,y x,y x,y x,y" (the form --corners takes).
func quadString(q models.Quad) string {
	var b strings.Builder
	for i, p := range q {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.0f,%.0f", p.X, p.Y)
	}
	return b.String()
}
