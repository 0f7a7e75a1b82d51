package pipeline

import (
	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
)

// geometryLearner is an Analyzer that learns the mat's realm cell size from
// the cards it reads (*vision.Analyzer does): Geometry gives the size it
// reads frames by when a calibration states stated.
type geometryLearner interface {
	Geometry(stated models.RealmGeometry) models.RealmGeometry
}

// withGeometry is cal for a mat whose realm cells have size g: the same
// corners, a realm of another size in millimetres. A g without a size
// leaves cal as it is.
func withGeometry(cal *calibration.Calibration, g models.RealmGeometry) *calibration.Calibration {
	if cal == nil || cal.Geometry == g || !(g.CellWidthMM > 0) || !(g.CellHeightMM > 0) {
		return cal
	}
	out, err := cal.WithGeometry(g)
	if err != nil {
		return cal // not for corners that fitted once: any rectangle maps onto them
	}
	return out
}

// stated applies the cell size the user stated (Config.Geometry), when
// they did, to a calibration.
func (s *Session) stated(cal *calibration.Calibration) *calibration.Calibration {
	if s.cfg.Geometry == (models.RealmGeometry{}) {
		return cal
	}
	return withGeometry(cal, s.cfg.Geometry)
}

// keepLearnedGeometry makes the cell size the analyzer learned from the
// cards part of the calibration in force (and of the copy kept beside the
// journal, so that a resumed game starts from it), when it differs from
// what cal states; it gives the calibration to read the frame by.
func (s *Session) keepLearnedGeometry(cal *calibration.Calibration, frame int) *calibration.Calibration {
	l, ok := s.analyzer.(geometryLearner)
	if !ok {
		return cal
	}
	g := l.Geometry(cal.Geometry)
	if g == cal.Geometry || g == (models.RealmGeometry{}) {
		return cal
	}
	learned := withGeometry(cal, g)
	// The realm, when it is looked for again (a knocked camera), is a
	// lattice of cells of this size.
	s.cfg.Detect.Geometry = g
	s.logf("frame %d: the cards show realm cells of %v mm, not %v as the calibration states: reading the mat by them (give --cell-mm to state the size)", frame, g, cal.Geometry)
	s.mu.Lock()
	if s.cal == cal {
		s.setCalibration(learned)
	}
	s.mu.Unlock()
	if s.doubtCal == cal {
		s.doubtCal = learned // the same realm: its doubt goes on
	}
	return learned
}
