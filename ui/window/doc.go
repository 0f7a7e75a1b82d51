// Package window is the overlay's Ebiten window: each frame it paints the
// overlay with ui.Painter, uploads it to the screen, and turns keys and mouse
// clicks into ui.Overlay calls. Updates arrive on a channel, so the window
// never waits for vision. Ebiten needs a display: only the tablecam-overlay
// binary links this package.
package window
