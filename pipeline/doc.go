// Package pipeline runs tablecam end to end: a frame source (a video file, a
// camera, or a folder of numbered images), calibration, vision, the tracker,
// and the rules, with every event in the game journal. A Session hands each
// processed frame to its consumer as a models.Update, and takes what the
// players type (manual events, undo, corrections, recalibration, pause).
//
// Finding the realm takes up to a few seconds. A camera's frames do not wait
// for it: the search runs beside the frame loop and the frames meanwhile are
// shown "looking for the realm…"; a file's frames wait, so that a replay is
// the same every time.
//
// A realm found automatically is checked twice over: the camera or the mat
// moving is noticed and the realm found again, and before the game starts a
// realm on which vision does not read both Avatars is doubted and the realm
// that other frames find is tried (a soft picture, such as video scaled up
// from a smaller size, can make calibration settle on half the grid).
//
// Playmats differ in cell size. The size the user states (Config.Geometry,
// --cell-mm) goes into every calibration; when the cards vision reads show
// clearly other cells (vision.Analyzer.Geometry), the calibration in force,
// and the copy kept beside the journal, take those, so that a resumed game
// reads the mat by them from its first frame.
//
// An image file cut short (a copy interrupted, a frame still being
// written) decodes with its lower part grey; ReadImage tells it from a whole
// one by how JPEG and PNG files end, and the frames folder skips it as a
// corrupt frame, as analyze and calibrate refuse it, naming the file.
//
// A change gate spares vision the frames in which nothing moved since the
// board last settled. The gate's small grey top-down picture also serves
// the cover watch: a card the tracker holds hidden under another often shows
// in part beside it, and that part, compared with how the card looked when
// last seen, tells the tracker whether the card is still there or was taken
// away (tracker.HiddenSight). The same look tells of a card in sight that
// vision did not read on a frame (tracker.InSight): still looking as it
// did, the card is still there, and vision losing it for a moment (most
// often just after a hand pass) gives no event.
package pipeline
