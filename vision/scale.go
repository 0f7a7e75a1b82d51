package vision

import (
	"fmt"
	"math"
	"slices"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Playmats differ in cell size: tight mats whose cells barely hold a site,
// roomy ones, other aspect ratios. The calibration states a cell size (by
// default models.DefaultRealm()), and the top-down view maps the realm's
// corners to a realm of that size; on a mat whose cells are larger, every
// card then looks smaller than its reference face, and the searches that
// rely on a card's known size (outlines, sites under units) miss. A card
// identified by its keypoints carries its own scale (the fit's), so the
// cards of a frame tell the mat's true cell size: when they agree that it is
// clearly off, the frame is read again at the size they show, and the
// analyzer keeps that size for the frames after it.
const (
	// scaleConfidentInliers is how many keypoint inliers make a card's fit
	// a measurement: a card in plain view has dozens, and so a scale known
	// to a percent or two.
	scaleConfidentInliers = 24
	// scaleMinCards cards must measure the scale: one or two can be a
	// printing at another size (an oversized card) or a bad fit.
	scaleMinCards = 3
	// scaleAgree is how close to the median a card's scale must be to count
	// as agreeing; most of the measuring cards must agree.
	scaleAgree      = 0.04
	scaleAgreeShare = 0.6
	// scaleOff is how far from 1 the cards' scale must be for the frame to
	// be read again: within it, a card's size in the top-down image is as
	// its reference face within what the fits and the searches tolerate
	// (the corners' error of a detected realm moves it a percent or two).
	scaleOff = 0.06
)

// matScale is what the analyzer has learned of the mat's cell size: the
// size the cards showed (learned) when the calibration stated another
// (stated). It applies to every calibration that states the same size, so
// that a knocked camera, found again, does not pay to learn it again.
type matScale struct {
	stated, learned models.RealmGeometry
	// rereading is set while a frame is read again at a learned size: its
	// cards are not measured again (a frame is read at most twice).
	rereading bool
}

// geometry is the cell size to read a frame by when the calibration states
// stated (zero means the default).
func (m *matScale) geometry(stated models.RealmGeometry) models.RealmGeometry {
	stated = orDefault(stated)
	if m.learned != (models.RealmGeometry{}) && m.stated == stated {
		return m.learned
	}
	return stated
}

// orDefault is g, or models.DefaultRealm() when g has no size.
func orDefault(g models.RealmGeometry) models.RealmGeometry {
	if g.CellWidthMM <= 0 || g.CellHeightMM <= 0 {
		return models.DefaultRealm()
	}
	return g
}

// errRescale stops a frame's reading early, right after the keypoint
// matching, when its cards show that the view's cell size is off.
type errRescale struct{ geo models.RealmGeometry }

func (e *errRescale) Error() string {
	return fmt.Sprintf("vision: the cards show %v mm realm cells", e.geo)
}

// check measures the cards matched in a frame read at geometry geo and
// returns errRescale with the cell size they show when it is clearly off.
func (m *matScale) check(dets []detection, geo models.RealmGeometry) error {
	if m.rereading {
		return nil
	}
	s, ok := cardScale(dets)
	if !ok || math.Abs(s-1) <= scaleOff {
		return nil
	}
	// A card that looks s times its size in a view of geo-sized cells lies
	// on cells 1/s times that size.
	g := models.RealmGeometry{CellWidthMM: roundMM(geo.CellWidthMM / s), CellHeightMM: roundMM(geo.CellHeightMM / s)}
	if g.Validate() != nil {
		return nil
	}
	return &errRescale{g}
}

// roundMM rounds a learned length to a tenth of a millimetre, finer than
// any fit measures it.
func roundMM(mm float64) float64 { return math.Round(mm*10) / 10 }

// cardScale is the scale at which the confidently fitted cards lie in the
// top-down image against their reference faces (1 when the view's cell
// size is the mat's): the median of their fits' scales, when enough cards
// measure it and most agree.
func cardScale(dets []detection) (float64, bool) {
	var scales []float64
	for _, d := range dets {
		if d.score == 0 && d.inliers >= scaleConfidentInliers {
			scales = append(scales, d.sim.scale())
		}
	}
	if len(scales) < scaleMinCards {
		return 0, false
	}
	slices.Sort(scales)
	n := len(scales)
	med := (scales[(n-1)/2] + scales[n/2]) / 2
	agree := 0
	for _, s := range scales {
		if math.Abs(s/med-1) <= scaleAgree {
			agree++
		}
	}
	if agree < scaleMinCards || float64(agree) < scaleAgreeShare*float64(n) {
		return 0, false
	}
	return med, true
}

// rereadAt reads a frame again at the cell size its cards showed, and keeps
// that size for the frames after it.
func (a *Analyzer) rereadAt(frame gocv.Mat, cal *calibration.Calibration, geo models.RealmGeometry) (models.FrameObservation, error) {
	a.scale.stated, a.scale.learned = orDefault(cal.Geometry), geo
	v, err := newView(cal.Corners, geo, frame.Cols(), frame.Rows(), a.opts)
	if err != nil {
		return models.FrameObservation{}, fmt.Errorf("vision: calibration corners %v: %w", cal.Corners, err)
	}
	a.scale.rereading = true
	defer func() { a.scale.rereading = false }()
	return a.analyzeView(frame, v)
}

// Geometry is the cell size the analyzer reads frames by when the
// calibration states stated (zero means models.DefaultRealm()): the size
// the cards showed, once they showed another one, and stated otherwise.
// Keep it with the calibration (its Geometry) so that the next run starts
// from it.
func (a *Analyzer) Geometry(stated models.RealmGeometry) models.RealmGeometry {
	return a.scale.geometry(stated)
}
