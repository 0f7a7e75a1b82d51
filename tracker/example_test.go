package tracker_test

import (
	"fmt"
	"strings"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
)

// frame builds what vision would read: the Avatars, and whatever else is given.
func frame(i int, extra ...models.CardObservation) models.FrameObservation {
	card := func(cell, name, typ string, owner models.Player) models.CardObservation {
		return models.CardObservation{Cell: models.CellPtr(models.MustCell(cell)), Name: models.StrPtr(name),
			Type: models.StrPtr(typ), Owner: owner, Rotation: models.RotationFor(owner, false), Confidence: 0.9}
	}
	obs := models.FrameObservation{Frame: i, Time: float64(i) / 30, Cards: []models.CardObservation{
		card("C1", "Lantern Warden", "Avatar", models.South), card("C4", "Tide Oracle", "Avatar", models.North)}}
	obs.Cards = append(obs.Cards, extra...)
	return obs
}

func Example() {
	tr := tracker.New(tracker.Config{Window: 0.25})
	site := models.CardObservation{Cell: models.CellPtr(models.MustCell("C1")), Name: models.StrPtr("Emberfall Ridge"),
		Type: models.StrPtr("Site"), Kind: models.KindSite, Owner: models.South, Confidence: 0.95}
	misread := site
	misread.Name = models.StrPtr("Cinder Hollow")
	for i := 0; i < 60; i++ {
		var obs models.FrameObservation
		switch {
		case i < 30:
			obs = frame(i)
		case i < 40:
			obs = frame(i)
			obs.Occluded = true // a hand plays the site
		case i == 45:
			obs = frame(i, misread) // one frame misread: flicker, not an event
		default:
			obs = frame(i, site)
		}
		for _, ev := range tr.Observe(obs) {
			fmt.Println(strings.TrimSpace(fmt.Sprintf("frame %d: %s %v %s", *ev.Frame, ev.Type, ev.Player, ev.Card)))
		}
	}
	// Output:
	// frame 14: game_start none
	// frame 47: turn_start south
	// frame 47: site_played south Emberfall Ridge
}
