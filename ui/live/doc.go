// Package live runs the overlay on a live pipeline: the flags shared by
// `tablecam` and `tablecam-overlay`, starting the pipeline on the sample game
// or a camera (reading back, when a game is resumed, its last events for the
// overlay to list), and the headless mode that paints snapshots instead of a
// window. It does not import Ebiten, so `tablecam` can link it on machines
// without a display.
package live
