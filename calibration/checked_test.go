package calibration

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestLatticeOnCheckedCloth draws a dark mat with the realm's grid in thin
// light lines on a blurred gingham tablecloth (blue bands every 25 px
// both ways, a quarter of a column and a third of a row), and lays a
// lattice on the cloth beside the mat, its lines on the cloth's bands.
// settleLattice must refuse that lattice as one on a checked cloth, and
// onCheckedCloth must not take the realm for one.
func TestLatticeOnCheckedCloth(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	// Gingham: bands of blue 12 px wide every 25 px each way, darker
	// where they cross.
	frame := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	for y := 0; y < 720; y++ {
		for x := 0; x < 1280; x++ {
			shade := 1.0
			if (x+6)%25 < 12 {
				shade *= 0.62
			}
			if (y+6)%25 < 12 {
				shade *= 0.62
			}
			frame.SetUCharAt(y, x*3, uint8(240*(0.4+0.6*shade)))
			frame.SetUCharAt(y, x*3+1, uint8(225*shade))
			frame.SetUCharAt(y, x*3+2, uint8(215*shade))
		}
	}
	gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 3, 3, gocv.BorderReflect101)
	gocv.Rectangle(&frame, image.Rect(50, 40, 640, 440), color.RGBA{R: 30, G: 70, B: 45}, -1)
	const realmX, realmY = 90, 390
	drawTopDownGrid(&frame, g, realmX, realmY, color.RGBA{R: 200, G: 215, B: 190}, 2)
	soft := softened(t, frame, 41)
	defer soft.Close()
	rm, col, _ := frameMaps(t, soft)
	rm.colour = &col
	realm := topDownLattice(t, g, realmX, realmY)
	if rm.onCheckedCloth(realm, g) {
		t.Errorf("the realm on the mat taken for a lattice on a checked cloth")
	}
	onCloth := topDownLattice(t, g, 700, 650)
	if !rm.onCheckedCloth(onCloth, g) {
		t.Errorf("a lattice on the gingham's lines not taken for one on a checked cloth")
	}
	if _, err := settleLattice(rm, col, true, gridFit{h: onCloth, score: 1}, g, false); !errors.Is(err, errCheckedCloth) {
		t.Errorf("a lattice on the gingham refused for another reason, or kept: %v", err)
	}
}
