package pipeline

import (
	"io"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
)

// Analyzer reads one frame of a calibrated realm: *vision.Analyzer fits.
type Analyzer interface {
	Analyze(frame gocv.Mat, cal *calibration.Calibration) (models.FrameObservation, error)
}

// Config says what a Session watches and how.
type Config struct {
	// One of Source, Video, Camera (≥ 0) or Frames gives the frames.
	Source Source
	Video  string
	Camera int // -1 (or any negative) for none
	Frames string
	// FPS is the frame rate of a Frames folder (0 means 30).
	FPS float64

	// Catalog is the card catalog (required).
	Catalog *models.Catalog
	// Calibration, or else Corners, fixes the realm; with neither, the realm
	// is found automatically in the first frames (calibration.Detect).
	Calibration *calibration.Calibration
	Corners     *models.Quad
	// Detect tunes automatic calibration.
	Detect calibration.Options
	// FindRealm, when set, replaces calibration.Detect (tests).
	FindRealm func(frame gocv.Mat, opts calibration.Options) (*calibration.Calibration, error)
	// Geometry is the mat's realm cell size when the user states it: every
	// calibration (given, made from Corners, found, or resumed) takes it.
	// Zero keeps each calibration's own (models.DefaultRealm() for one made
	// from corners or found). Either way, when the cards read show clearly
	// other cells, the analyzer reads by those, and the calibration kept
	// beside the journal records them.
	Geometry models.RealmGeometry

	// Vision tunes the analyzer; Analyzer, when set, replaces it (tests).
	Vision   vision.Options
	Analyzer Analyzer

	// NoGate sends every frame to vision in full. By default a frame in
	// which no part of the realm (or the margin around it) changed since the
	// board last settled reuses that reading.
	NoGate bool

	// Tracker tunes the stable board: stability window, confidence, Avatars.
	Tracker tracker.Config

	// Journal is the journal file; "" makes a new one in the user's data
	// folder (tracker.DefaultJournalDir). With Resume, the game in Journal
	// continues where it stopped.
	Journal string
	Resume  bool

	// NewRules makes the rules engine (default: the Sorcery rules).
	NewRules func() tracker.Rules

	// Realtime plays a file at its frame rate (for a live overlay); without
	// it, frames are read as fast as they can be analysed.
	Realtime bool
	// WithImages puts each frame's picture in its Update.
	WithImages bool
	// Retry is the first wait before reopening a broken stream (default
	// 200 ms); it doubles up to MaxRetry (default 5 s).
	Retry, MaxRetry time.Duration
	// Log receives one line per problem (corrupt frame, camera lost); nil
	// discards them.
	Log io.Writer
}
