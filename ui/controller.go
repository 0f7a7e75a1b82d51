package ui

import "github.com/tablecam/tablecam/models"

// Controller takes what the players tell the overlay: everything the camera
// cannot see goes into the tracker's journal through it. *pipeline.Session
// implements it.
type Controller interface {
	// Manual records an event typed by a player: life_gain, life_loss, damage,
	// mana_spent, turn_start, turn_end.
	Manual(ev models.Event) error
	// Undo takes back the last journal entry.
	Undo() error
	// Correct fixes what the camera got wrong.
	Correct(c models.Correction) error
	// Recalibrate sets the realm's corners (A1, E1, E4, A4 in image pixels).
	Recalibrate(corners models.Quad) error
	// SetPaused stops or resumes recognition.
	SetPaused(paused bool)
}
