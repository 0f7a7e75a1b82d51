package ui

import (
	"image"
	"image/color"
	"time"

	"github.com/tablecam/tablecam/models"
)

// Mode is the overlay's layout.
type Mode int

const (
	// Normal shows the camera image with the board drawn over it, a HUD per
	// player, recent events and a status line.
	Normal Mode = iota
	// Stream is laid out for capture in OBS: no camera image, a transparent or
	// chroma-key background, large life and mana, and call-outs of cards just played.
	Stream
)

// Recent is an event the overlay has seen, with the overlay time (seconds,
// the same clock as View.Now) it arrived at.
type Recent struct {
	Event models.Event
	At    float64
	// Clock is the time of day it happened (zero when unknown), shown beside it.
	Clock time.Time
	// Earlier marks an event of the game resumed, recorded before this run
	// (read back from its journal): it is listed, never called out.
	Earlier bool
}

// Correcting is the name box: a card clicked to correct its name, or (with
// Casting) a spell a player casts from their hand, which the camera never sees.
type Correcting struct {
	// Casting says the box names a spell Owner casts, not a card to correct.
	Casting bool
	Cell    models.Cell
	// Card is the name the camera gave (empty when unidentified).
	Card string
	// Owner is the card's owner, for the box's colour.
	Owner models.Player
	// Text is what the user has typed so far.
	Text string
	// Suggestions are catalog names matching Text, best first.
	Suggestions []string
	// Selected indexes Suggestions.
	Selected int
}

// Calibrating collects the four realm corners clicked by the user.
type Calibrating struct {
	// Clicked holds the corners clicked so far, in screen pixels.
	Clicked []image.Point
}

// View is everything the painter draws: the latest update from the pipeline
// and the overlay's own state. It is a value: painting never changes it.
type View struct {
	Update models.Update
	// Now is the overlay's clock in seconds; it drives the pulses and call-outs.
	Now float64
	// Recent lists recent events, oldest first.
	Recent []Recent
	// Warnings are the rule warnings raised this turn, oldest first: the
	// rules' state holds only those of its last event, and a judge must not
	// miss one because another event came right after. Shown with those of
	// Update.State (see ShownWarnings).
	Warnings []models.Warning

	Mode Mode
	// Rectified shows the realm top-down instead of the camera's view.
	Rectified bool
	// Help shows the list of keys.
	Help bool
	// Paused says recognition is paused.
	Paused bool
	// Volume is 0–1; Muted silences the cues.
	Volume float64
	Muted  bool
	// Focus is the player the life, damage and mana keys act on.
	Focus models.Player
	// Mouse is the pointer position in screen pixels; nil when outside the window.
	Mouse *image.Point
	// Correcting is non-nil while a card correction is being typed.
	Correcting *Correcting
	// Calibrating is non-nil while the user clicks the realm's corners.
	Calibrating *Calibrating
	// Message is a short notice shown for a few seconds (an error from the
	// tracker, "undone"…); empty for none.
	Message string
	// Background is the stream mode's background: transparent when its alpha
	// is 0, or a chroma-key colour.
	Background color.NRGBA
}

// CalloutSeconds is how long the stream layout calls out a card just played.
const CalloutSeconds = 6.0

// ShownWarnings are the warnings the overlay shows, oldest first: those
// raised this turn (View.Warnings) and those of the state, each once, then
// what still stands on the board (a minion left in the void, …) that none
// of those already speaks of, for as long as it stands.
func (v View) ShownWarnings() []models.Warning {
	ws := mergeWarnings(append([]models.Warning(nil), v.Warnings...), v.Update.State.Warnings)
next:
	for _, s := range v.Update.State.Standing {
		for _, w := range ws {
			if w.SameSubject(s) {
				continue next
			}
		}
		ws = append(ws, s)
	}
	return ws
}

// mergeWarnings adds to ws the warnings of more it does not hold yet.
func mergeWarnings(ws, more []models.Warning) []models.Warning {
next:
	for _, w := range more {
		for _, have := range ws {
			if sameWarning(have, w) {
				continue next
			}
		}
		ws = append(ws, w)
	}
	return ws
}

func sameWarning(a, b models.Warning) bool {
	if a.Code != b.Code || a.Player != b.Player || a.Message != b.Message || len(a.Cells) != len(b.Cells) {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}
