package models

import "image"

// Update is what the pipeline hands the overlay after each processed frame.
type Update struct {
	Frame int
	// Time is seconds of video (or since the camera started).
	Time float64
	// Image is the camera frame; nil when the pipeline has none (headless replay).
	Image image.Image
	// Observation is what vision read from this frame.
	Observation FrameObservation
	// State is the game state after this frame's events.
	State GameState
	// Events became stable on this frame.
	Events []Event
	// Warnings were raised by this frame's events.
	Warnings []Warning
	// Status is a short line for the user ("paused", "camera lost, retrying…"), empty when all is well.
	Status string
}

// CorrectionKind says what a correction changes.
type CorrectionKind string

const (
	// RenameCard replaces a misread card's name.
	RenameCard CorrectionKind = "rename"
	// ChangeOwner gives a card to the other player.
	ChangeOwner CorrectionKind = "owner"
	// DropEvent removes a false event from the game.
	DropEvent CorrectionKind = "drop"
)

// Correction fixes what the camera got wrong. It goes into the journal like any event.
type Correction struct {
	Kind CorrectionKind `json:"kind"`
	// Cell and Card name the card to fix (rename, owner).
	Cell *Cell  `json:"cell,omitempty"`
	Card string `json:"card,omitempty"`
	// Name is the new name (rename).
	Name string `json:"name,omitempty"`
	// Owner is the new owner (owner).
	Owner Player `json:"owner,omitempty"`
	// Event is the index of the event to drop (drop).
	Event int `json:"event,omitempty"`
}
