// Package ui is what players and streamers look at: the overlay (camera image, grid, card names,
// warnings, a HUD per player, recent events) and the audio cues. Only ui and its subpackages import
// Ebiten and PortAudio.
package ui
