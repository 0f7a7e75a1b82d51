// Package ui is what players and streamers look at. Its painter draws the
// whole overlay into an image in pure Go: the camera image (or the realm seen
// from above), the recognized grid, each card's name in its owner's colour,
// tapped marks, warned cells, a HUD per player (life with death's door and
// death blow, mana, affinity with element icons, sites, water and land), the
// turn, recent events with their time of day (after a restart, the resumed
// game's last ones too), the rule warnings, the status line, the help, the
// correction box, and a layout for streaming. Overlay keeps the overlay's
// state between frames and turns keys and clicks into Controller calls (the
// tracker's journal).
//
// ui does not import Ebiten, so programs without a display can paint
// snapshots with it. The subpackages are ui/window (the Ebiten window), ui/audio
// (the PortAudio cues) and ui/live (the flags and the pipeline behind the main job).
package ui
