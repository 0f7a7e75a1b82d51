// Package pipeline runs tablecam end to end: a frame source (a video file, a
// camera, or a folder of numbered images), calibration, vision, the tracker,
// and the rules, with every event in the game journal. A Session hands each
// processed frame to its consumer as a models.Update, and takes what the
// players type (manual events, undo, corrections, recalibration, pause).
package pipeline
